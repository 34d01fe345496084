import { describe, expect, it } from "vitest";
import { WindowObserver } from "../../src/projection/index.ts";

const msg = (text: string) => ({ role: "user", content: text });

describe("the window observer", () => {
	it("classifies appends, identical requests and rewrites with the first divergent index", () => {
		const observer = new WindowObserver();
		const a = msg("a");
		const b = msg("b");
		expect(observer.observe([a], 0).kind).toBe("first");
		expect(observer.observe([a, b], 0).kind).toBe("append");
		expect(observer.observe([a, b], 0).kind).toBe("identical");
		const rewrite = observer.observe([a, msg("B"), msg("c")], 1);
		expect(rewrite).toMatchObject({ kind: "rewrite", firstDivergent: 1, commitSeq: 1 });
	});

	it("counts a rewrite no commit explains as unattributed", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b")], 0);
		const shortened = observer.observe([msg("a")], 0);
		expect(shortened).toMatchObject({ kind: "rewrite", firstDivergent: 1, commitSeq: null });
		expect(observer.counts().unattributedRewrites).toBe(1);
	});

	it("attributes a commit's rewrite once, not to later requests", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a")], 0);
		expect(observer.observe([msg("x")], 1).commitSeq).toBe(1);
		expect(observer.observe([msg("y")], 1).commitSeq).toBeNull();
	});

	it("sees a change made inside a message even when the array is rebuilt", () => {
		const observer = new WindowObserver();
		observer.observe([msg("a"), msg("b")], 0);
		expect(observer.observe([msg("a"), msg("b!")], 0).kind).toBe("rewrite");
	});

	it("reports a cache miss on a pure append as provider-side", () => {
		const observer = new WindowObserver();
		const a = msg("a");
		observer.observe([a], 0);
		observer.recordUsage({ input: 100, cacheRead: 0, cacheWrite: 0 });
		observer.observe([a, msg("b")], 0);
		observer.recordUsage({ input: 120, cacheRead: 0, cacheWrite: 0 });
		expect(observer.counts().providerCacheMisses).toBe(1);
		observer.observe([a, msg("b"), msg("c")], 0);
		observer.recordUsage({ input: 10, cacheRead: 120, cacheWrite: 0 });
		expect(observer.counts().providerCacheMisses).toBe(1);
	});
});
