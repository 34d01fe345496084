// The report with pi-fold arms in it: pi-fold's own rows (folds, commits, pending marks, peeks, rewrites, what
// recovering facts cost, the fold tree's depth) and the issue-5 and issue-12 targets, each with the measured value
// and a verdict computed from this run, never a constant.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoResult, reportSchema, runDemo } from "../../../bench/session/index.ts";
import { pifoldServingBudget } from "../../../bench/session/options.ts";
import { recallCost, recallTargets } from "../../../bench/session/recall-targets.ts";
import { evaluateTargets } from "../../../bench/session/targets.ts";

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
			"| pifold-epoch vs native: total tokens <= 0.60x |",
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

	it("computes every verdict from the arms: ratios from the totals, and 'not run' for a missing arm", () => {
		const { arms, settings } = result.report;
		const targets = evaluateTargets(arms, settings);
		expect(targets).toEqual(result.report.targets);
		const [epoch, native, immediate] = ["pifold-epoch", "native", "pifold-immediate"].map((n) =>
			arms.find((a) => a.name === n),
		);
		const total = targets.find((t) => t.target.startsWith("pifold-epoch vs native: total tokens"));
		expect(total?.ratio).toBeCloseTo((epoch?.totals.totalTokens ?? 0) / (native?.totals.totalTokens ?? 1), 12);
		expect(total?.met).toBe((total?.ratio ?? 1) <= 0.6);
		const fresh = targets.find((t) => t.target.startsWith("pifold-epoch vs pifold-immediate"));
		expect(fresh?.ratio).toBeCloseTo((epoch?.totals.freshInput ?? 0) / (immediate?.totals.freshInput ?? 1), 12);
		const peak = targets.find((t) => t.target.includes("peak context after the first commit"));
		expect(peak?.target).toContain(pifoldServingBudget(settings.window, settings.maxTokens).toLocaleString("en-US"));
		const ladder = targets.find((t) => t.target.startsWith("pifold-ladder"));
		expect(ladder).toMatchObject({ measured: "not run", met: null });
	});

	it("computes the recall targets from the arms' recall measures and answer sources", () => {
		const { arms } = result.report;
		expect(recallTargets(arms)).toEqual(result.report.recallTargets);
		const bytes = result.report.recallTargets.find((t) => t.target.includes("fold source read per recovered fact"));
		const worst = Math.max(
			...arms
				.filter((a) => a.name !== "native")
				.map((a) => {
					const c = recallCost(a);
					return c && c.facts > 0 ? c.bytes / c.facts : Number.POSITIVE_INFINITY;
				}),
		);
		expect(bytes?.ratio).toBe(worst);
		expect(bytes?.met).toBe(worst <= 4_096);
		expect(recallTargets(arms.filter((a) => a.name === "native")).every((t) => t.met === null)).toBe(true);
	});
});
