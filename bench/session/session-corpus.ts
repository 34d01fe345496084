// The corpus: real text nobody here wrote, already on disk after `npm install`: source and docs files of the
// installed `@earendil-works/*` packages, picked by one fixed rule (CORPUS_RULE) and hashed. Does its own file I/O.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The selection rule, recorded verbatim in every report. */
export const CORPUS_RULE =
	"*.js and *.md files under node_modules/@earendil-works/<package>/ (skipping nested node_modules), " +
	"1,024 to 40,000 bytes, under 2,000 lines, no NUL byte, no line over 2,000 characters; sorted by path";

const MIN_BYTES = 1_024;
const MAX_BYTES = 40_000;
const MAX_LINES = 2_000;
const MAX_LINE_CHARS = 2_000;

export interface CorpusFile {
	/** Path relative to the corpus root, with "/" separators, e.g. "pi-ai/dist/models.js". */
	path: string;
	bytes: number;
	/** Characters (UTF-16 code units) of the text: what faux tokens are counted from. */
	chars: number;
	lines: number;
	sha256: string;
	text: string;
}

export interface Corpus {
	/** Absolute path of the `@earendil-works` directory the files came from. */
	root: string;
	rule: string;
	files: CorpusFile[];
	/** SHA-256 over "<sha256>  <path>\n" lines in path order. */
	sha256: string;
}

export function sha256Hex(data: string | Buffer): string {
	return createHash("sha256").update(data).digest("hex");
}

/** Counts lines the way a reader of the text does: a trailing newline does not start another line. */
export function countLines(text: string): number {
	if (text.length === 0) return 0;
	return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").length;
}

/** Finds `node_modules/@earendil-works` above the current directory or above this module's file. */
export function findCorpusRoot(starts: string[] = defaultStarts()): string {
	for (const start of starts) {
		let dir = start;
		for (;;) {
			const candidate = join(dir, "node_modules", "@earendil-works");
			if (existsSync(join(candidate, "pi-coding-agent", "package.json"))) return candidate;
			const parent = dirname(dir);
			if (parent === dir) break;
			dir = parent;
		}
	}
	throw new Error("cannot find node_modules/@earendil-works (install the Pi packages: npm install)");
}

function defaultStarts(): string[] {
	const starts = [process.cwd()];
	try {
		starts.push(dirname(fileURLToPath(import.meta.url)));
	} catch {
		// not a file URL (bundled elsewhere): the current directory is enough
	}
	return starts;
}

function walk(dir: string, out: string[]): void {
	const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
		a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
	);
	for (const entry of entries) {
		const full = join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== "node_modules") walk(full, out);
		} else if (entry.isFile()) out.push(full);
	}
}

function eligibleName(path: string): boolean {
	return (path.endsWith(".js") || path.endsWith(".md")) && !path.endsWith(".d.ts");
}

/** Loads every file the rule picks, with its hash and text. */
export function loadCorpus(root: string = findCorpusRoot()): Corpus {
	const paths: string[] = [];
	walk(root, paths);
	const files: CorpusFile[] = [];
	for (const full of paths) {
		if (!eligibleName(full)) continue;
		const buffer = readFileSync(full);
		if (buffer.length < MIN_BYTES || buffer.length > MAX_BYTES || buffer.includes(0)) continue;
		const text = buffer.toString("utf8");
		const lines = countLines(text);
		if (lines >= MAX_LINES) continue;
		if (text.split("\n").some((line) => line.length > MAX_LINE_CHARS)) continue;
		files.push({
			path: relative(root, full).split(sep).join("/"),
			bytes: buffer.length,
			chars: text.length,
			lines,
			sha256: sha256Hex(buffer),
			text,
		});
	}
	files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	if (files.length === 0) throw new Error(`no corpus files under ${root}`);
	const sha256 = sha256Hex(files.map((f) => `${f.sha256}  ${f.path}\n`).join(""));
	return { root, rule: CORPUS_RULE, files, sha256 };
}

/** Copies the named files into `dir` (same relative paths), checking each hash on the way. */
export function materializeCorpus(corpus: Corpus, paths: Iterable<string>, dir: string): void {
	const byPath = new Map(corpus.files.map((f) => [f.path, f]));
	for (const path of paths) {
		const file = byPath.get(path);
		if (!file) throw new Error(`corpus has no file ${path}`);
		const buffer = readFileSync(join(corpus.root, path));
		if (sha256Hex(buffer) !== file.sha256) throw new Error(`corpus file changed on disk: ${path}`);
		const target = join(dir, path);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, buffer);
	}
}
