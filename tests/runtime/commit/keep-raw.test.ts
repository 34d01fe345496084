// The keep-raw floor of cost scheduling (src/policy/cost-gate.ts): a cost commit folds deep but
// keeps the newest units holding the `keepRawTokens` option raw (10,000 by default, in provider
// tokens, so divided by the calibration rate), and never more than a quarter of the serving budget.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../../src/options/index.ts";
import { keepRawFloor, keepRawUnit } from "../../../src/policy/cost-gate.ts";
import { windowTokens } from "../../../src/policy/index.ts";
import { batchSession, snapshotOf } from "../../helpers/snapshot.ts";

/** One prompt, then 60 write batches (~840 tokens each), at a 192,000-token budget. */
const snap = snapshotOf(batchSession(60, "write"));
const tokens = windowTokens(snap);
const budget = snap.budget.budgetTokens;

/** Estimated tokens the units from `unit` to the end hold. */
const heldFrom = (unit: number) => tokens.range(snap.units[unit]?.start ?? 0, tokens.perEntry.length);

/** The tokens kept raw for `keepRawTokens` at calibration rate `rate`: whole units, just enough. */
function kept(keepRawTokens: number, rate = 1): { held: number; withoutFirst: number } {
	const unit = keepRawUnit(snap, tokens, keepRawFloor(keepRawTokens, rate, budget));
	return { held: heldFrom(unit), withoutFirst: heldFrom(unit + 1) };
}

describe("the keep-raw floor", () => {
	it("keeps the newest 10,000 tokens raw by default: the fewest newest units that hold them", () => {
		expect(budget).toBe(192_000);
		const { held, withoutFirst } = kept(resolveOptions({}).keepRawTokens);
		expect(held).toBeGreaterThanOrEqual(10_000);
		expect(withoutFirst).toBeLessThan(10_000);
	});

	it("counts the option in provider tokens: at a calibration of 2 provider tokens per estimated one, half as many", () => {
		const { held, withoutFirst } = kept(10_000, 2);
		expect(held).toBeGreaterThanOrEqual(5_000);
		expect(withoutFirst).toBeLessThan(5_000);
	});

	it("keeps at most a quarter of the budget, however large the option", () => {
		const { held, withoutFirst } = kept(1_000_000);
		expect(tokens.total).toBeGreaterThan(budget / 4);
		expect(held).toBeGreaterThanOrEqual(budget / 4);
		expect(withoutFirst).toBeLessThan(budget / 4);
	});

	it("does not let what the agent chose to see use up the floor: the work before it stays raw too", () => {
		const floor = keepRawFloor(10_000, 1, budget);
		const plain = keepRawUnit(snap, tokens, floor);
		// The newest five units are an expand the agent made: they stay raw on their own account.
		const shown = snap.units.map((u) => u.index >= snap.units.length - 5);
		const withShown = keepRawUnit(snap, tokens, floor, shown);
		expect(withShown).toBeLessThan(plain);
		const held = (from: number) => tokens.range(snap.units[from]?.start ?? 0, snap.units.at(-6)?.end ?? 0);
		expect(held(withShown)).toBeGreaterThanOrEqual(10_000);
		expect(held(withShown + 1)).toBeLessThan(10_000);
	});
});
