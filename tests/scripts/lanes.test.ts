// The two test lanes (vitest.config.ts): every entry of the heavy lane's list (tests/heavy-lane.ts)
// names at least one existing test file, so a renamed or moved heavy file cannot quietly fall back into
// `npm test`; package.json's `npm test` runs the fast project and `npm run test:heavy` the heavy one.

import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HEAVY_TESTS } from "../heavy-lane.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the fast and the heavy lane", () => {
	it("lists only patterns that match test files", () => {
		expect(HEAVY_TESTS.length).toBeGreaterThan(0);
		for (const pattern of HEAVY_TESTS) {
			const files = globSync(pattern, { cwd: ROOT });
			expect(files.length, `${pattern} matches no file`).toBeGreaterThan(0);
			for (const file of files) expect(file).toMatch(/^tests\/.*\.test\.ts$/);
		}
	});

	it("runs the fast project in npm test and the heavy project in npm run test:heavy", () => {
		const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
		expect(scripts.test).toBe("npm run build && vitest run --project fast");
		expect(scripts["test:heavy"]).toBe("npm run build && vitest run --project heavy");
	});
});
