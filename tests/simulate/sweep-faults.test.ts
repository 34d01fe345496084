// The randomized sweep's fault axis: the same random session shapes (shapes.ts), Pi's threshold
// compaction on (a user who can uninstall pi-fold has it on by default), and at a random point one
// fault: the fold store becomes unwritable (an immutable folder; sometimes repaired later), or the
// model is switched to one with half the window. In every scheduling mode the invariants hold: no
// request exceeds the window in force, no tool result or call is orphaned in any request, every fold
// stays peekable with its source byte-exact, no rewrite is unattributed. Fewer runs than the main
// sweep (tests/simulate/randomized.test.ts); PI_FOLD_SWEEP_SEED and PI_FOLD_FAULT_RUNS explore further.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shapeArb } from "./shapes.ts";
import { type Fault, sweep } from "./sweep.ts";

const SEED = Number(process.env.PI_FOLD_SWEEP_SEED ?? 20_261_205);
const RUNS = Number(process.env.PI_FOLD_FAULT_RUNS ?? 12);

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
	fc.record({
		kind: fc.constant("store" as const),
		at: fc.double({ min: 0.1, max: 0.8, noNaN: true }),
		repairAt: fc.option(fc.double({ min: 0.85, max: 0.95, noNaN: true }), { nil: null }),
	}),
	fc.record({
		kind: fc.constant("shrink" as const),
		at: fc.double({ min: 0.1, max: 0.8, noNaN: true }),
		shrink: fc.constant(2),
	}),
);

/**
 * A shape with Pi's threshold compaction on and no batch larger than the whole window, the human's
 * commands included: an expand decided while the store fails still lands at the next boundary (the
 * commit that finds the store unwritable is decided again without the ladder's folds, which need a
 * write).
 */
const faultyShapeArb = shapeArb(0).map((shape) => ({
	...shape,
	huge: null,
	compaction: { ...shape.compaction, threshold: true },
}));

describe("the randomized sweep's fault axis (Pi-free)", () => {
	for (const mode of ["cost", "immediate", "epoch"] as const) {
		it(`keeps the invariants when the store fails or the window shrinks mid-session (${mode}, seed ${SEED})`, async () => {
			const seen = { store: 0, shrink: 0, folds: 0 };
			await fc.assert(
				fc.asyncProperty(faultyShapeArb, faultArb, async (shape, fault) => {
					const out = await sweep(shape, mode, fault);
					if (out.problems.length > 0)
						throw new Error(
							`${mode} ${JSON.stringify(fault)} ${JSON.stringify(shape)}\n${out.problems.slice(0, 8).join("\n")}`,
						);
					seen[fault.kind]++;
					seen.folds += out.folds;
				}),
				{ seed: SEED, numRuns: RUNS, endOnFailure: true },
			);
			expect(seen.store + seen.shrink).toBe(RUNS);
			expect(seen.store).toBeGreaterThan(0);
			expect(seen.shrink).toBeGreaterThan(0);
			expect(seen.folds).toBeGreaterThan(0);
		});
	}
});
