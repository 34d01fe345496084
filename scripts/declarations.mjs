// Emits the package's declaration files into build/types/ (tsconfig.build.json: the two public entry
// points, src/index.ts and src/verify/index.ts, and what they reference), then rewrites relative
// `.ts` import specifiers to `.js`: the sources import with `.ts` (Node runs them type-stripped), and
// tsc keeps specifiers as written in .d.ts output, which a consumer's `module: NodeNext` refuses.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const RELATIVE_TS = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g;

function declarationFiles(dir, out = []) {
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) declarationFiles(path, out);
		else if (name.endsWith(".d.ts")) out.push(path);
	}
	return out;
}

/** Runs tsc for tsconfig.build.json and fixes the specifiers; returns the number of .d.ts files. */
export function emitDeclarations(root) {
	const outDir = join(root, "build/types");
	rmSync(outDir, { recursive: true, force: true });
	const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
	execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
	const files = declarationFiles(outDir);
	for (const file of files) {
		const text = readFileSync(file, "utf8");
		const fixed = text.replace(RELATIVE_TS, "$1$2.js$3");
		if (fixed !== text) writeFileSync(file, fixed);
	}
	return files.length;
}
