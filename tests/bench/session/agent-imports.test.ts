// What the scripted agent may know: its decision modules (and everything they import, followed through the bench's
// own files) import nothing from pi-fold's source, so whatever it knows of pi-fold it read in its window, as a model
// would. Harness code that registers pi-fold and measurement code may import src/; the agent may not.

import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SESSION = join(ROOT, "bench/session");

/** The modules the scripted agent decides with. */
const AGENT_MODULES = [
	"policy.ts",
	"pifold-policy.ts",
	"routes.ts",
	"search-route.ts",
	"pointer-route.ts",
	"folds.ts",
	"window-view.ts",
	"facts.ts",
].map((f) => join(SESSION, f));

/** Relative module paths a file imports or re-exports (type-only imports too: knowing a type is knowing). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const out: string[] = [];
	for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)) {
		const spec = m[1] as string;
		if (spec.startsWith(".")) out.push(resolve(dirname(file), spec));
	}
	return out;
}

/** Every file reached from `roots` through relative imports, with the chain that reached it. */
function closure(roots: readonly string[]): Map<string, string[]> {
	const seen = new Map<string, string[]>();
	const queue = roots.map((r) => [r]);
	while (queue.length > 0) {
		const chain = queue.shift() as string[];
		const file = chain.at(-1) as string;
		if (seen.has(file)) continue;
		seen.set(file, chain);
		if (!file.startsWith(join(ROOT, "bench"))) continue;
		for (const next of importsOf(file)) queue.push([...chain, next]);
	}
	return seen;
}

const rel = (f: string) => relative(ROOT, f);

describe("the scripted agent knows only what it is told", () => {
	it("imports nothing from pi-fold's source in its decision modules, directly or through other bench files", () => {
		const reached = closure(AGENT_MODULES);
		const intoSrc = [...reached.entries()]
			.filter(([file]) => file.startsWith(join(ROOT, "src")))
			.map(([, chain]) => chain.map(rel).join(" -> "));
		expect(intoSrc).toEqual([]);
		// The scan sees the modules' imports at all (a broken pattern would pass vacuously).
		expect([...reached.keys()].map(rel)).toContain("bench/session/protocol.ts");
	});

	it("the scan would see an import from src/ (pifold-arms.ts registers pi-fold, so it has one)", () => {
		const reached = closure([join(SESSION, "pifold-arms.ts")]);
		expect([...reached.keys()].some((f) => f.startsWith(join(ROOT, "src")))).toBe(true);
	});
});
