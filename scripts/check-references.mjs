// The reference check (`npm run check`), read-only: every repository path cited in README.md,
// CHANGELOG.md, the files under docs/ and the comments (the header `//` block and every other
// whole-line comment) of every module under src/, bench/, scripts/, assembly/ and tests/ must exist.
// A cited path is one starting with src/, tests/, docs/, bench/, scripts/ or assembly/ (in
// backticks, a markdown link or plain text); brace groups are expanded
// (`tests/policy/{ladder,schedule}.test.ts`), a glob (`*`) must match some file, and a `:line` or
// `#anchor` suffix and trailing punctuation are dropped. A relative markdown link is resolved from
// the file it is in. A cited section (README "Settings", docs/runtime.md, "Large folds") must
// be the start of a heading in that file. Exit 0 when every citation holds, 1 with one line per
// broken one: `file:line: <what is cited> does not exist` (or `is not a heading in <file>`).
// Usage: node scripts/check-references.mjs [root] (default: the repository this script is in).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const SKIP = new Set(["node_modules", "build", "results", ".git"]);
const MODULE_DIRS = ["src", "bench", "scripts", "assembly", "tests"];
const MODULE = /\.(?:[cm]?[jt]s)$/;
const PREFIXES = "(?:src|tests|docs|bench|scripts|assembly)/";
// A path: not preceded by a path character (so `build/src/x`, URLs and `../src/x` are not read as
// repository-root paths), then path characters and brace groups.
const PATH = new RegExp(`(?<![\\w.@/-])(?:\\./)?(${PREFIXES}(?:[\\w.*/-]|\\{[\\w.,*/-]*\\})*)`, "g");
const LINK = /\]\(([^)\s]+)\)/g;
// A section citation: README or a markdown file name (or path), then an optional `'s`, comma or
// colon, then the section name in double quotes.
const SECTION = /\b((?:[\w./-]*\/)?[\w.-]+\.md|README)`?(?:'s)?[,:]? "([^"]+)"/g;

function walk(dir, out = []) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (SKIP.has(entry.name)) continue;
		const path = join(dir, entry.name);
		if (entry.isDirectory()) walk(path, out);
		else out.push(relative(root, path).split(sep).join("/"));
	}
	return out;
}

const files = walk(root);

/** Paths the docs and tests use as examples of a user's project files, not files of this repository. */
const EXAMPLES = new Set(["src/a.ts", "src/c.ts", "src/a.js"]);

/** `a/{b,c}/d{1,2}` → every combination; nested groups too. */
function expandBraces(path) {
	const open = path.indexOf("{");
	if (open < 0) return [path];
	let depth = 0;
	for (let i = open; i < path.length; i++) {
		if (path[i] === "{") depth++;
		else if (path[i] === "}" && --depth === 0) {
			const head = path.slice(0, open);
			const tail = path.slice(i + 1);
			const parts = [];
			let start = open + 1;
			let d = 0;
			for (let j = open + 1; j < i; j++) {
				if (path[j] === "{") d++;
				else if (path[j] === "}") d--;
				else if (path[j] === "," && d === 0) {
					parts.push(path.slice(start, j));
					start = j + 1;
				}
			}
			parts.push(path.slice(start, i));
			return parts.flatMap((part) => expandBraces(head + part + tail));
		}
	}
	return [path];
}

function globMatches(pattern) {
	const source = pattern
		.split("/")
		.map((segment) =>
			segment === "**" ? "(?:.*)" : segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"),
		)
		.join("/")
		.replace(/\(\?:\.\*\)\//g, "(?:.*/)?");
	const re = new RegExp(`^${source}(?:/.*)?$`);
	return files.some((file) => re.test(file));
}

function exists(path) {
	const clean = path.replace(/\/+$/, "");
	if (EXAMPLES.has(clean)) return true;
	if (clean.includes("*")) return globMatches(clean);
	return existsSync(join(root, clean));
}

/** Heading texts of a markdown file, lower-cased, backticks dropped. */
const headingCache = new Map();
function headings(file) {
	if (!headingCache.has(file)) {
		const text = existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8") : "";
		const found = [];
		for (const line of text.split("\n")) {
			const m = /^#{1,6}\s+(.*)$/.exec(line);
			if (m) found.push(m[1].replace(/`/g, "").trim().toLowerCase());
		}
		headingCache.set(file, found);
	}
	return headingCache.get(file);
}

/** The file a section citation names, from the citing file: README, a docs/ path, or a bare docs file name. */
function sectionFile(name) {
	if (name === "README" || name === "README.md") return "README.md";
	if (existsSync(join(root, name))) return name;
	const inDocs = `docs/${posix.basename(name)}`;
	return existsSync(join(root, inDocs)) ? inDocs : undefined;
}

/** The lines of `file` to check: all of a markdown file; a module's whole-line comments. */
function citedLines(file) {
	const lines = readFileSync(join(root, file), "utf8")
		.split("\n")
		.map((text, i) => ({ text, line: i + 1 }));
	return file.endsWith(".md") ? lines : lines.filter(({ text }) => /^\s*(?:\/\/|\/\*|\*)/.test(text));
}

const sources = [
	"README.md",
	"CHANGELOG.md",
	...files.filter((f) => f.startsWith("docs/")),
	...files.filter((f) => MODULE_DIRS.includes(f.split("/")[0]) && MODULE.test(f)),
].filter((f) => existsSync(join(root, f)));

const problems = new Set();
let citations = 0;
for (const file of sources) {
	for (const { text, line } of citedLines(file)) {
		const where = `${file}:${line}`;
		for (const m of text.matchAll(PATH)) {
			const cited = m[1].replace(/[.,;:]+$/, "");
			citations++;
			for (const path of expandBraces(cited))
				if (!exists(path)) problems.add(`${where}: ${path}${path === cited ? "" : ` (from ${cited})`} does not exist`);
		}
		if (file.endsWith(".md")) {
			for (const m of text.matchAll(LINK)) {
				const target = m[1].replace(/#.*$/, "");
				if (target === "" || /^[a-z][a-z+.-]*:/i.test(target)) continue;
				const path = posix.normalize(posix.join(posix.dirname(file), target));
				citations++;
				if (path.startsWith("..") || !existsSync(join(root, path)))
					problems.add(`${where}: ${path}${path === target ? "" : ` (from ${target})`} does not exist`);
			}
		}
		for (const m of text.matchAll(SECTION)) {
			const target = sectionFile(m[1]);
			if (target === undefined) continue; // a file not in this repository (another package's docs)
			citations++;
			const name = m[2].toLowerCase();
			if (!headings(target).some((h) => h.startsWith(name)))
				problems.add(`${where}: section "${m[2]}" is not a heading in ${target}`);
		}
	}
}

if (problems.size > 0) {
	for (const problem of problems) console.error(problem);
	process.exit(1);
}
console.log(`check-references: ${citations} citations in ${sources.length} files, every one exists`);
