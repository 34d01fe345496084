// The install-script policy check (scripts/check-install-scripts.mjs, run by `npm run check`):
// passes on this tree, and on a copy whose package.json no longer reviews a lockfile package with an
// install script (approved or denied), fails naming that package and what to add.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "check-install-scripts.mjs");
const scratch = mkdtempSync(join(tmpdir(), "pi-fold-install-scripts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function check(root?: string) {
	const r = spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: "utf8" });
	return { code: r.status, stderr: r.stderr };
}

describe("scripts/check-install-scripts.mjs", () => {
	it("passes on this tree: every install script in the lockfile is reviewed", () => {
		expect(check()).toEqual({ code: 0, stderr: "" });
	});

	it("fails naming a package whose install script allowScripts no longer reviews, approved or denied", () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
		const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
		const version = (name: string) => lock.packages[`node_modules/${name}`].version;
		delete pkg.allowScripts.esbuild;
		delete pkg.allowScripts.protobufjs;
		writeFileSync(join(scratch, "package.json"), JSON.stringify(pkg));
		writeFileSync(join(scratch, "package-lock.json"), JSON.stringify(lock));
		const r = check(scratch);
		expect(r.code).toBe(1);
		expect(r.stderr.split("\n").filter(Boolean)).toEqual([
			`package-lock.json: esbuild@${version("esbuild")} has an install script that package.json's allowScripts does not review; read it, then add "esbuild": true (run it) or false (skip it)`,
			`package-lock.json: protobufjs@${version("protobufjs")} has an install script that package.json's allowScripts does not review; read it, then add "protobufjs": true (run it) or false (skip it)`,
		]);
	});
});
