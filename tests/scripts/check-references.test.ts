// The reference check (scripts/check-references.mjs, run by `npm run check`): passes on this tree,
// fails naming the one broken path planted in a copy of it, and reads citations the way the docs
// write them (brace groups, globs, `:line` and `#anchor` suffixes, trailing punctuation, relative
// markdown links, README sections) in a small fixture tree.

import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = "scripts/check-references.mjs";
const copies: string[] = [];
afterAll(() => {
	for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function check(root?: string): { code: number; stdout: string; problems: string[] } {
	const args = [join(ROOT, SCRIPT), ...(root === undefined ? [] : [root])];
	const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 60_000 });
	return { code: r.status ?? -1, stdout: r.stdout, problems: r.stderr.trim().split("\n").filter(Boolean) };
}

/** A fresh folder holding `files` (path → text). */
function fixture(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-check-references-"));
	copies.push(dir);
	for (const [rel, text] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, rel)), { recursive: true });
		writeFileSync(join(dir, rel), text);
	}
	return dir;
}

describe("scripts/check-references.mjs", () => {
	it("finds every path and section cited in this tree", () => {
		const r = check();
		expect(r.problems).toEqual([]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/^check-references: \d+ citations in \d+ files, every one exists\n$/);
	});

	it("fails on a copy of this tree with one cited path broken, naming the file, the line and the path", () => {
		const copy = mkdtempSync(join(tmpdir(), "pi-fold-check-references-copy-"));
		copies.push(copy);
		for (const part of ["README.md", "CHANGELOG.md", "docs", "src", "bench", "scripts", "assembly", "tests"])
			cpSync(join(ROOT, part), join(copy, part), { recursive: true });
		const doc = join(copy, "docs/policy.md");
		const lines = readFileSync(doc, "utf8").split("\n");
		const at = lines.findIndex((line) => line.includes("`tests/policy/schedule.test.ts`"));
		expect(at).toBeGreaterThan(0);
		lines[at] = (lines[at] as string).replace("`tests/policy/schedule.test.ts`", "`tests/policy/scheduler.test.ts`");
		writeFileSync(doc, lines.join("\n"));
		const r = check(copy);
		expect(r.code).toBe(1);
		expect(r.problems).toEqual([`docs/policy.md:${at + 1}: tests/policy/scheduler.test.ts does not exist`]);
	});

	it("expands brace groups, matches globs, drops suffixes and punctuation, and checks links and sections", () => {
		const dir = fixture({
			"README.md": [
				"# Project",
				"## Configuration",
				"See `tests/a/{one,two}.test.ts`, src/x.ts:12 and docs/guide.md#setup.",
				"Generated: `src/*.generated.ts`; missing: `src/*.missing.ts` and tests/a/{one,three}.test.ts.",
				"A [link](docs/guide.md), a [broken one](docs/gone.md) and [a site](https://example.com/src/nope.ts).",
				"Not ours: node_modules/pkg/src/absent.ts, build/src/absent.js.",
			].join("\n"),
			"docs/guide.md":
				'# Guide\n## Large folds: how\nBack to [the readme](../README.md), [x](../src/x.ts), [y](../src/y.ts); README "Configuration".\n',
			"CHANGELOG.md": '# Changelog\nSee docs/guide.md, "Large folds" and README, "Install".\n',
			"tests/a/one.test.ts": "// Header: cites src/x.ts and src/gone.ts.\n\nconst path = 'src/not-a-citation.ts';\n",
			"tests/a/two.test.ts": "",
			"src/x.ts": "// x\nexport const x = 1;\n\t// a later comment citing tests/a/gone.test.ts\n",
			"src/y.generated.ts": "",
		});
		const r = check(dir);
		expect(r.code).toBe(1);
		expect(r.problems.sort()).toEqual(
			[
				'CHANGELOG.md:2: section "Install" is not a heading in README.md',
				"README.md:4: src/*.missing.ts does not exist",
				"README.md:4: tests/a/three.test.ts (from tests/a/{one,three}.test.ts) does not exist",
				"README.md:5: docs/gone.md does not exist",
				"docs/guide.md:3: src/y.ts (from ../src/y.ts) does not exist",
				"src/x.ts:3: tests/a/gone.test.ts does not exist",
				"tests/a/one.test.ts:1: src/gone.ts does not exist",
			].sort(),
		);
	});
});
