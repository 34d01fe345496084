// The token-estimation corpus: text files the install already has (node_modules), chosen by a
// fixed deterministic rule and split into a calibration half and a held-out half by package.
// Used by bench/estimator.ts, scripts/calibrate-tokens.mjs and tests/wasm/tokens.test.ts.
// Reads the file system (node_modules only); no writes.
//
// The rule (CORPUS_RULE below, also in docs/token-estimation.md):
//   1. walk <root>/node_modules recursively without following symlinks, skipping every entry whose
//      name starts with "." (.bin, .vite, .package-lock.json, caches) and the `node` toolchain
//      package (its install script lays files out differently from one install to the next);
//   2. keep regular files named *.ts, *.js, *.md or *.json of MIN_BYTES..MAX_BYTES bytes;
//   3. sort by the path relative to the root ("/"-separated, UTF-16 code unit order);
//   4. per extension, take a file when the first 4 bytes of SHA-256(path), read as a big-endian
//      integer, are 0 modulo STRIDE[ext] (about one in STRIDE[ext]; prose and data are rarer than
//      code, so .md and .json are sampled more densely). Membership depends on the path alone, so
//      a file present in one install and absent in another never shifts the rest of the sample;
//   5. the package of a file is the path segment(s) after its last "node_modules/" (two for
//      "@scope/name"); a file is held out when the first byte of SHA-256(package) is odd, so
//      near-copies inside one package (cjs/esm builds) never straddle the split.

import { createHash } from "node:crypto";
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Smallest file taken, in bytes. */
export const MIN_BYTES = 256;
/** Largest file taken, in bytes. */
export const MAX_BYTES = 131072;
/** Per extension, every STRIDE[ext]-th eligible file (in sorted order) is taken. */
export const STRIDE: Readonly<Record<string, number>> = { ".ts": 12, ".js": 12, ".md": 3, ".json": 6 };
/** File-name suffixes taken. */
export const EXTENSIONS: readonly string[] = Object.keys(STRIDE);

/** One-line statement of the rule, printed by the bench and the calibration script. */
export const CORPUS_RULE = `node_modules/**/*.{ts,js,md,json} except node_modules/node/, no dot-entries or symlinks, ${MIN_BYTES}..${MAX_BYTES} bytes, sorted paths, a file taken iff u32be(sha256(path)) % stride == 0 (12 for .ts/.js, 3 for .md, 6 for .json); held out iff sha256(package)[0] is odd`;

/** Packages left out of the corpus: the Node toolchain, whose installed layout varies. */
const EXCLUDED_TOP = new Set(["node_modules/node"]);

/** A corpus file. */
export interface CorpusFile {
	/** Path relative to the project root, "/"-separated. */
	readonly path: string;
	/** The package it belongs to (e.g. "typescript", "@scope/name"). */
	readonly pkg: string;
	/** Which half it belongs to. */
	readonly split: "calibration" | "heldout";
}

/** Options for listCorpus. */
export interface CorpusOptions {
	/** Project root containing node_modules. Default: the current working directory. */
	readonly root?: string;
}

function walk(dir: string, rel: string, out: { rel: string; size: number }[]): void {
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return;
	}
	for (const entry of entries) {
		if (entry.name.startsWith(".")) continue;
		const childRel = `${rel}/${entry.name}`;
		const child = join(dir, entry.name);
		if (EXCLUDED_TOP.has(childRel)) continue;
		if (entry.isDirectory()) {
			walk(child, childRel, out);
		} else if (entry.isFile() && EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
			out.push({ rel: childRel, size: statSync(child).size });
		}
	}
}

/** The package a node_modules path belongs to. */
export function packageOf(path: string): string {
	const marker = "node_modules/";
	const at = path.lastIndexOf(marker);
	const parts = path.slice(at + marker.length).split("/");
	const first = parts[0] ?? "";
	return first.startsWith("@") ? `${first}/${parts[1] ?? ""}` : first;
}

/** Which half a package's files go to. */
export function splitOf(pkg: string): "calibration" | "heldout" {
	const digest = createHash("sha256").update(pkg).digest();
	return ((digest[0] ?? 0) & 1) === 1 ? "heldout" : "calibration";
}

/** Lists the corpus (deterministic for a given node_modules tree). */
export function listCorpus(options: CorpusOptions = {}): CorpusFile[] {
	const root = options.root ?? process.cwd();
	const found: { rel: string; size: number }[] = [];
	walk(join(root, "node_modules"), "node_modules", found);
	const eligible: string[] = [];
	for (const file of found) {
		if (file.size >= MIN_BYTES && file.size <= MAX_BYTES) eligible.push(file.rel);
	}
	eligible.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	const files: CorpusFile[] = [];
	for (const path of eligible) {
		const ext = EXTENSIONS.find((e) => path.endsWith(e)) ?? "";
		if (createHash("sha256").update(path).digest().readUInt32BE(0) % (STRIDE[ext] ?? 1) !== 0) continue;
		const pkg = packageOf(path);
		files.push({ path, pkg, split: splitOf(pkg) });
	}
	return files;
}
