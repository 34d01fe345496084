// The staged plan: deterministic from its seed, every file on disk hashing as recorded, answers true to the corpus.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { definitionLine } from "../../../bench/session/facts.ts";
import { buildPlan, isNoteStage, isProbeStage, type Plan, planCadence } from "../../../bench/session/plan.ts";
import { type Corpus, countLines, loadCorpus, sha256Hex } from "../../../bench/session/session-corpus.ts";

let corpus: Corpus;
let plan: Plan;

beforeAll(() => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "test-seed", stages: 16, stageChars: 48_000 });
});

describe("the corpus", () => {
	it("is picked by the fixed rule from the installed Pi packages and sorted by path", () => {
		expect(corpus.files.length).toBeGreaterThan(100);
		const paths = corpus.files.map((f) => f.path);
		expect([...paths].sort()).toEqual(paths);
		for (const f of corpus.files) {
			expect(f.path).toMatch(/^pi-[a-z-]+\/.+\.(js|md)$/);
			expect(f.bytes).toBeGreaterThanOrEqual(1_024);
			expect(f.bytes).toBeLessThanOrEqual(40_000);
			expect(f.lines).toBeLessThan(2_000);
		}
	});

	it("counts lines the way a reader does", () => {
		expect(countLines("")).toBe(0);
		expect(countLines("a")).toBe(1);
		expect(countLines("a\n")).toBe(1);
		expect(countLines("a\nb")).toBe(2);
		expect(countLines("a\n\n")).toBe(2);
	});
});

describe("the plan", () => {
	it("is deterministic: the same seed gives the same hash, another seed another plan", () => {
		const again = buildPlan(loadCorpus(), { seed: "test-seed", stages: 16, stageChars: 48_000 });
		expect(again.hash).toBe(plan.hash);
		expect(again).toEqual(plan);
		const other = buildPlan(corpus, { seed: "other-seed", stages: 16, stageChars: 48_000 });
		expect(other.hash).not.toBe(plan.hash);
		expect(plan.hash).toMatch(/^[0-9a-f]{64}$/);
	});

	it("records every stage file, and every file exists on disk and hashes as recorded", () => {
		const recorded = new Map(plan.files.map((f) => [f.path, f]));
		for (const stage of plan.stages) for (const path of stage.files) expect(recorded.has(path)).toBe(true);
		for (const file of plan.files) {
			const bytes = readFileSync(join(corpus.root, file.path));
			expect(sha256Hex(bytes)).toBe(file.sha256);
			expect(bytes.length).toBe(file.bytes);
		}
	});

	it("hands out about stageChars of file bodies per stage", () => {
		const chars = new Map(plan.files.map((f) => [f.path, f.chars]));
		for (const stage of plan.stages) {
			const total = stage.files.reduce((n, p) => n + (chars.get(p) ?? 0), 0);
			expect(total).toBeGreaterThan(48_000 * 0.85);
			expect(total).toBeLessThanOrEqual(48_000 * 1.05 + 40_000);
		}
	});

	it("revisits an earlier stage every third stage, probes and asks for notes on its cadence", () => {
		const cadence = planCadence(16);
		expect(cadence).toBe(4);
		expect(planCadence(64)).toBe(16);
		for (const stage of plan.stages) {
			if (stage.stage % 3 === 0) {
				expect(stage.revisitOf).toBeLessThan(stage.stage);
				const earlier = plan.stages[(stage.revisitOf as number) - 1];
				expect(earlier?.files).toContain(stage.files[0]);
				expect(stage.questions[0]?.role).toBe("revisit");
			} else expect(stage.revisitOf).toBeUndefined();
			const probes = stage.questions.filter((q) => q.role === "probe");
			expect(probes.length).toBe(isProbeStage(stage.stage, cadence) ? 3 : 0);
			if (probes.length > 0) expect(probes.map((q) => q.kind)).toContain("receipt");
			expect(stage.note).toBe(isNoteStage(stage.stage, cadence));
		}
		expect(plan.stages.filter((s) => s.note).map((s) => s.stage)).toEqual([2, 6, 10, 14]);
	});

	it("asks only questions whose answers lie in earlier stages and are true of the files", () => {
		const text = new Map(corpus.files.map((f) => [f.path, f.text]));
		for (const stage of plan.stages) {
			for (const q of stage.questions) {
				expect(q.aboutStage).toBeLessThan(stage.stage);
				const earlier = plan.stages[q.aboutStage - 1];
				if (q.kind === "receipt") expect(q.answer).toBe(earlier?.receipt);
				if (q.kind === "line-count") expect(q.answer).toBe(String(countLines(text.get(q.file as string) ?? "")));
				if (q.kind === "definition-line")
					expect(q.answer).toBe(String(definitionLine(text.get(q.file as string) ?? "", q.symbol as string)));
				// A reused fact names no candidates (tests/bench/session/reuse.test.ts checks its one owner).
				if (q.kind === "defining-file" && q.role !== "reuse") {
					expect(q.candidates).toContain(q.answer);
					for (const c of q.candidates ?? [])
						expect(definitionLine(text.get(c) ?? "", q.symbol as string) !== undefined).toBe(c === q.answer);
				}
			}
		}
	});
});

describe("the benchmark's imports", () => {
	it("take Pi values only through host.ts, so the bundled CLI loads Pi lazily", async () => {
		const { readdirSync } = await import("node:fs");
		const dir = join(import.meta.dirname, "../../../bench/session");
		for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts") && n !== "host.ts")) {
			const source = readFileSync(join(dir, name), "utf8");
			const valueImports = [...source.matchAll(/^import (?!type )[^;]*from "(@earendil-works\/[^"]+|typebox)";/gm)];
			expect(valueImports.map((m) => `${name}: ${m[1]}`)).toEqual([]);
		}
	});
});
