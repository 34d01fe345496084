// The one staleness check of generated files (scripts/check-generated.mjs, run by `npm run check`):
// passes on this tree without writing into it, and names every stale or unowned generated file when
// run on a copy of the tree with some of them edited by hand.

import { spawnSync } from "node:child_process";
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SKIP = new Set(["node_modules", ".git", "results"]);

/** Every file and folder under the repository (dependencies and VCS data aside) with size and mtime. */
function snapshot(dir = ROOT, out = new Map<string, string>()): Map<string, string> {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (SKIP.has(entry.name)) continue;
		const path = join(dir, entry.name);
		const st = statSync(path);
		out.set(relative(ROOT, path), `${st.size}:${st.mtimeMs}`);
		if (entry.isDirectory()) snapshot(path, out);
	}
	return out;
}

function check(root: string): { code: number; stdout: string; stderr: string } {
	const r = spawnSync(process.execPath, [join(root, "scripts/check-generated.mjs")], {
		encoding: "utf8",
		timeout: 120_000,
	});
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("scripts/check-generated.mjs", () => {
	it("finds every generated file fresh, and writes nothing into the tree", () => {
		const before = snapshot();
		const r = check(ROOT);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		for (const file of [
			"assembly/sha256-rounds.generated.ts",
			"assembly/sha256x4-rounds.generated.ts",
			"assembly/sha256x4-scheduled.generated.ts",
			"assembly/tokens-costs.generated.ts",
			"src/wasm/core-wasm.generated.ts",
		])
			expect(r.stdout).toContain(file);
		expect(snapshot()).toEqual(before);
	});

	it("names a hand-edited generated file, a stale derived table and a generated file no generator owns", () => {
		const copy = mkdtempSync(join(tmpdir(), "pi-fold-check-generated-test-"));
		try {
			for (const part of ["assembly", "scripts", "asconfig.json", "package.json", "src/wasm"])
				cpSync(join(ROOT, part), join(copy, part), { recursive: true });
			symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
			const rounds = join(copy, "assembly/sha256-rounds.generated.ts");
			writeFileSync(rounds, `${readFileSync(rounds, "utf8")}// edited by hand\n`);
			const costs = join(copy, "assembly/tokens-costs.generated.ts");
			writeFileSync(costs, readFileSync(costs, "utf8").replace("/** Fixed-point scale", "/** Fixed point scale"));
			mkdirSync(join(copy, "src/extra"));
			writeFileSync(join(copy, "src/extra/orphan.generated.ts"), "export {};\n");
			const r = check(copy);
			expect(r.code).toBe(1);
			expect(r.stderr.trim().split("\n").sort()).toEqual([
				"assembly/sha256-rounds.generated.ts is stale (SHA-256 rounds): run `node scripts/gen-sha256-rounds.mjs` and commit the result",
				expect.stringMatching(/^assembly\/tokens-costs\.generated\.ts is stale \(token estimator tables\)/),
				"src/extra/orphan.generated.ts has no generator in scripts/generated.mjs",
			]);
		} finally {
			rmSync(copy, { recursive: true, force: true });
		}
	});
});
