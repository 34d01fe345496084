// The report with pi-fold arms in it: pi-fold's own rows (folds, commits, pending marks, peeks, rewrites, what
// recovering facts cost, the fold tree's depth) and the issue-5 and issue-12 targets, each with the measured value
// and a verdict computed from this run, never a constant: each verdict is checked against the test's own
// arithmetic on the arms' numbers, and planted numbers that must miss print MISSED.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** The table row of `target` with its verdict ("met" or "MISSED") in the last column. */
function verdictRow(target: string, met: boolean): RegExp {
	const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return new RegExp(`\\| ${escaped} \\| [^\\n]* \\| ${met ? "met" : "MISSED"} \\|`);
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
			"| pi-fold folds (agent / ladder / model briefs) | - |",
			"| pi-fold commits (agent marks / top-up) | - |",
			"| Pending marks at the end | - |",
			"| Peeks, bytes peeked / expands | - |",
			"| pi-fold rewrites / unattributed | - |",
			"| Peak context after the first rewrite |",
			"| Receipt probes correct |",
			"Targets (issue 5), measured on this run:",
			"| pifold-epoch vs the cheaper native: total tokens <= 0.60x |",
			"| pifold-epoch vs pifold-immediate: fresh input <= 0.2x |",
			"Agent curation (pifold-agent) against native (issue 4's benchmark):",
			"| Measure | pifold-agent | native | ratio |",
			"| Searches, bytes shown | - |",
			"| Fold source read per recovered fact | - |",
			"| Tool calls per recovered fact | - |",
			"| Fold tree depth / log2(leaf folds) + 2 | - |",
			"Targets (issue 12, recall), measured on this run:",
			"| curating arms: fold source read per recovered fact <= 4 KB |",
		])
			expect(result.table).toContain(row);
	});

	it("gives every issue-5 verdict the arms' own numbers give, and prints it", () => {
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
			[
				"every pi-fold arm: zero unattributed rewrites",
				["pifold-immediate", "pifold-epoch", "pifold-agent"].every((n) => arm(n).pifold?.unattributedRewrites === 0),
			],
			[`pifold-ladder: completes every stage inside the budget (${budget.toLocaleString("en-US")})`, null],
		];
		expect(targets.map((t) => [t.target, t.met])).toEqual(expected);
		const total = targets[0] as Target;
		expect(total.ratio).toBeCloseTo(epoch.totals.totalTokens / native.totals.totalTokens, 12);
		expect(targets.at(-1)?.measured).toBe("not run");
		for (const [target, met] of expected) if (met !== null) expect(result.table).toMatch(verdictRow(target, met));
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
		});
		for (const [target, met] of [
			["pifold-epoch vs the cheaper native: total tokens <= 0.60x", false],
			["pifold-epoch vs the cheaper native: cost <= 0.55x", true],
			["pifold-epoch: zero compactions", false],
			["pifold-epoch vs the cheaper native: probes correct >= its, receipts included", false],
			["every pi-fold arm: zero unattributed rewrites", false],
			["every pi-fold arm: max fold-tree depth <= log2(leaf folds) + 2", false],
		] as const)
			expect(table).toMatch(verdictRow(target, met));
		expect(table).toMatch(/\| pifold-epoch vs the cheaper native: total tokens <= 0\.60x \| 1\.00x \(/);
		expect(table).toContain("pifold-agent 1");
		expect(table).toContain("pifold-immediate 40 <=");
	});
});
