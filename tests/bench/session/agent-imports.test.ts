// What the scripted agent may know: its decision modules (and everything they import, followed through the bench's
// own files) import nothing from pi-fold's source, so whatever it knows of pi-fold it read in its window, as a model
// would. Harness code that registers pi-fold and measurement code may import src/; the agent may not. And grading
// (the answer key, the stage tool that checks answers, the targets, the recall measures) shares no code with the
// agent or with the stand-in writer that writes the model's summaries.

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
	"reuse-gate.ts",
].map((f) => join(SESSION, f));

/** The agent's answering code and the model's stand-in writer: what grading must not share. */
const ANSWERING_MODULES = [...AGENT_MODULES, "stand-in-writer.ts", "brief-writer.ts", "compaction-summarizer.ts"].map(
	(f) => resolve(SESSION, f),
);

/** The modules that grade: the answer key, the stage tool checking answers, the targets, the recall measures. */
const GRADING_MODULES = [
	"plan.ts",
	"grading-facts.ts",
	"session-corpus.ts",
	"stage-tool.ts",
	"targets.ts",
	"sweep-targets.ts",
	"recall-targets.ts",
	"recall-metrics.ts",
	"reuse-plan.ts",
	"reuse-report.ts",
	"reuse-tally.ts",
	"sweep-reuse.ts",
].map((f) => join(SESSION, f));

/**
 * Relative module paths a file imports or re-exports (type-only imports too, unless `code`: knowing a type is
 * knowing, but a type shares no code).
 */
function importsOf(file: string, code = false): string[] {
	const text = readFileSync(file, "utf8");
	const out: string[] = [];
	for (const m of text.matchAll(/^\s*(import|export)\b(\s+type\b)?[^;]*?\bfrom\s+"([^"]+)"/gms)) {
		const spec = m[3] as string;
		if (code && m[2]) continue;
		if (spec.startsWith(".")) out.push(resolve(dirname(file), spec));
	}
	return out;
}

/** Every file reached from `roots` through relative imports, with the chain that reached it. */
function closure(roots: readonly string[], code = false): Map<string, string[]> {
	const seen = new Map<string, string[]>();
	const queue = roots.map((r) => [r]);
	while (queue.length > 0) {
		const chain = queue.shift() as string[];
		const file = chain.at(-1) as string;
		if (seen.has(file)) continue;
		seen.set(file, chain);
		if (!file.startsWith(join(ROOT, "bench"))) continue;
		for (const next of importsOf(file, code)) queue.push([...chain, next]);
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

describe("grading shares no code with the agent", () => {
	it("the answer key, the stage tool, the targets and the recall measures import no answering module", () => {
		const reached = closure(GRADING_MODULES, true);
		const shared = [...reached.entries()]
			.filter(([file]) => ANSWERING_MODULES.includes(file))
			.map(([, chain]) => chain.map(rel).join(" -> "));
		expect(shared).toEqual([]);
		expect([...reached.keys()].map(rel)).toContain("bench/session/grading-facts.ts");
	});
});
