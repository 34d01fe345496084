// The report with pi-fold arms in it: pi-fold's own rows (folds, commits, pending marks, peeks, rewrites, what
// recovering facts cost, the fold tree's depth), the default's targets, the recall targets and the spec's epoch
// mode's targets, each with the measured value and a verdict computed from this run, never a constant: each
// verdict is checked against the test's own arithmetic on the arms' numbers, and planted numbers that must miss
// print MISSED (the epoch mode's: "missed by epoch mode", that mode's rows, not the run's). Then the bottom line.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bottomLine } from "../../../bench/session/bottom-line.ts";
import { defaultTargets } from "../../../bench/session/default-targets.ts";
import { type ArmReport, type DemoResult, renderTable, reportSchema, runDemo } from "../../../bench/session/index.ts";
import { recallTargets } from "../../../bench/session/recall-targets.ts";
import { evaluateTargets, type Target } from "../../../bench/session/targets.ts";

let out: string;
let result: DemoResult;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), "pi-fold-demo-pifold-"));
	result = await runDemo(
		{
			stages: 12,
			window: 150_000,
			arms: ["native", "pifold-immediate", "pifold-epoch", "pifold-agent"],
			out,
			progress: false,
		},
		{ command: "test" },
	);
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The table row of `target` with its verdict ("met", or "MISSED", or for a mode's target "missed by <mode> mode"). */
function verdictRow(target: string, met: boolean, mode?: string): RegExp {
	const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const missed = mode ? `missed by ${mode} mode` : "MISSED";
	return new RegExp(`\\| ${escaped} \\| [^\\n]* \\| ${met ? "met" : missed} \\|`);
}

describe("a report with pi-fold arms", () => {
	it("validates, and carries pi-fold's measures for the pi-fold arms only", () => {
		const report = reportSchema.parse(JSON.parse(readFileSync(join(out, "report.json"), "utf8")));
		expect(report.arms.map((a) => [a.name, a.pifold !== undefined])).toEqual([
			["native", false],
			["pifold-immediate", true],
			["pifold-epoch", true],
			["pifold-agent", true],
		]);
		for (const arm of report.arms.filter((a) => a.pifold)) expect(arm.foldEvents).toBe(arm.pifold?.commits);
	});

	it("prints pi-fold's rows and the targets with measured values and verdicts", () => {
		for (const row of [
			"| Folds (by the agent / automatic / briefs by the model) | - |",
			"| Commits (agent's folds in them / added to free enough) | - |",
			"| Agent's folds still waiting at the end | - |",
			"| Peeks (MB read) / expands | - |",
			"| Window rewrites / not at a commit | - |",
			"| Largest request after the first fold or compaction |",
			"| Of them, about receipts |",
			"Targets for pi-fold's default, measured on this run:",
			"The spec's epoch mode (pifold-epoch, not pi-fold's default) against the spec's targets for it:",
			"| pifold-epoch vs the cheaper native: total tokens <= 0.60x |",
			"| pifold-epoch vs pifold-immediate: fresh input <= 0.2x |",
			"pi-fold's default with a curating agent (pifold-agent) against native:",
			"| Measure | pifold-agent | native | ratio |",
			"| Searches (KB shown) | - |",
			"| Original text read per fact recalled | - |",
			"| Tool calls per fact recalled | - |",
			"| Folds nested, deepest / limit | - |",
			"Recall targets, measured on this run:",
			"| curating arms: fold source read per recovered fact <= 4 KB |",
		])
			expect(result.table).toContain(row);
	});

	it("gives every epoch-mode verdict the arms' own numbers give, and prints it as that mode's", () => {
		const { arms, targets } = result.report;
		const arm = (name: string) => arms.find((a) => a.name === name) as ArmReport;
		const [epoch, native, immediate] = [arm("pifold-epoch"), arm("native"), arm("pifold-immediate")];
		const budget = 150_000 - 16_384; // the window (under the 272k tier) less the output reservation
		const peak = epoch.peakAfterFirstRewrite;
		const expected: [string, boolean | null][] = [
			[
				"pifold-epoch vs the cheaper native: total tokens <= 0.60x",
				epoch.totals.totalTokens <= 0.6 * native.totals.totalTokens,
			],
			["pifold-epoch vs the cheaper native: cost <= 0.55x", epoch.totals.cost <= 0.55 * native.totals.cost],
			["pifold-epoch: no request over the long-context threshold (surcharge $0)", epoch.totals.surchargeRequests === 0],
			["pifold-epoch: zero compactions", epoch.compactions === 0],
			[
				`pifold-epoch: peak context after the first commit <= 80% of the serving budget (${budget.toLocaleString("en-US")})`,
				peak !== null && peak <= 0.8 * budget,
			],
			["pifold-epoch vs the cheaper native: file rereads <= 0.3x", epoch.rereads.count <= 0.3 * native.rereads.count],
			[
				"pifold-epoch vs the cheaper native: probes correct >= its, receipts included",
				epoch.probes.correct >= native.probes.correct && epoch.receiptProbes.correct >= native.receiptProbes.correct,
			],
			[
				"pifold-epoch vs pifold-immediate: fresh input <= 0.2x",
				epoch.totals.freshInput <= 0.2 * immediate.totals.freshInput,
			],
		];
		expect(targets.map((t) => [t.target, t.met])).toEqual(expected);
		expect(targets.every((t) => t.mode === "epoch")).toBe(true);
		const total = targets[0] as Target;
		expect(total.ratio).toBeCloseTo(epoch.totals.totalTokens / native.totals.totalTokens, 12);
		for (const [target, met] of expected)
			if (met !== null) expect(result.table).toMatch(verdictRow(target, met, "epoch"));
		// An epoch-mode miss is never printed MISSED: that word is for the default's and the stated targets.
		for (const t of targets) expect(result.table).not.toMatch(verdictRow(t.target, false));
	});

	it("gives every verdict about the default the arms' own numbers give (pifold-agent here; no ladder ran)", () => {
		const { arms, defaultTargets } = result.report;
		const arm = (name: string) => arms.find((a) => a.name === name) as ArmReport;
		const [agent, native] = [arm("pifold-agent"), arm("native")];
		const budget = 150_000 - 16_384;
		const byTarget = new Map(defaultTargets.map((t) => [t.target, t]));
		const expected: [string, boolean | null][] = [
			[
				`pi-fold's default: every stage completed inside its budget (${budget.toLocaleString("en-US")})`,
				agent.stagesCompleted === agent.stageCount && agent.totals.peakContext <= budget,
			],
			["the ladder alone (pifold-ladder) costs at most 0.95x the cheaper native, tiered and flat", null],
			[
				"with the curating agent (pifold-agent) costs at most 0.75x the cheaper native, tiered and flat",
				agent.totals.cost <= 0.75 * native.totals.cost && agent.totals.flatCost <= 0.75 * native.totals.flatCost,
			],
			[
				"pi-fold's default: no more tokens than the cheaper native (windows under 200k)",
				agent.totals.totalTokens <= native.totals.totalTokens,
			],
			[
				"pi-fold's default: at least the cheaper native's questions answered, receipts included",
				agent.probes.correct >= native.probes.correct && agent.receiptProbes.correct >= native.receiptProbes.correct,
			],
			["pi-fold's default: no compaction (120k and larger windows)", agent.compactions === 0],
			[
				"every pi-fold arm: the window rewritten only at its commits",
				["pifold-immediate", "pifold-epoch", "pifold-agent"].every((n) => arm(n).pifold?.unattributedRewrites === 0),
			],
		];
		for (const [target, met] of expected) {
			expect(byTarget.get(target)?.met, target).toBe(met);
			if (met !== null) expect(result.table).toMatch(verdictRow(target, met));
		}
	});

	it("gives every recall verdict the arms' facts, bytes, calls, probes and depths give", () => {
		const { arms, recallTargets } = result.report;
		const curating = arms.filter((a) => a.name !== "native");
		const per = (a: ArmReport, of: "sourceBytes" | "recoveryCalls") => {
			const facts = ["brief", "search", "peek", "expand"].reduce((n, s) => n + (a.answersBy[s] ?? 0), 0);
			return facts > 0 ? (a.pifold?.recall?.[of] ?? 0) / facts : Number.POSITIVE_INFINITY;
		};
		const depthMet = (a: ArmReport) => {
			const r = a.pifold?.recall;
			return r !== undefined && r.maxDepth <= (r.leafFolds > 0 ? Math.log2(r.leafFolds) : 0) + 2;
		};
		const expected: [string, boolean][] = [
			[
				"curating arms: fold source read per recovered fact <= 4 KB",
				curating.every((a) => per(a, "sourceBytes") <= 4_096),
			],
			["curating arms: tool calls per recovered fact <= 2", curating.every((a) => per(a, "recoveryCalls") <= 2)],
			[
				"curating arms: every probe answered correctly (12 of 12 in the 64-stage run)",
				curating.every((a) => a.probes.total > 0 && a.probes.correct === a.probes.total),
			],
			["every pi-fold arm: max fold-tree depth <= log2(leaf folds) + 2", curating.every(depthMet)],
		];
		expect(recallTargets.map((t) => [t.target, t.met])).toEqual(expected);
		expect(recallTargets[0]?.ratio).toBe(Math.max(...curating.map((a) => per(a, "sourceBytes"))));
		for (const [target, met] of expected) expect(result.table).toMatch(verdictRow(target, met));
	});

	it("ends with the bottom line at 80 columns: the default against the cheaper native in dollars and as a ratio, recall, misses", () => {
		const lines = result.table.trimEnd().split("\n");
		const start = lines.indexOf("Bottom line:");
		expect(start).toBeGreaterThan(0);
		const bottom = lines.slice(start);
		expect(bottom).toEqual(bottomLine(result.report));
		for (const line of bottom) expect(line.length, line).toBeLessThanOrEqual(80);
		const { arms, defaultTargets: targets } = result.report;
		const arm = (name: string) => arms.find((a) => a.name === name) as ArmReport;
		// No ladder ran here: the default is the curating agent's arm; the cheaper native is the only native.
		const [agent, native] = [arm("pifold-agent"), arm("native")];
		const text = bottom.join(" ").replace(/\s+/g, " ");
		const usd = (n: number) => `$${n.toFixed(2)}`;
		const saved = native.totals.cost - agent.totals.cost;
		expect(text).toContain(
			`pi-fold's default (pifold-agent, pi-fold as installed) cost ${usd(agent.totals.cost)} for the 12 stages; ` +
				`Pi's own compaction, in its cheaper setting here (native), cost ${usd(native.totals.cost)}. ` +
				`That is ${(agent.totals.cost / native.totals.cost).toFixed(2)}x, ${usd(Math.abs(saved))} ${saved >= 0 ? "less" : "more"}.`,
		);
		expect(text).toContain(
			`it answered ${agent.probes.correct} of ${agent.probes.total} questions about earlier work ` +
				`(${agent.receiptProbes.correct} of ${agent.receiptProbes.total} about receipts)`,
		);
		expect(text).toContain(`native answered ${native.probes.correct} of ${native.probes.total} questions`);
		const missed = targets.filter((t) => t.met === false);
		const ran = targets.filter((t) => t.met !== null);
		if (missed.length === 0)
			expect(text).toContain(`Missed about the default: nothing; ${ran.length} of ${ran.length}`);
		else expect(text).toContain(`Missed about the default (${missed.length} of ${ran.length} targets)`);
		const epoch = result.report.targets.filter((t) => t.met !== null);
		expect(text).toContain(
			`the spec's epoch mode (pifold-epoch) met ${epoch.filter((t) => t.met).length} of its ${epoch.length} targets`,
		);
	});

	it("reports an arm that recovered no fact from folds as MISSED with no ratio, and the report still validates", () => {
		const planted = structuredClone(result.report.arms) as ArmReport[];
		for (const a of planted) a.answersBy = { window: 1 };
		const targets = recallTargets(planted);
		const bytes = targets[0] as Target;
		expect(bytes.met).toBe(false);
		expect(bytes.ratio).toBeNull();
		expect(bytes.measured).toContain("no facts");
		expect(() => reportSchema.parse({ ...result.report, arms: planted, recallTargets: targets })).not.toThrow();
	});

	it("prints MISSED for planted arm numbers that miss, and met for ones that meet", () => {
		const planted = structuredClone(result.report.arms) as ArmReport[];
		const arm = (name: string) => planted.find((a) => a.name === name) as ArmReport;
		const native = arm("native");
		const epoch = arm("pifold-epoch");
		epoch.totals.totalTokens = native.totals.totalTokens; // 1.00x against <= 0.60x
		epoch.totals.cost = native.totals.cost * 0.5; // 0.50x against <= 0.55x
		epoch.compactions = 1;
		epoch.probes.correct = native.probes.correct - 1;
		(arm("pifold-agent").pifold as NonNullable<ArmReport["pifold"]>).unattributedRewrites = 1;
		const recall = arm("pifold-immediate").pifold?.recall as NonNullable<NonNullable<ArmReport["pifold"]>["recall"]>;
		recall.maxDepth = 40;
		const { settings } = result.report;
		const table = renderTable({
			...result.report,
			arms: planted,
			targets: evaluateTargets(planted, settings),
			recallTargets: recallTargets(planted),
			defaultTargets: defaultTargets(planted, settings),
		});
		for (const [target, met, mode] of [
			["pifold-epoch vs the cheaper native: total tokens <= 0.60x", false, "epoch"],
			["pifold-epoch vs the cheaper native: cost <= 0.55x", true, "epoch"],
			["pifold-epoch: zero compactions", false, "epoch"],
			["pifold-epoch vs the cheaper native: probes correct >= its, receipts included", false, "epoch"],
			["every pi-fold arm: the window rewritten only at its commits", false, undefined],
			["every pi-fold arm: max fold-tree depth <= log2(leaf folds) + 2", false, undefined],
		] as const)
			expect(table).toMatch(verdictRow(target, met, mode));
		// The bottom line names the default's miss.
		const bottom = table.slice(table.indexOf("Bottom line:")).replace(/\s+/g, " ");
		expect(bottom).toMatch(/- Missed about the default \([1-9]\d* of \d+ targets\): /);
		expect(bottom).toContain("every pi-fold arm: the window rewritten only at its commits (");
		expect(table).toMatch(/\| pifold-epoch vs the cheaper native: total tokens <= 0\.60x \| 1\.00x \(/);
		expect(table).toContain("pifold-agent 1 other rewrites");
		expect(table).toContain("pifold-immediate 40 <=");
	});
});
