import { defineConfig } from "vitest/config";
import { HEAVY_TESTS } from "./tests/heavy-lane.ts";

// Two lanes, one list: tests/heavy-lane.ts names the expensive test files (README's `npm ci` in a
// fresh clone, SHA-256 streams past 2 GiB, the randomized sweep, benchmark-scale simulations, ...).
// `npm test` runs the project "fast" (every other tests/**/*.test.ts, a few minutes at most on 2
// cores); `npm run test:heavy` runs the project "heavy" (those files alone); CI (.ci/run) runs both.
// `npx vitest run` with no --project runs both lanes, and `npx vitest run <file>` finds a file in
// either. Two workers: vitest's default on 2 cores is one. tests/setup/agent-dir.ts gives the run a
// temporary agent directory (PI_CODING_AGENT_DIR), where pi-fold keeps the key that signs its
// decision records.
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
			{ extends: true, test: { name: "heavy", include: HEAVY_TESTS } },
		],
	},
});
