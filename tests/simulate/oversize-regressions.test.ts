// Regressions the randomized sweep (randomized.test.ts) found with a batch larger than the window,
// each pinned on the session that showed it (seeds 424242 and 7 of the sweep; the shapes' tiny
// floats rounded to 0):
// - a huge batch at the first turn, before the session meter had measured the provider's rate: the
//   excerpts stopped at 80% of a budget estimated at rate 1, and the provider counted 1.27 tokens per
//   estimated one, so the request carrying the two results left raw was over the window;
// - the rescue tried a span only from the first unit of a run of stale units: when a consolidation
//   the same commit proposed straddled that unit, no span nested and the whole run stayed raw, so a
//   commit at the budget backstop left the next request over the window.

import { describe, expect, it } from "vitest";
import type { Mode, Shape } from "./shapes.ts";
import { sweep } from "./sweep.ts";

describe("a batch larger than the window, found by the randomized sweep", () => {
	for (const mode of ["cost", "immediate", "epoch"] as const satisfies readonly Mode[]) {
		it(`excerpts a huge first batch so that it fits whatever the provider's unmeasured rate (${mode})`, async () => {
			const shape: Shape = {
				seed: 722_909_741,
				window: 522_000,
				maxTokens: 2_048,
				systemChars: 9,
				prompts: 1,
				turnsPerPrompt: 6,
				maxBatch: 7,
				writeShare: 0,
				thinking: { chars: 243, share: 1 },
				compaction: { threshold: false, reserve: 0.23823266264671233, keep: 0.05 },
				stepShare: 0.1,
				sized: [{ turn: 0, share: 0.2800976229179107 }],
				huge: 0,
				hugeBatch: 3,
				human: [
					{
						turn: 3,
						step: {
							kind: "command",
							command: { verb: "fold", from: "call_1_0", to: "call_2_0", brief: "the human folds this" },
						},
					},
					{ turn: 3, step: { kind: "command", command: { verb: "search", text: "nothing-matches-this" } } },
					{ turn: 4, step: { kind: "compact" } },
					{
						turn: 1,
						step: {
							kind: "command",
							command: { verb: "fold", from: "call_0_0", to: "call_0_0", brief: "the human folds this" },
						},
					},
					{ turn: 4, step: { kind: "command", command: { verb: "search", text: "alpha" } } },
					{
						turn: 3,
						step: {
							kind: "command",
							command: { verb: "fold", from: "call_0_0", to: "call_2_0", brief: "the human folds this" },
						},
					},
				],
			};
			const out = await sweep(shape, mode);
			expect(out.problems).toEqual([]);
			expect(out.excerpts).toBeGreaterThan(0);
		});
	}

	it("the rescue starts a span past a consolidation the same commit proposes (epoch)", async () => {
		const shape: Shape = {
			seed: 21,
			window: 380_000,
			maxTokens: 16_384,
			systemChars: 1_352,
			prompts: 2,
			turnsPerPrompt: 6,
			maxBatch: 8,
			writeShare: 0,
			thinking: { chars: 2_948, share: 0 },
			compaction: { threshold: false, reserve: 0.052347457610345684, keep: 0.05 },
			stepShare: 0.1,
			sized: [
				{ turn: 5, share: 0.4890708696265701 },
				{ turn: 4, share: 0.398487102160062 },
			],
			huge: 2,
			hugeBatch: 1,
			human: [
				{ turn: 8, step: { kind: "command", command: { verb: "refold", pick: 2 } } },
				{ turn: 7, step: { kind: "command", command: { verb: "unmark", pick: 7 } } },
				{ turn: 2, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_1_0" } } },
				{ turn: 1, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } },
				{ turn: 1, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } },
			],
		};
		const out = await sweep(shape, "epoch");
		expect(out.problems).toEqual([]);
		expect(out.excerpts).toBeGreaterThan(0);
	});
});
