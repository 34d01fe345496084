// The commit receipt (src/runtime/commit/receipt.ts): its counts add up to what it folded, each fold
// counted once as the agent's, the top-up's or the ladder's; a forced commit says what forced it.

import { describe, expect, it } from "vitest";
import { receiptText } from "../../../src/runtime/index.ts";

const id = (n: number) => `f${n.toString(16).padStart(16, "0")}`;

function body(over: Record<string, unknown> = {}) {
	return {
		kind: "commit" as const,
		actor: "ladder" as const,
		seq: 3,
		reason: "end of a turn: it pays",
		applied: [id(1), id(2), id(3), id(4)],
		agentMarks: [id(1)],
		topUpMarks: [id(2), id(3)],
		refused: [],
		edits: [],
		...over,
	};
}

/** The counts a receipt gives in its parentheses, as numbers. */
function counts(text: string): number[] {
	const inner = /folded \d+ \(([^)]*)\)/.exec(text)?.[1] ?? "";
	return inner.split(", ").map((part) => Number(part.split(" ")[0]));
}

describe("the commit receipt", () => {
	it("counts each fold once: the agent's, the top-up's, the ladder's, adding up to what it folded", () => {
		// f…2 is a top-up mark the ladder also recorded in this commit: counted once, as top-up.
		const text = receiptText(body(), "active-context", () => "ladder", 1_000) ?? "";
		expect(text).toMatch(
			/^\[active-context commit #3, an automatic notice, not from the user; nothing to answer, carry on with the task: folded 4 \(1 agent, 2 top-up, 1 ladder\)/,
		);
		expect(counts(text).reduce((a, b) => a + b, 0)).toBe(4);
	});

	it("counts an agent's own fold (no mark: immediate scheduling) as the agent's", () => {
		const text = receiptText(
			body({ agentMarks: [], topUpMarks: [] }),
			"active-context",
			(f) => (f === id(4) ? "agent" : "ladder"),
			0,
		);
		expect(text).toMatch(/folded 4 \(1 agent, 3 ladder\)/);
	});

	it("names what forced a commit", () => {
		expect(receiptText(body({ force: "budget" }), "active-context", () => "ladder", 0)).toContain(
			"; forced: the window reached its budget",
		);
		expect(receiptText(body(), "active-context", () => "ladder", 0)).not.toContain("forced");
	});
});
