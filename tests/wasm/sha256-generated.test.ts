import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("the generated SHA-256 round files", () => {
	it("match what assembly/sha256-rounds.gen.mjs generates", () => {
		const run = spawnSync(process.execPath, ["assembly/sha256-rounds.gen.mjs", "--check"], { encoding: "utf8" });
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
	});
});
