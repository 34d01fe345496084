// The one staleness check of generated files (`npm run check`), read-only: renders every generated
// file of scripts/generated.mjs afresh into a temp folder and compares it with the file in the tree;
// also fails on a `*.generated.ts` file no generator owns. Writes nothing into the repository.
// Exit 0 when everything matches, 1 naming each stale or unowned file and the command that fixes it.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATED_SUFFIX, GENERATORS } from "./generated.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["node_modules", "build", "results", ".git"]);

function generatedInTree(dir, out = []) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (SKIP.has(entry.name)) continue;
		const path = join(dir, entry.name);
		if (entry.isDirectory()) generatedInTree(path, out);
		else if (entry.name.endsWith(GENERATED_SUFFIX)) out.push(relative(root, path));
	}
	return out;
}

function current(rel) {
	try {
		return readFileSync(join(root, rel), "utf8");
	} catch {
		return undefined;
	}
}

const scratch = mkdtempSync(join(tmpdir(), "pi-fold-check-generated-"));
const problems = [];
const owned = new Set();
try {
	for (const generator of GENERATORS) {
		const dir = mkdtempSync(join(scratch, "gen-"));
		const files = await generator.render(root, dir);
		for (const [rel, text] of Object.entries(files)) {
			owned.add(rel);
			// The fresh generation lives in the temp folder; the comparison reads both sides.
			const fresh = join(dir, rel.replaceAll("/", "__"));
			writeFileSync(fresh, text);
			if (current(rel) !== readFileSync(fresh, "utf8"))
				problems.push(`${rel} is stale (${generator.name}): run \`${generator.regenerate}\` and commit the result`);
		}
	}
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
for (const rel of generatedInTree(root))
	if (!owned.has(rel)) problems.push(`${rel} has no generator in scripts/generated.mjs`);

if (problems.length > 0) {
	for (const line of problems) console.error(line);
	process.exit(1);
}
console.log(`generated files match a fresh generation: ${[...owned].join(", ")}`);
