import { defineConfig } from "vitest/config";

// Heavy cases (multi-GiB streams, 64-stage runs) live under tests/heavy and run once via
// `npm run test:heavy` or when PI_FOLD_HEAVY=1; the default suite stays fast on 2 cores.
export default defineConfig({
	test: {
		include: ["tests/**/*.test.ts"],
		exclude: process.env.PI_FOLD_HEAVY === "1" ? [] : ["tests/heavy/**"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		reporters: ["default", "./tests/reporters/summary-line.ts"],
	},
});
