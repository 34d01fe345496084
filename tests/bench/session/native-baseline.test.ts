// The strongest native: `native-tuned` is Pi's compaction set through Pi's own settings (compaction.reserveTokens)
// to trigger below the long-context tier, so in a window past the tier it never pays the tier while `native` (Pi's
// defaults) does; below the tier it is Pi's defaults. Every sweep target that compares to native is judged against
// the cheaper of the two at each window and price table, and its verdict names which one it was.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PI_DEFAULT_RESERVE_TOKENS, tunedReserveTokens } from "../../../bench/session/arms.ts";
import {
	type ArmReport,
	type DemoResult,
	evaluateSweep,
	PRICES,
	type Report,
	runDemo,
} from "../../../bench/session/index.ts";
import { renderSweepTable } from "../../../bench/session/sweep-table.ts";

const WINDOW = 300_000;
let out: string;
let result: DemoResult;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), "pi-fold-demo-native-"));
	result = await runDemo(
		{ stages: 32, window: WINDOW, arms: ["native", "native-tuned"], out, progress: false },
		{ command: "test" },
	);
}, 240_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const arm = (report: Report, name: string) => report.arms.find((a) => a.name === name) as ArmReport;

describe("native-tuned", () => {
	it("reserves Pi's default headroom below the tier where the window reaches past it, else Pi's default", () => {
		expect(tunedReserveTokens(200_000)).toBe(PI_DEFAULT_RESERVE_TOKENS);
		expect(tunedReserveTokens(PRICES.longContextThreshold)).toBe(PI_DEFAULT_RESERVE_TOKENS);
		expect(tunedReserveTokens(372_000)).toBe(372_000 - PRICES.longContextThreshold + PI_DEFAULT_RESERVE_TOKENS);
	});

	it("never pays the long-context tier in a window past it, where Pi's defaults do, and completes every stage", () => {
		const native = arm(result.report, "native");
		const tuned = arm(result.report, "native-tuned");
		expect(native.totals.surchargeRequests).toBeGreaterThan(0);
		expect(tuned.totals.surchargeRequests).toBe(0);
		expect(tuned.totals.peakContext).toBeLessThanOrEqual(PRICES.longContextThreshold);
		expect(tuned.compactions).toBeGreaterThan(0);
		expect(tuned.stagesCompleted).toBe(tuned.stageCount);
	});
});

describe("targets against the cheaper native", () => {
	/** The run's report with a planted pi-fold default arm costing `share` of native-tuned, tiered and flat. */
	function planted(share: number, tunedCheaper: boolean): Report {
		const report = structuredClone(result.report) as Report;
		const native = arm(report, "native");
		const tuned = arm(report, "native-tuned");
		const [cheap, dear] = tunedCheaper ? [tuned, native] : [native, tuned];
		dear.totals.cost = cheap.totals.cost * 2;
		dear.totals.flatCost = cheap.totals.flatCost * 2;
		const ladder = { ...structuredClone(cheap), name: "pifold-ladder" };
		ladder.totals.cost = cheap.totals.cost * share;
		ladder.totals.flatCost = cheap.totals.flatCost * share;
		report.arms.push(ladder);
		return report;
	}
	const LADDER = "the ladder alone never costs more than the cheaper native (tiered and flat)";

	it("judges a ratio against the cheaper native and names it in the verdict line", () => {
		for (const tunedCheaper of [true, false]) {
			const name = tunedCheaper ? "native-tuned" : "native";
			// 1.5x the cheaper one is 0.75x the dearer one: it misses, against the cheaper.
			const missed = evaluateSweep([planted(1.5, tunedCheaper)]).find((v) => v.target === LADDER);
			expect(missed?.met).toBe(false);
			expect(missed?.measured).toBe(`pifold-ladder at 300k 1.50x ${name} / 1.50x ${name}`);
			const met = evaluateSweep([planted(0.9, tunedCheaper)]).find((v) => v.target === LADDER);
			expect(met?.met).toBe(true);
			const table = renderSweepTable([planted(1.5, tunedCheaper)], evaluateSweep([planted(1.5, tunedCheaper)]));
			expect(table).toContain(`| ${LADDER} | pifold-ladder at 300k 1.50x ${name} / 1.50x ${name} | MISSED |`);
			expect(table).toContain(`cheaper native arm at the same window and price table (300k ${name})`);
		}
	});
});
