// The replay target of issue 20: `pi-fold replay` of each sweep window's native session file predicts the
// `pifold-ladder` arm's measured cost within 10% and its fold events within 25%. A real two-window sweep (60k and
// 200k, the default 64 stages, the two arms the target compares) prints the section "replay against the benchmark"
// and its verdict; a window run without both arms is printed as not comparable. The replay prices at the
// benchmark's table, its long-context tier included (tests/replay/replay-tiers.test.ts). 60k is the window where
// native compacts most (23 times) and rereads most after it (41 files): the replay sends those rereads as the
// search pi-fold's guidelines call for (src/replay/replay-rereads.ts); sent as recorded, its fold events were 29% over.
// Since the benchmark's agent answers a line-count question with one search (a search hit says how long the file
// is), where it used to search and then peek, its ladder arm at 60k commits 35 times where the replay of native's
// session predicts 45 (1.29x): the target's fold half is MISSED there, and this test checks that the sweep says so
// (the bound is not loosened); cost at both windows and fold events at 200k still hold and are asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSweep, type SweepResult } from "../../../bench/session/index.ts";
import { replayAgainstBenchmark, replayVerdict } from "../../../bench/session/sweep-replay.ts";

let out: string;
let sweep: SweepResult;

beforeAll(async () => {
	out = mkdtempSync(join(tmpdir(), "pi-fold-sweep-replay-"));
	// Without realistic reuse: a replay sends the native session's own replies, so it cannot see the
	// recalls the benchmark's agent makes of facts from files read stages earlier (the full sweep, with
	// reuse on, prints how far the replay then falls short: docs/session-benchmark.md).
	sweep = await runSweep({
		arms: ["native", "pifold-ladder"],
		windows: [60_000, 200_000],
		out,
		progress: false,
		reuse: false,
	});
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the replay against the benchmark", () => {
	it("predicts the ladder arm's cost within 10% at 60k and 200k and its fold events within 25% at 200k; says MISSED where it is not", () => {
		expect(sweep.replay.map((a) => a.window)).toEqual([60_000, 200_000]);
		let within = true;
		for (const a of sweep.replay) {
			expect(a.notComparable).toBeNull();
			const p = a.predicted as { cost: number; folds: number };
			const m = a.measured as { cost: number; folds: number };
			expect(m.folds).toBeGreaterThan(0);
			expect(Math.abs(p.cost / m.cost - 1)).toBeLessThanOrEqual(0.1);
			const folds = Math.abs(p.folds / m.folds - 1) <= 0.25;
			if (a.window === 200_000) expect(folds).toBe(true);
			within &&= folds;
		}
		const verdict = sweep.verdicts.at(-1);
		expect(verdict?.target).toBe("replay predicts pifold-ladder within 10% (cost) and 25% (fold events)");
		expect(verdict?.met).toBe(within);
	});

	it("prints the section with a row per window and the verdict", () => {
		const section = sweep.table.slice(sweep.table.indexOf("Replay against the benchmark"));
		expect(section).toMatch(/^\| 60k \| \$\d+\.\d\d \| \$\d+\.\d\d \| \d\.\d\dx \| \d+ \| \d+ \| \d\.\d\dx \|$/m);
		expect(section).toMatch(/^\| 200k \| /m);
		const met = sweep.verdicts.at(-1)?.met ? "met" : "MISSED";
		expect(section).toMatch(
			new RegExp(
				`\\| replay predicts pifold-ladder within 10% \\(cost\\) and 25% \\(fold events\\) \\| .* \\| ${met} \\|`,
			),
		);
	});

	it("says a window run without both arms is not comparable instead of guessing", async () => {
		const report = sweep.reports[1];
		if (!report) throw new Error("no 200k report");
		const alone = { ...report, arms: report.arms.filter((a) => a.name !== "pifold-ladder") };
		const a = await replayAgainstBenchmark(alone, "/nonexistent");
		expect(a.predicted).toBeNull();
		expect(a.notComparable).toBe("needs the native and pifold-ladder arms");
		expect(replayVerdict([a]).met).toBe(false);
		expect(replayVerdict([...sweep.replay, a]).measured).toMatch(/not comparable at 200k$/);
	});
});
