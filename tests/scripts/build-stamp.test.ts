// `npm run build` skips when build/ is up to date (scripts/build-stamp.mjs, scripts/build.mjs): on a
// small fixture tree, an unchanged tree is fresh and any changed, added or removed input, or a missing,
// edited or foreign output, is not; scripts/build.mjs itself prints its one "up to date" line and exits
// at once on a fresh tree, and on a changed one drops the stamp and builds. Every bundle input of the
// real build (build/meta.json) outside node_modules lies in what the stamp hashes.

import { spawnSync } from "node:child_process";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import * as stamp from "../../scripts/build-stamp.mjs";

const { BUILD_SCRIPTS, buildState, INPUT_DIRS, INPUT_FILES, inputHashes, STAMP_FILE, writeStamp } = stamp as {
	BUILD_SCRIPTS: string[];
	buildState: (root: string) => { fresh: boolean; reason?: string; since?: Date };
	INPUT_DIRS: string[];
	INPUT_FILES: string[];
	inputHashes: (root: string) => Record<string, string>;
	STAMP_FILE: string;
	writeStamp: (root: string, hashes: Record<string, string>) => void;
};

const ROOT = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function write(root: string, rel: string, text: string): void {
	mkdirSync(dirname(join(root, rel)), { recursive: true });
	writeFileSync(join(root, rel), text);
}

/** A small tree with one file of each kind of input and two outputs, stamped as freshly built. */
function fixture(): string {
	const root = mkdtempSync(join(tmpdir(), "pi-fold-build-stamp-"));
	dirs.push(root);
	write(root, "src/index.ts", "export const a = 1;\n");
	write(root, "src/wasm/core-wasm.generated.ts", "export const B = 'x';\n");
	write(root, "assembly/index.ts", "export function f(): i32 { return 1; }\n");
	write(root, "bench/demo.ts", "export {};\n");
	for (const file of INPUT_FILES)
		write(root, file, file.endsWith(".json") ? `${JSON.stringify({ file })}\n` : `// ${file}\n`);
	write(root, "build/cli.js", "#!/usr/bin/env node\n");
	write(root, "build/types/index.d.ts", "export declare const a = 1;\n");
	writeStamp(root, inputHashes(root));
	return root;
}

describe("build/'s stamp", () => {
	it("is fresh on an unchanged tree, and ignores node_modules, results and files outside the inputs", () => {
		const root = fixture();
		expect(buildState(root)).toMatchObject({ fresh: true });
		write(root, "src/node_modules/x.js", "x\n");
		write(root, "bench/results/run.json", "{}\n");
		write(root, "tests/a.test.ts", "x\n");
		write(root, "docs/a.md", "x\n");
		expect(buildState(root)).toMatchObject({ fresh: true });
	});

	it("is stale when any input changes, is added or is removed", () => {
		const inFolders: Record<string, string> = {
			src: "src/index.ts",
			assembly: "assembly/index.ts",
			bench: "bench/demo.ts",
		};
		expect(Object.keys(inFolders)).toEqual(INPUT_DIRS);
		const inputs = [...Object.values(inFolders), "src/wasm/core-wasm.generated.ts", ...INPUT_FILES];
		for (const file of inputs) {
			const root = fixture();
			write(root, file, `${readFileSync(join(root, file), "utf8")} `);
			expect(buildState(root), `${file} edited`).toEqual({ fresh: false, reason: "inputs changed" });
		}
		for (const dir of INPUT_DIRS) {
			const root = fixture();
			write(root, `${dir}/new.ts`, "export {};\n");
			expect(buildState(root), `${dir}/new.ts added`).toEqual({ fresh: false, reason: "inputs changed" });
		}
		const root = fixture();
		rmSync(join(root, "src/index.ts"));
		expect(buildState(root)).toEqual({ fresh: false, reason: "inputs changed" });
	});

	it("is stale when an output is missing, edited or not from the last build, or the stamp is absent", () => {
		let root = fixture();
		rmSync(join(root, "build/types/index.d.ts"));
		expect(buildState(root)).toEqual({ fresh: false, reason: "build/types/index.d.ts is missing" });
		root = fixture();
		write(root, "build/cli.js", "edited\n");
		expect(buildState(root)).toEqual({ fresh: false, reason: "build/cli.js changed since the build" });
		root = fixture();
		write(root, "build/cli-old.js", "a stale chunk\n");
		expect(buildState(root)).toEqual({ fresh: false, reason: "build/cli-old.js is not from the last build" });
		root = fixture();
		rmSync(join(root, STAMP_FILE));
		expect(buildState(root)).toEqual({ fresh: false, reason: `no ${STAMP_FILE}` });
		root = fixture();
		write(root, STAMP_FILE, "not a stamp\n");
		expect(buildState(root)).toEqual({ fresh: false, reason: `${STAMP_FILE} is malformed` });
	});

	it("makes scripts/build.mjs skip with one line on a fresh tree, and build on a changed one", () => {
		const root = fixture();
		for (const file of BUILD_SCRIPTS) copyFileSync(join(ROOT, file), join(root, file));
		symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
		writeStamp(root, inputHashes(root));
		const build = () =>
			spawnSync(process.execPath, [join(root, "scripts/build.mjs")], { encoding: "utf8", timeout: 60_000 });
		const skipped = build();
		expect(skipped.stderr).toBe("");
		expect(skipped.status).toBe(0);
		expect(skipped.stdout).toMatch(
			/^build\/ is up to date \(inputs unchanged since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); skipped \(--force builds anyway\)\n$/,
		);
		// A changed source: the build runs (here it fails, the fixture's Wasm source being no real one),
		// and the stamp is gone first, so a failed build is never taken for an up-to-date one.
		write(root, "src/index.ts", "export const a = 2;\n");
		const rebuilt = build();
		expect(rebuilt.stdout).not.toMatch(/up to date/);
		expect(rebuilt.status).not.toBe(0);
		expect(existsSync(join(root, STAMP_FILE))).toBe(false);
	});

	it("hashes every file the real build bundles, apart from node_modules", () => {
		const metaPath = join(ROOT, "build/meta.json");
		expect(existsSync(metaPath), "build/meta.json is missing: run npm run build").toBe(true);
		const meta = JSON.parse(readFileSync(metaPath, "utf8")) as { inputs: Record<string, unknown> };
		const outside = Object.keys(meta.inputs).filter(
			(file) => !file.startsWith("node_modules/") && !INPUT_DIRS.some((dir) => file.startsWith(`${dir}/`)),
		);
		expect(outside).toEqual([]);
		expect(Object.keys(meta.inputs).length).toBeGreaterThan(0);
	});
});
