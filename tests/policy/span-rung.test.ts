// Cost scheduling's span rung (src/policy/span-rung.ts): below half the budget it proposes nothing
// (below a fifth when no other rung has anything to fold); from there it folds the stale units the other rungs leave raw, as spans ending at the keep-raw
// floor, never a unit another rung's proposal covers, never around an older span (a new span sits
// beside it), and never over what the agent expanded or has just peeked at.

import { describe, expect, it } from "vitest";
import { foldId } from "../../src/lattice/index.ts";
import {
	buildSnapshot,
	keptRawUnits,
	type Proposal,
	type Snapshot,
	SPAN_ALONE_MIN_OCCUPANCY,
	SPAN_MIN_OCCUPANCY,
	spanProposals,
	windowTokens,
} from "../../src/policy/index.ts";
import { batchSession, snapshotOf } from "../helpers/snapshot.ts";

/** The snapshot of one prompt and `n` note batches (not read-only: no other rung folds them), keep-raw floor at unit `floor`. */
function snapshot(n: number, floor: number): Snapshot {
	return { ...snapshotOf(batchSession(n, "note")), freshUnit: floor };
}

const none = (snap: Snapshot) => snap.units.map(() => false);

/** `snap` with a fold of `kind` over entries [start, end) in force (`expanded`: restored by an expand). */
function withFold(snap: Snapshot, start: number, end: number, kind: "span" | "tools", expanded = false): Snapshot {
	const leaves = snap.view.transcript.slice(start, end);
	const fold = {
		id: foldId(leaves),
		kind,
		origin: "ladder" as const,
		leafIds: leaves.map((l) => l.id),
		sourceSha256: "a".repeat(64),
		sourceBytes: 100,
		brief: "an older span",
		briefSource: "deterministic" as const,
	};
	const state = {
		...snap.state,
		folds: new Map([...snap.state.folds, [fold.id, fold]]),
		expanded: expanded ? new Set([...snap.state.expanded, fold.id]) : snap.state.expanded,
	};
	return { ...buildSnapshot(snap.view, state, snap.known, snap.budget), freshUnit: snap.freshUnit };
}

describe("the span rung", () => {
	it("proposes nothing below half the budget", () => {
		const snap = snapshot(8, 6);
		expect(spanProposals(snap, windowTokens(snap), SPAN_MIN_OCCUPANCY - 0.01, [], none(snap))).toEqual([]);
	});

	it("opens from a fifth of the budget when no other rung has anything to fold, not below", () => {
		const snap = snapshot(8, 6);
		const tokens = windowTokens(snap);
		const between = (SPAN_ALONE_MIN_OCCUPANCY + SPAN_MIN_OCCUPANCY) / 2;
		expect(spanProposals(snap, tokens, between, [], none(snap))).toEqual([]);
		expect(spanProposals(snap, tokens, between, [], none(snap), true)).toHaveLength(1);
		expect(spanProposals(snap, tokens, SPAN_ALONE_MIN_OCCUPANCY, [], none(snap), true)).toHaveLength(1);
		expect(spanProposals(snap, tokens, SPAN_ALONE_MIN_OCCUPANCY - 0.01, [], none(snap), true)).toEqual([]);
	});

	it("folds the stale conversation down to the keep-raw floor, as one span", () => {
		const snap = snapshot(8, 6);
		const spans = spanProposals(snap, windowTokens(snap), SPAN_MIN_OCCUPANCY, [], none(snap));
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
		const spans = spanProposals(snap, windowTokens(snap), 0.9, [other], none(snap));
		expect(spans.map((s) => [s.start, s.end])).toEqual([
			[1, unit3.start],
			[unit3.end, snap.units[6]?.start],
		]);
	});

	it("puts a new span beside an older one, never around it", () => {
		const base = snapshot(8, 6);
		const older = withFold(base, 1, base.units[3]?.start as number, "span");
		const spans = spanProposals(older, windowTokens(older), 0.9, [], none(older));
		expect(spans.map((s) => [s.start, s.end])).toEqual([[older.units[3]?.start, older.units[6]?.start]]);
	});

	it("absorbs a collapsed tool-batch fold inside its run", () => {
		const base = snapshot(8, 6);
		const unit2 = base.units[2];
		if (!unit2) throw new Error("no unit 2");
		const snap = withFold(base, unit2.start, unit2.end, "tools");
		const spans = spanProposals(snap, windowTokens(snap), 0.9, [], none(snap));
		expect(spans.map((s) => [s.start, s.end])).toEqual([[1, snap.units[6]?.start]]);
	});

	it("leaves what an expand restored raw, and a peek the agent has just made", () => {
		const base = snapshot(8, 6);
		const unit2 = base.units[2];
		if (!unit2) throw new Error("no unit 2");
		const snap = withFold(base, unit2.start, unit2.end, "tools", true);
		const kept = keptRawUnits(snap, "active_context");
		expect(kept[2]).toBe(true);
		const spans = spanProposals(snap, windowTokens(snap), 0.9, [], kept);
		expect(spans.every((s) => s.end <= unit2.start || s.start >= unit2.end)).toBe(true);
		expect(spans.map((s) => [s.start, s.end])).toEqual([
			[1, unit2.start],
			[unit2.end, snap.units[6]?.start],
		]);
	});
});
