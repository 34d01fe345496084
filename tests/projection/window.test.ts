import { describe, expect, it } from "vitest";
import { NO_MOVES, type WindowMoves, WindowObserver } from "../../src/projection/index.ts";

const msg = (text: string) => ({ role: "user", content: text });
const system = (prompt: string, timestamp = 1) => ({ role: "system", content: "", sections: { prompt }, timestamp });

/** Commit `seq` (and every one before it) first changed the window after `firstEdit` conversation messages. */
const committed = (seq: number, firstEdit: number, compactions = 0): WindowMoves => ({
	commitSeq: seq,
	compactions,
	firstEdit: () => firstEdit,
});

describe("the window observer", () => {
	it("classifies appends, identical requests and rewrites with the first divergent index", () => {
		const observer = new WindowObserver();
		const a = msg("a");
		const b = msg("b");
		expect(observer.observe([a], NO_MOVES).kind).toBe("first");
		expect(observer.observe([a, b], NO_MOVES).kind).toBe("append");
		expect(observer.observe([a, b], NO_MOVES).kind).toBe("identical");
		const rewrite = observer.observe([a, msg("B"), msg("c")], committed(1, 1));
		expect(rewrite).toMatchObject({ kind: "rewrite", firstDivergent: 1, commitSeq: 1, cause: "commit" });
	});

	it("counts a rewrite no commit explains as unattributed", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b")], NO_MOVES);
		const shortened = observer.observe([msg("a")], NO_MOVES);
		expect(shortened).toMatchObject({ kind: "rewrite", firstDivergent: 1, commitSeq: null, cause: null });
		expect(observer.counts().unattributedRewrites).toBe(1);
	});

	it("attributes a commit's rewrite once, not to later requests", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a")], NO_MOVES);
		expect(observer.observe([msg("x")], committed(1, 0)).commitSeq).toBe(1);
		expect(observer.observe([msg("y")], committed(1, 0)).commitSeq).toBeNull();
	});

	it("does not attribute a rewrite that starts before the commit's first edit", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b"), msg("c")], NO_MOVES);
		// The commit first changed the third message; this request differs from the second one on.
		const early = observer.observe([msg("a"), msg("B"), msg("C")], committed(1, 2));
		expect(early).toMatchObject({ kind: "rewrite", firstDivergent: 1, commitSeq: null, cause: null });
		expect(observer.counts().unattributedRewrites).toBe(1);
		// At the commit's own first edit, or after it, the commit explains it.
		observer.observe([msg("a"), msg("B"), msg("C"), msg("d")], NO_MOVES);
		const atEdit = observer.observe([msg("a"), msg("B"), msg("x")], committed(2, 2));
		expect(atEdit).toMatchObject({ kind: "rewrite", firstDivergent: 2, commitSeq: 2, cause: "commit" });
		expect(observer.counts().unattributedRewrites).toBe(1);
	});

	it("counts conversation messages for the position, and never attributes a changed system head to a commit", () => {
		const observer = new WindowObserver();
		observer.observe([system("p"), msg("a"), msg("b")], NO_MOVES);
		// The commit's first edit is after one conversation message: index 2 of the request, system head first.
		expect(observer.observe([system("p"), msg("a"), msg("B")], committed(1, 1)).cause).toBe("commit");
		const prompt = observer.observe([system("q"), msg("a"), msg("B")], committed(2, 0));
		expect(prompt).toMatchObject({ kind: "rewrite", firstDivergent: 0, cause: null });
	});

	it("ignores the system head's timestamp (no provider is sent it), not its prompt or tools", () => {
		const observer = new WindowObserver();
		observer.observe([system("p", 1), msg("a")], NO_MOVES);
		expect(observer.observe([system("p", 99), msg("a"), msg("b")], NO_MOVES).kind).toBe("append");
		const tools = { ...system("p", 99), toolsAdded: [{ name: "read" }] };
		expect(observer.observe([tools, msg("a"), msg("b")], NO_MOVES).kind).toBe("rewrite");
	});

	it("attributes any rewrite to a native compaction since the last request", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b")], NO_MOVES);
		const compacted = observer.observe([msg("summary"), msg("b")], { ...NO_MOVES, compactions: 1 });
		expect(compacted).toMatchObject({ kind: "rewrite", firstDivergent: 0, commitSeq: null, cause: "compaction" });
		expect(observer.counts().unattributedRewrites).toBe(0);
	});

	it("sees a change made inside a message even when the array is rebuilt", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b")], NO_MOVES);
		expect(observer.observe([msg("a"), msg("b!")], NO_MOVES).kind).toBe("rewrite");
	});

	it("reports a cache miss on a pure append as provider-side", () => {
		const observer = new WindowObserver();
		const a = msg("a");
		observer.observe([a], NO_MOVES);
		observer.recordUsage({ input: 100, cacheRead: 0, cacheWrite: 0 });
		observer.observe([a, msg("b")], NO_MOVES);
		observer.recordUsage({ input: 120, cacheRead: 0, cacheWrite: 0 });
		expect(observer.counts().providerCacheMisses).toBe(1);
		observer.observe([a, msg("b"), msg("c")], NO_MOVES);
		observer.recordUsage({ input: 10, cacheRead: 120, cacheWrite: 0 });
		expect(observer.counts().providerCacheMisses).toBe(1);
	});
});
