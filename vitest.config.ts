import { defineConfig } from "vitest/config";

// Expensive cases (SHA-256 streams past 2^32 bits and 2 GiB) live in tests/heavy, one file that
// runs each case once; they are part of `npm test` (about 20 s on 2 cores), and
// `npm run test:heavy` runs them alone. tests/setup/agent-dir.ts gives the run a temporary agent
// directory (PI_CODING_AGENT_DIR), where pi-fold keeps the key that signs its decision records.
export default defineConfig({
	test: {
		include: ["tests/**/*.test.ts"],
		globalSetup: ["./tests/setup/agent-dir.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		reporters: ["default", "./tests/reporters/summary-line.ts"],
	},
});
