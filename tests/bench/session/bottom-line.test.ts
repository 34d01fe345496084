// The demo's bottom line on planted arms: every line at most 80 columns; the default (pifold-ladder when it
// ran) against the cheaper native in dollars and as a ratio, the curating agent's cost beside it, recall for
// both, the default's missed targets named (or "nothing"), the epoch mode's count as that mode's; and a
// plain note when the arms it compares did not both run.

import { describe, expect, it } from "vitest";
import { bottomLine, wrap } from "../../../bench/session/bottom-line.ts";
import type { ArmReport, Report } from "../../../bench/session/session-report.ts";
import type { Target } from "../../../bench/session/targets.ts";

function arm(name: string, cost: number, probes: number, receipts: number, rereads: number): ArmReport {
	return {
		name,
		stageCount: 64,
		stagesCompleted: 64,
		totals: { cost, flatCost: cost },
		probes: { correct: probes, total: 12 },
		receiptProbes: { correct: receipts, total: 4 },
		rereads: { count: rereads, chars: 0 },
		...(name.startsWith("pifold") ? { pifold: {} } : {}),
	} as unknown as ArmReport;
}

const target = (text: string, met: boolean | null, mode?: string): Target => ({
	target: text,
	measured: met === null ? "not run" : "measured",
	ratio: null,
	met,
	...(mode ? { mode } : {}),
});

function report(arms: ArmReport[], defaults: Target[], epoch: Target[] = []): Report {
	return { arms, defaultTargets: defaults, recallTargets: [], targets: epoch } as unknown as Report;
}

const flat = (lines: readonly string[]) => lines.join(" ").replace(/\s+/g, " ");

describe("the demo's bottom line", () => {
	const arms = [
		arm("native", 22.13, 11, 3, 10),
		arm("native-tuned", 13.54, 10, 2, 22),
		arm("pifold-ladder", 5.94, 12, 4, 0),
		arm("pifold-agent", 6.0, 12, 4, 0),
		arm("pifold-epoch", 14.92, 12, 4, 0),
	];

	it("compares the default with the cheaper native in dollars and as a ratio, at 80 columns", () => {
		const lines = bottomLine(
			report(
				arms,
				[target("pi-fold's default: a", true), target("b", true), target("c", null)],
				[target("e1", true, "epoch"), target("e2", false, "epoch"), target("e3", null, "epoch")],
			),
		);
		expect(lines[0]).toBe("Bottom line:");
		for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
		expect(flat(lines)).toBe(
			"Bottom line: - Cost: pi-fold's default (pifold-ladder, pi-fold as installed) cost $5.94 for the 64 stages; " +
				"Pi's own compaction, in its cheaper setting here (native-tuned), cost $13.54. That is 0.44x, $7.60 less. " +
				"- With an agent that also folds (pifold-agent): $6.00, 0.44x. " +
				"- Recall: it answered 12 of 12 questions about earlier work (4 of 4 about receipts) and read no file twice; " +
				"native-tuned answered 10 of 12 questions about earlier work (2 of 4 about receipts) and read 22 files again. " +
				"- Missed about the default: nothing; 2 of 2 of its targets above are met. " +
				"- Not the default: the spec's epoch mode (pifold-epoch) met 1 of its 2 targets (its table above).",
		);
	});

	it("names each missed target about the default with what was measured, and says when it costs more", () => {
		const costly = arms.map((a) => (a.name === "pifold-ladder" ? arm("pifold-ladder", 15, 9, 1, 3) : a));
		const text = flat(
			bottomLine(report(costly, [target("pi-fold's default: no compaction", false), target("other", true)])),
		);
		expect(text).toContain("cost $15.00 for the 64 stages");
		expect(text).toContain("That is 1.11x, $1.46 more.");
		expect(text).toContain(
			"it answered 9 of 12 questions about earlier work (1 of 4 about receipts) and read 3 files again",
		);
		expect(text).toContain("- Missed about the default (1 of 2 targets): no compaction (measured).");
		expect(text).not.toContain("epoch mode");
	});

	it("takes the curating agent's arm as the default when the ladder did not run", () => {
		const text = flat(bottomLine(report([arms[1] as ArmReport, arms[3] as ArmReport], [])));
		expect(text).toContain("pi-fold's default (pifold-agent, pi-fold as installed) cost $6.00");
		expect(text).not.toContain("With an agent that also folds");
	});

	it("says in one plain sentence that there is none when no default or no native arm ran", () => {
		for (const only of [[arms[0] as ArmReport], [arms[4] as ArmReport, arms[0] as ArmReport]]) {
			const lines = bottomLine(report(only, []));
			expect(flat(lines)).toBe(
				"Bottom line: none, since it compares pi-fold's default (pifold-ladder or pifold-agent) with a native arm and both did not run.",
			);
			for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
		}
	});

	it("wraps words at 80 columns, indenting the lines after the first", () => {
		const lines = wrap(`- ${"word ".repeat(40).trim()}`);
		expect(lines.length).toBeGreaterThan(2);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
		for (const line of lines.slice(1)) expect(line.startsWith("  word")).toBe(true);
		expect(lines.join(" ").replace(/\s+/g, " ")).toBe(`- ${"word ".repeat(40).trim()}`);
	});
});
