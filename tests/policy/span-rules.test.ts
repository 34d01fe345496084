// The structural rules of a span (src/policy/span-rules.ts) where Pi's compaction cut inside a tool
// batch: it can keep a batch's results and summarize their call (its cut moves one entry on past an
// omitted reply). A fold's brief goes on its first entry, so a span starting at such a result would
// send a result with no call; it is refused, naming the entry and what to do. A span starting after
// those results, or one that holds them behind a call of its own, folds as ever.

import { describe, expect, it } from "vitest";
import { spanProblem } from "../../src/policy/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { toolResult, toolUse, user } from "../helpers/entries.ts";
import { snapshotOf } from "../helpers/snapshot.ts";

/** Two results whose call is gone, then a prompt and twelve complete batches, then the running prompt. */
function afterACut(): TranscriptEntry[] {
	const out: TranscriptEntry[] = [
		toolResult("r7a", "call_7_0", "read", "read src/a.ts: the first result"),
		toolResult("r7b", "call_7_1", "read", "read src/b.ts: the second result"),
		user("u1", "go on"),
	];
	for (let i = 0; i < 12; i++)
		out.push(
			toolUse(`a${i}`, [{ id: `c${i}`, name: "read", args: { path: `f${i}.ts` } }]),
			toolResult(`r${i}`, `c${i}`, "read", `read f${i}.ts: ${"x".repeat(4_000)}`),
		);
	out.push(user("u2", "and now this"));
	return out;
}

describe("a span where Pi's compaction kept results without their call", () => {
	it("may not start at such a result, and says why and what to do", () => {
		const snap = snapshotOf(afterACut());
		expect(spanProblem(snap, 0, 7)).toBe(
			"entry r7a is a tool result whose call is no longer in the context (Pi's compaction summarized it), so it cannot carry a brief; start the span after it",
		);
		expect(spanProblem(snap, 1, 7)).toMatch(/^entry r7b is a tool result whose call is no longer in the context/);
	});

	it("folds as ever from the entry after them, and a result inside its own batch is no such result", () => {
		const snap = snapshotOf(afterACut());
		expect(spanProblem(snap, 2, 7)).toBeNull();
		expect(spanProblem(snap, 3, 7)).toBeNull();
	});
});
