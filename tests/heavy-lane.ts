// The heavy lane: the test files `npm test` leaves out and `npm run test:heavy` runs (vitest.config.ts
// reads this list; CI, .ci/run, runs both lanes). Every test file runs in exactly one lane: the files
// below in the heavy one, every other tests/**/*.test.ts in the fast one. A file belongs here when it
// costs many seconds on a 2-core machine; cheaper tests of the same code stay in the fast lane.
// Seconds are each file's time in `npm run test:heavy` on a 2-core machine at load 3 (at load 7, in a
// full run, up to two and a half times as long).
// tests/scripts/lanes.test.ts checks that every entry names existing test files.

export const HEAVY_TESTS = [
	// Streams past 2^32 bits and past 2 GiB on both backends against node:crypto (19 s).
	"tests/heavy/**/*.test.ts",
	// README's `npm ci` in a fresh clone, then its tool commands with an empty npm cache (46 s).
	"tests/cli/readme-commands.test.ts",
	// `npm pack`, an offline install of the tarball and a strict TypeScript consumer (19 s).
	"tests/cli/package.test.ts",
	// The randomized session sweep, 100 sessions in each scheduling mode (58 s); the fast lane keeps
	// the sweep's regressions (tests/simulate/sweep-regressions.test.ts) and tests/pi/randomized.test.ts.
	"tests/simulate/randomized.test.ts",
	// A real two-window benchmark sweep replayed against its measured costs (22 s).
	"tests/bench/session/sweep-replay.test.ts",
	// 96 synthetic sessions at several windows on the simulator (13 s).
	"tests/runtime/simulated.test.ts",
	// Hostile stores, among them a 2.2 GiB sparse blob streamed in bounded reads (8 s, most of them that one).
	"tests/store/hostile.test.ts",
	// gc --apply again and again beside two writer processes (14 s).
	"tests/store/gc-race.test.ts",
	// scripts/check-generated.mjs compiles the Wasm core twice (8 s); `npm run check` runs it too.
	"tests/scripts/check-generated.test.ts",
];
