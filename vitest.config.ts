import { defineConfig } from "vitest/config";
import { HEAVY_TESTS } from "./tests/heavy-lane.ts";

// Two lanes, one list: tests/heavy-lane.ts names the expensive test files (README's `npm ci` in a
// fresh clone, SHA-256 streams past 2 GiB, the randomized sweep, benchmark-scale simulations, ...).
// `npm test` runs the project "fast", every other tests/**/*.test.ts, two files at a time;
// `npm run test:heavy` runs the project "heavy", those files one at a time (run side by side on a
// loaded machine, the longest overran their 60 s timeout). CI (.ci/run) runs both lanes.
// `npx vitest run` with no --project runs both, and `npx vitest run <file>` finds a file in either.
// Measured, fast lane on 2 cores: two workers 137 s quiet, and 218 s at load 7 where vitest's default
// on 2 cores, one worker, took 253 s (its CPU time alone is 193 s, so one worker cannot meet 3
// minutes even on a quiet machine). The pool stays "forks" with a fresh process per file: "threads" saved about 6%
// of CPU time, within noise, and `isolate: false` halved it but made a worker-pool test
// (tests/verify/engines.test.ts) fail when it shared a process with earlier files.
// tests/setup/agent-dir.ts gives the run a temporary agent directory (PI_CODING_AGENT_DIR), where
// pi-fold keeps the key that signs its decision records.
export default defineConfig({
	test: {
		globalSetup: ["./tests/setup/agent-dir.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./tests/reporters/summary-line.ts"],
		projects: [
			{ extends: true, test: { name: "fast", include: ["tests/**/*.test.ts"], exclude: HEAVY_TESTS } },
			{ extends: true, test: { name: "heavy", include: HEAVY_TESTS, fileParallelism: false } },
		],
	},
});
