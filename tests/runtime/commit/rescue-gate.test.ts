// When the gate calls the rescue (src/policy/gate.ts `rescued`): a commit the pressure backstop
// forced that would leave the next request at 60% of the budget or more gets the rescue's span
// folds, oldest first, down to 45% of the budget and no further than the unit that gets there; at
// 59%, or for a commit the backstop did not force, the gate's plan stands as it was.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../../src/options/index.ts";
import type { BoundaryInput } from "../../../src/policy/boundary-input.ts";
import { type GateResult, rescued } from "../../../src/policy/gate.ts";
import { windowTokens } from "../../../src/policy/index.ts";
import { batchSession, snapshotOf } from "../../helpers/snapshot.ts";

/** One prompt, then 60 write batches (~840 tokens each; only the rescue and the span rung fold them). */
const snap = snapshotOf(batchSession(60, "write"));
const budget = snap.budget.budgetTokens;
const perBatch = windowTokens(snap).range(1, 3);

/** The boundary's input at `occupancy` of the budget (only what the rescue reads is real). */
function input(occupancy: number): BoundaryInput {
	return {
		snap,
		scaled: snap,
		occupancy: { tokens: Math.round(occupancy * budget), source: "test" },
		paused: false,
		options: resolveOptions(),
		hint: "agent",
		at: "end of a turn",
		pendingFrom: null,
		excerpted: 0,
		excerptFreedTokens: 0,
	} as unknown as BoundaryInput;
}

/** A gate that commits, freeing `freed` tokens, with nothing else planned. */
function committing(freed: number): GateResult {
	return {
		plan: { commit: true, reason: "test commit", apply: [], refused: [], waiting: [], ladder: [], freedTokens: freed },
		marks: [],
		proposals: [],
		modelBrief: () => true,
		prediction: null,
	};
}

/** The gate's result when the request is at `occupancy` of the budget and the commit leaves `left` of it. */
function at(occupancy: number, left: number): { before: GateResult; after: GateResult } {
	const before = committing(Math.round((occupancy - left) * budget));
	return { before, after: rescued(input(occupancy), before) };
}

describe("the rescue's trigger and target", () => {
	it("folds a backstop-forced commit that leaves 61% of the budget down to 45%, and no further", () => {
		expect(budget).toBe(192_000);
		const { after } = at(0.92, 0.61);
		expect(after.plan.reason).toMatch(/the commit would leave the window at 61% of the budget: folding stale units/);
		const spans = after.proposals.filter((p) => p.rung === "rescue");
		expect(spans.length).toBeGreaterThan(0);
		const next = 0.61 * budget - after.plan.freedTokens;
		expect(next).toBeLessThanOrEqual(0.45 * budget);
		expect(next).toBeGreaterThan(0.45 * budget - perBatch);
	});

	it("leaves the plan alone at 59%, and when the backstop did not force the commit", () => {
		const under = at(0.92, 0.59);
		expect(under.after).toBe(under.before);
		const unforced = at(0.91, 0.7);
		expect(unforced.after).toBe(unforced.before);
	});
});
