// Smoke test of the fold-latency benchmark (bench/fold-latency.ts) at a tiny size: it runs a real
// Pi session end to end, the fold lands through the tool and the boundary (one context_edit per
// folded entry, the next request shorter by the omitted entries), and the figures add up. No
// wall-clock figure is asserted: the benchmark reports them, it does not judge them here.

import { describe, expect, it } from "vitest";
import { measure } from "../../bench/fold-latency.ts";

describe("the fold-latency benchmark", () => {
	it("folds through the real tool at a tiny size and splits the gap into pi-fold and Pi", async () => {
		const { peer, rows } = await measure({ messages: 200, sizes: [20, 40], repeats: 1, json: false });
		expect(peer.edits).toBe(0);
		expect(rows.map((r) => r.edits)).toEqual([20, 40]);
		for (const row of rows) {
			// The brief replaces the first leaf; the other leaves are omitted.
			expect(row.nextMessages).toBe(peer.nextMessages - (row.size - 1));
			expect(row.piFoldMs + row.piMs).toBeCloseTo(row.gapMs, 6);
			expect(row.addedMs).toBeCloseTo(row.gapMs - peer.gapMs, 6);
			expect(row.applyOnceMs).toBeGreaterThan(0);
		}
	});
});
