// The randomized session sweep (issue 10, item 7): a seeded fast-check property generates session
// shapes (tests/simulate/shapes.ts: windows of 16k to 1M tokens, tokens per step, parallel batch
// sizes, results larger than the fresh tail's share, thinking blocks, the human's `/fold-context`
// commands and manual `/compact`s, Pi's threshold compaction) and replays each through the runtime
// on the Pi-free simulator, in each scheduling mode. Every session keeps every invariant: it
// completes (a batch larger than the window, at any window from 16k to 1M, is shown as excerpts: no
// fence, no overflow compaction), no request exceeds the window, no tool result or call is orphaned
// in any request, no rewrite is unattributed, an accepted expand shows at the next request and stays
// until it is refolded or the backstop names it, fold depth stays within log2(folds) + 2, and every
// fold is peekable with its stored source byte-exact.
// PI_FOLD_SWEEP_SEED and PI_FOLD_SWEEP_RUNS (runs per mode) explore further; PI_FOLD_SWEEP_SHRINK=1
// shrinks a failing shape; PI_FOLD_SWEEP_VERBOSE=1 prints what each mode exercised.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shapeArb } from "./shapes.ts";
import { sweep } from "./sweep.ts";

const SEED = Number(process.env.PI_FOLD_SWEEP_SEED ?? 20_261_130);
const RUNS = Number(process.env.PI_FOLD_SWEEP_RUNS ?? 100);

describe("the randomized session sweep (Pi-free)", () => {
	for (const mode of ["cost", "immediate", "epoch"] as const) {
		it(`keeps every invariant over ${RUNS} random sessions (${mode} scheduling, seed ${SEED})`, async () => {
			const totals = {
				sessions: 0,
				rewrites: 0,
				compactions: 0,
				withFolds: 0,
				folds: 0,
				commands: 0,
				excerpted: 0,
				expandedShown: 0,
			};
			await fc.assert(
				fc.asyncProperty(shapeArb(), async (shape) => {
					const out = await sweep(shape, mode);
					if (out.problems.length > 0)
						throw new Error(`${mode} ${JSON.stringify(shape)}\n${out.problems.slice(0, 8).join("\n")}`);
					totals.sessions++;
					totals.rewrites += out.rewrites;
					totals.compactions += out.compactions;
					totals.withFolds += out.compactionsWithFolds;
					totals.folds += out.folds;
					totals.commands += out.commands;
					totals.excerpted += out.excerpts > 0 ? 1 : 0;
					totals.expandedShown += out.expandedShown;
				}),
				{ seed: SEED, numRuns: RUNS, endOnFailure: process.env.PI_FOLD_SWEEP_SHRINK !== "1" },
			);
			if (process.env.PI_FOLD_SWEEP_VERBOSE) console.log(mode, JSON.stringify(totals));
			// The sweep exercised what it is for: commits, folds, the human's commands, native compactions
			// with folds in force, batches larger than the window, and expands the window showed.
			expect(totals.sessions).toBe(RUNS);
			expect(totals.rewrites).toBeGreaterThan(RUNS);
			expect(totals.folds).toBeGreaterThan(RUNS);
			expect(totals.commands).toBeGreaterThan(RUNS);
			expect(totals.withFolds).toBeGreaterThan(0);
			expect(totals.excerpted).toBeGreaterThan(0);
			// Immediate scheduling folds only from 80% occupancy: the human's few expands there find
			// nothing to expand, or a fold inside a collapsed one (refused), so only the others must show one.
			if (mode !== "immediate") expect(totals.expandedShown).toBeGreaterThan(0);
		});
	}
});
