// The rescue (src/policy/rescue.ts): under pressure it folds stale units oldest first, only as far as
// the room asked for, and every stale unit when asked for all; the newest unit, the user message that
// opened the running turn, protected entries and the units a caller keeps stay raw; a fold the same
// commit lands across a run's first unit moves the span's start past it instead of losing the run.

import { describe, expect, it } from "vitest";
import { rescueProposals, windowTokens } from "../../src/policy/index.ts";
import { batchSession, snapshotOf } from "../helpers/snapshot.ts";

/** One prompt, then `n` write batches (not read-only: only the rescue may fold them). */
const writes = (n: number) => batchSession(n, "write");

describe("the rescue", () => {
	it("folds every stale unit when asked for all, keeping the newest unit and the opening prompt raw", () => {
		const snap = snapshotOf(writes(8));
		const [span, ...rest] = rescueProposals(snap, windowTokens(snap));
		expect(rest).toEqual([]);
		// Entry 0 is the user prompt that opened the run; the last batch (2 entries) is the newest unit.
		expect(span).toMatchObject({ rung: "rescue", start: 1, end: 1 + 7 * 2 });
	});

	it("folds oldest first and stops at the first unit boundary that makes the room asked for", () => {
		const snap = snapshotOf(writes(8));
		const tokens = windowTokens(snap);
		const perBatch = tokens.range(1, 3);
		const [span, ...rest] = rescueProposals(snap, tokens, perBatch * 2.5);
		expect(rest).toEqual([]);
		// Three batches make the room (two fall short once a placeholder replaces them): the rest stay raw.
		expect(span).toMatchObject({ start: 1, end: 1 + 3 * 2 });
		expect(span?.freedTokens).toBeGreaterThanOrEqual(perBatch * 2.5);
	});

	it("splits its spans around protected entries and the units the caller keeps", () => {
		const snap = snapshotOf(writes(8), ["r2"]);
		const kept = (u: { start: number }) => u.start === 9;
		const spans = rescueProposals(snap, windowTokens(snap), Number.POSITIVE_INFINITY, kept);
		expect(spans.map((s) => [s.start, s.end])).toEqual([
			[1, 5],
			[7, 9],
			[11, 15],
		]);
	});

	it("starts its span past a fold of the same commit that straddles the run's first unit", () => {
		const snap = snapshotOf(writes(8));
		// A fold landing alongside over [0, 3) (a consolidation of the folds before the run can reach into
		// it): no span from entry 1 nests with it, one from the next unit boundary does.
		const spans = rescueProposals(snap, windowTokens(snap), Number.POSITIVE_INFINITY, () => false, [
			{ start: 0, end: 3 },
		]);
		expect(spans.map((s) => [s.start, s.end])).toEqual([[3, 15]]);
	});
});
