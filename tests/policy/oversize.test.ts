// Results too large for the window (src/policy/oversize.ts): the newest batch's results are picked
// for excerpts, largest first, only when the next request cannot fit even with every other stale
// unit folded, and only as many as bring it to 80% of the budget (and within it at the highest rate the
// provider may count, when the session has not measured it yet); a batch that fits is left alone.

import { describe, expect, it } from "vitest";
import {
	BATCH_EXCERPT_MIN_TOKENS,
	EXCERPT_MIN_TOKENS,
	oversizedResults,
	windowTokens,
} from "../../src/policy/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { toolResult, toolUse, user } from "../helpers/entries.ts";
import { snapshotOf } from "../helpers/snapshot.ts";

/** A prompt, then one batch of parallel reads whose results hold `chars` characters each. */
function batch(chars: number[]): TranscriptEntry[] {
	const calls = chars.map((_, i) => ({ id: `c${i}`, name: "read", args: { path: `big${i}.ts` } }));
	return [
		user("u0", "read the three files"),
		toolUse("a0", calls),
		...chars.map((n, i) =>
			toolResult(`r${i}`, `c${i}`, "read", `// big${i}.ts\n${"const value = 1;\n".repeat(Math.ceil(n / 17))}`),
		),
	];
}

describe("results too large for the window", () => {
	it("leaves a batch alone when the next request fits the budget", () => {
		const snap = snapshotOf(batch([40_000, 40_000]));
		const tokens = windowTokens(snap);
		expect(oversizedResults(snap, tokens, tokens.total).results).toEqual([]);
	});

	it("excerpts the largest results first until the next request sits at 80% of the budget", () => {
		const snap = snapshotOf(batch([300_000, 500_000, 200_000]));
		const tokens = windowTokens(snap);
		const budget = snap.budget.budgetTokens;
		expect(tokens.total).toBeGreaterThan(budget);
		const plan = oversizedResults(snap, tokens, tokens.total);
		// The largest goes first; as many as it takes to come down to 80% of the budget, no more.
		const picked = plan.results.map((r) => r.entry.id);
		expect(picked[0]).not.toBe("r2");
		expect(picked).toContain("r1");
		expect(tokens.total - plan.freedTokens).toBeLessThanOrEqual(0.8 * budget);
		// No more than needed: without the last one picked it would not fit at 80%.
		const last = plan.results.at(-1);
		expect(tokens.total - plan.freedTokens + (last?.tokens ?? 0)).toBeGreaterThan(0.8 * budget);
	});

	it("folds a batch too large as a whole as one excerpt of the batch: each result's place, its position in it", () => {
		// Five hundred results of ~600 tokens: none large enough for an excerpt of its own, together over the budget.
		const snap = snapshotOf(batch(Array.from({ length: 500 }, () => 2_000)));
		const tokens = windowTokens(snap);
		const budget = snap.budget.budgetTokens;
		expect(tokens.total).toBeGreaterThan(budget);
		const plan = oversizedResults(snap, tokens, tokens.total);
		expect(plan.results.length).toBeGreaterThan(0);
		expect(plan.results.every((r) => r.tokens < EXCERPT_MIN_TOKENS && r.batch?.count === 500)).toBe(true);
		expect(plan.results.map((r) => r.batch?.position)).toEqual(
			plan.results.map((r) => Number(r.entry.id.slice(1)) + 1),
		);
		expect(tokens.total - plan.freedTokens).toBeLessThanOrEqual(0.8 * budget);
		expect(plan.results.every((r) => r.tokens >= BATCH_EXCERPT_MIN_TOKENS)).toBe(true);
	});

	it("never picks a result too small for an excerpt to shrink", () => {
		const snap = snapshotOf(batch([2_000_000, 1_000]));
		const plan = oversizedResults(snap, windowTokens(snap), windowTokens(snap).total);
		expect(plan.results.map((r) => r.entry.id)).toEqual(["r0"]);
		expect(plan.results.every((r) => r.tokens >= EXCERPT_MIN_TOKENS)).toBe(true);
	});

	it("brings the request within the budget at the rate bound it is given", () => {
		const snap = snapshotOf(batch([300_000, 300_000, 300_000]));
		const tokens = windowTokens(snap);
		const budget = snap.budget.budgetTokens;
		const measured = oversizedResults(snap, tokens, tokens.total);
		const unmeasured = oversizedResults(snap, tokens, tokens.total, 2);
		expect(unmeasured.results.length).toBeGreaterThan(measured.results.length);
		expect(tokens.total - unmeasured.freedTokens).toBeLessThanOrEqual(budget / 2);
		// A batch that fits at the calibration is left alone whatever the bound.
		const fits = snapshotOf(batch([40_000, 40_000]));
		expect(oversizedResults(fits, windowTokens(fits), windowTokens(fits).total, 2).results).toEqual([]);
	});
});
