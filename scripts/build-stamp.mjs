// Whether build/ is up to date, for scripts/build.mjs: a build writes build/.inputs.sha256 (the
// SHA-256 of every file the build reads, and of every file it wrote), and the next `npm run build`
// skips when the inputs hash the same and every output is there unchanged. So a fresh clone builds
// once, in `npm ci` (scripts/prepare.mjs), and `npm test` or `npm run demo` right after reuses it.
//
// The inputs: src/, assembly/ and bench/ (every file: the bundles' sources, the Wasm core's sources,
// the generated embed), package.json (version, engines: defined into the bin), package-lock.json (the
// exact asc, esbuild, tsc, zod and hash-wasm that compile and get bundled), asconfig.json,
// tsconfig.json and tsconfig.build.json, and the build's own scripts (BUILD_SCRIPTS). Every bundle
// input outside node_modules lies under those folders (tests/scripts/build-stamp.test.ts checks that
// against build/meta.json). Folders named node_modules or results (benchmark output) are not read.

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where the stamp lives, relative to the repository root. */
export const STAMP_FILE = "build/.inputs.sha256";

/** Folders whose every file is an input. */
export const INPUT_DIRS = ["src", "assembly", "bench"];

/** The scripts that build (scripts/build.mjs and what it imports, this file included). */
export const BUILD_SCRIPTS = [
	"scripts/build.mjs",
	"scripts/build-stamp.mjs",
	"scripts/build-wasm.mjs",
	"scripts/bundle.mjs",
	"scripts/declarations.mjs",
	"scripts/embed-wasm.mjs",
];

/** Single files that are inputs. */
export const INPUT_FILES = [
	"package.json",
	"package-lock.json",
	"asconfig.json",
	"tsconfig.json",
	"tsconfig.build.json",
	...BUILD_SCRIPTS,
];

const SKIP = new Set(["node_modules", "results", ".git"]);

function sha256(bytes) {
	return createHash("sha256").update(bytes).digest("hex");
}

function walk(root, dir, out) {
	let entries;
	try {
		entries = readdirSync(join(root, dir), { withFileTypes: true });
	} catch {
		return out; // a missing folder is simply no input
	}
	for (const entry of entries) {
		if (SKIP.has(entry.name)) continue;
		const rel = `${dir}/${entry.name}`;
		if (entry.isDirectory()) walk(root, rel, out);
		else if (entry.isFile()) out.push(rel);
	}
	return out;
}

/** Every input file that exists, relative to `root` with `/` separators, sorted. */
export function inputFiles(root) {
	const files = INPUT_DIRS.flatMap((dir) => walk(root, dir, []));
	for (const file of INPUT_FILES) if (existsSync(join(root, file))) files.push(file);
	return files.sort();
}

/** { file: sha256 } of every input file. */
export function inputHashes(root) {
	const hashes = {};
	for (const file of inputFiles(root)) hashes[file] = sha256(readFileSync(join(root, file)));
	return hashes;
}

/** One digest of a { file: sha256 } map: the SHA-256 of its `sha256  file` lines. */
export function digestOf(hashes) {
	const lines = Object.keys(hashes)
		.sort()
		.map((file) => `${hashes[file]}  ${file}\n`);
	return sha256(lines.join(""));
}

/** Every file under build/ but the stamp, relative to `root`, sorted. */
export function outputFiles(root) {
	const stamp = STAMP_FILE.split("/").pop();
	return walk(root, "build", [])
		.filter((file) => file !== `build/${stamp}` && file !== "build/.gitkeep")
		.sort();
}

/**
 * Writes the stamp: the inputs' digest (of `hashes`, from inputHashes before the build, see
 * scripts/build.mjs) and the SHA-256 of every output now in build/, in sha256sum's format.
 */
export function writeStamp(root, hashes) {
	const lines = [`${digestOf(hashes)}  inputs`];
	for (const file of outputFiles(root)) lines.push(`${sha256(readFileSync(join(root, file)))}  ${file}`);
	writeFileSync(join(root, STAMP_FILE), `${lines.join("\n")}\n`);
}

/**
 * Whether build/ is up to date: { fresh: true, since: Date } when the stamp's inputs digest equals the
 * inputs' digest now and every output it lists exists with the same SHA-256; otherwise
 * { fresh: false, reason } (no stamp, inputs changed, an output missing or changed).
 */
export function buildState(root) {
	let text;
	try {
		text = readFileSync(join(root, STAMP_FILE), "utf8");
	} catch {
		return { fresh: false, reason: `no ${STAMP_FILE}` };
	}
	const lines = text.split("\n").filter((line) => line !== "");
	const parse = (line) => /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
	const head = parse(lines[0] ?? "");
	if (head?.[2] !== "inputs") return { fresh: false, reason: `${STAMP_FILE} is malformed` };
	if (head[1] !== digestOf(inputHashes(root))) return { fresh: false, reason: "inputs changed" };
	const listed = new Set();
	for (const line of lines.slice(1)) {
		const m = parse(line);
		if (!m) return { fresh: false, reason: `${STAMP_FILE} is malformed` };
		const [, hash, file] = m;
		listed.add(file);
		let bytes;
		try {
			bytes = readFileSync(join(root, file));
		} catch {
			return { fresh: false, reason: `${file} is missing` };
		}
		if (sha256(bytes) !== hash) return { fresh: false, reason: `${file} changed since the build` };
	}
	if (listed.size === 0) return { fresh: false, reason: `${STAMP_FILE} lists no output` };
	for (const file of outputFiles(root))
		if (!listed.has(file)) return { fresh: false, reason: `${file} is not from the last build` };
	return { fresh: true, since: statSync(join(root, STAMP_FILE)).mtime };
}
