// The read-heavy session issue 21's store figures are measured on, one definition for the bench
// (bench/store-bench.ts) and the test (tests/store/store-bytes.test.ts): 200 simulated steps (10
// prompts of 20 turns, up to 3 reads a turn of 2,000 to 12,000 characters, no writes), with one
// result six times the window at turn 120 so an excerpt's fold is among the depths the ladder reaches.

import { syntheticSession } from "../src/simulate/index.ts";

/** The session's messages for a `window`-token model (the same seed every time). */
export function readHeavySession(window: number): ReturnType<typeof syntheticSession> {
	return syntheticSession({
		seed: 21,
		prompts: 10,
		turnsPerPrompt: 20,
		maxBatch: 3,
		resultChars: [2_000, 12_000],
		writeShare: 0,
		thinkingChars: 0,
		sized: [{ turn: 120, chars: window * 6 }],
	});
}
