// Cost scheduling's span rung (src/policy/span-rung.ts): below half the budget it proposes nothing;
// from there it folds the stale units the other rungs leave raw, as spans ending at the keep-raw
// floor, and never a unit another rung's proposal covers.

import { describe, expect, it } from "vitest";
import {
	type Proposal,
	type Snapshot,
	SPAN_MIN_OCCUPANCY,
	spanProposals,
	windowTokens,
} from "../../src/policy/index.ts";
import { batchSession, snapshotOf } from "../helpers/snapshot.ts";

/** The snapshot of one prompt and `n` note batches (not read-only: no other rung folds them), keep-raw floor at unit `floor`. */
function snapshot(n: number, floor: number): Snapshot {
	return { ...snapshotOf(batchSession(n, "note")), freshUnit: floor };
}

describe("the span rung", () => {
	it("proposes nothing below half the budget", () => {
		const snap = snapshot(8, 6);
		expect(spanProposals(snap, windowTokens(snap), SPAN_MIN_OCCUPANCY - 0.01, [])).toEqual([]);
	});

	it("folds the stale conversation down to the keep-raw floor, as one span", () => {
		const snap = snapshot(8, 6);
		const spans = spanProposals(snap, windowTokens(snap), SPAN_MIN_OCCUPANCY, []);
		// Unit 0 is the opening prompt, units 1..8 the batches; the floor keeps units 6.. raw.
		const floorStart = snap.units[6]?.start;
		expect(spans).toHaveLength(1);
		expect(spans[0]).toMatchObject({ rung: "span", start: 1, end: floorStart });
		expect(spans[0]?.freedTokens).toBeGreaterThan(0);
	});

	it("leaves out every unit another rung proposes to fold", () => {
		const snap = snapshot(8, 6);
		const unit3 = snap.units[3];
		if (!unit3) throw new Error("no unit 3");
		const other: Proposal = { rung: "tools", start: unit3.start, end: unit3.end, freedTokens: 1_000 };
		const spans = spanProposals(snap, windowTokens(snap), 0.9, [other]);
		expect(spans.map((s) => [s.start, s.end])).toEqual([
			[1, unit3.start],
			[unit3.end, snap.units[6]?.start],
		]);
	});
});
