// One parallel batch of sixty results, together one and a half windows, at a 32k window on the
// simulator, in each scheduling mode, with Pi's threshold compaction on and off: the batch is folded
// as one excerpt of the batch (its results shown by their start, size and handle), so the session
// completes with every invariant of the sweep (tests/simulate/sweep.ts: no request over the window,
// nothing orphaned, every fold peekable byte-exact and searchable) and Pi's compaction never runs.
// The Pi session case is tests/pi/batch-excerpt.test.ts.

import { describe, expect, it } from "vitest";
import type { Mode, Shape } from "./shapes.ts";
import { sweep } from "./sweep.ts";

const base: Shape = {
	seed: 4_242,
	window: 32_000,
	maxTokens: 4_096,
	systemChars: 2_000,
	prompts: 1,
	turnsPerPrompt: 4,
	maxBatch: 2,
	writeShare: 0,
	thinking: null,
	compaction: { threshold: true, reserve: 0.1, keep: 0.1 },
	stepShare: 0.02,
	sized: [],
	huge: 1,
	hugeBatch: 60,
	human: [],
};

describe("a batch too large as a whole, on the simulator", () => {
	for (const mode of ["cost", "immediate", "epoch"] as const satisfies readonly Mode[])
		for (const threshold of [true, false])
			it(`is folded as one excerpt of the batch (${mode}, Pi's compaction ${threshold ? "on" : "off"})`, async () => {
				const out = await sweep({ ...base, compaction: { ...base.compaction, threshold } }, mode);
				expect(out.problems).toEqual([]);
				expect(out.fenced).toBe(false);
				expect(out.compactions).toBe(0);
				// Most of the sixty are shown by their start (each too small for an excerpt of its own).
				expect(out.excerpts).toBeGreaterThanOrEqual(40);
			});
});
