import { describe, expect, it } from "vitest";
import type { BriefSource, FoldRecord } from "../../src/lattice/index.ts";
import { DEFAULT_SOURCE_BYTES_PER_TOKEN, projectionCandidates } from "../../src/projection/index.ts";

function fold(id: string, sourceBytes: number, briefSource: BriefSource = "deterministic"): FoldRecord {
	return {
		id,
		kind: "tools",
		origin: "agent",
		leafIds: [`${id}-e1`, `${id}-e2`],
		sourceSha256: `${id.slice(1)}`.padEnd(64, "a"),
		sourceBytes,
		brief: `brief of ${id}`,
		briefSource,
	};
}

const placeholderText = (id: string) => `[active-context ${id}] brief; expand or peek ${id}`; // 51 bytes for 16-hex ids
const estimateTokens = (text: string) => text.length / 4;

describe("projection candidates", () => {
	it("emits exactly the spec's field table for each visible collapsed fold", () => {
		const a = fold("f0000000000000001", 10_000, "model");
		const out = projectionCandidates({
			folds: [{ record: a, collapsedVisible: true }],
			toolName: "active_context",
			estimateTokens,
			placeholderText,
		});
		const ph = placeholderText(a.id);
		const saved = 10_000 - Buffer.byteLength(ph);
		expect(out).toEqual([
			{
				version: 1,
				key: "projection:f0000000000000001",
				kind: "projection",
				domain: "system",
				horizon: "working",
				source_id: "f0000000000000001",
				source_version: a.sourceSha256,
				route: { tool: "active_context", arguments: { action: "expand", id: "f0000000000000001" } },
				token_cost: Math.ceil(ph.length / 4),
				expansion_cost: Math.ceil(10_000 / DEFAULT_SOURCE_BYTES_PER_TOKEN),
				rank: 0,
				score: saved / 10_000,
				raw_score: saved,
				confidence: "exact",
				freshness: "current",
				locked_owner: false,
				collapse_key: "projection:f0000000000000001",
				generator: "projection-model",
				generator_version: "memory-slate-generators-v2",
				recency: null,
			},
		]);
		expect(Object.keys(out[0] ?? {})).toHaveLength(20);
	});

	it("skips folds that are expanded or hidden inside a collapsed parent, ranking the rest from zero", () => {
		const folds = [
			{ record: fold("f1000000000000000", 5000), collapsedVisible: true },
			{ record: fold("f2000000000000000", 5000), collapsedVisible: false },
			{ record: fold("f3000000000000000", 5000, "agent"), collapsedVisible: true },
			{ record: fold("f4000000000000000", 5000, "supplied"), collapsedVisible: true },
		];
		const out = projectionCandidates({ folds, toolName: "ctx", estimateTokens, placeholderText });
		expect(out.map((c) => [c.source_id, c.rank, c.generator, c.route.tool])).toEqual([
			["f1000000000000000", 0, "projection-deterministic", "ctx"],
			["f3000000000000000", 1, "projection-supplied", "ctx"],
			["f4000000000000000", 2, "projection-supplied", "ctx"],
		]);
	});

	it("rounds token costs up with a minimum of 1, caps score at 1 and never reports negative savings", () => {
		const tiny = fold("f5000000000000000", 10);
		const [c] = projectionCandidates({
			folds: [{ record: tiny, collapsedVisible: true, source: "x" }],
			toolName: "active_context",
			estimateTokens: (t) => (t === "x" ? 0 : 0.2),
			placeholderText,
		});
		expect(c).toMatchObject({ token_cost: 1, expansion_cost: 1, raw_score: 0, score: 0 });
		const [d] = projectionCandidates({
			folds: [{ record: fold("f6000000000000000", 1000), collapsedVisible: true, source: "s".repeat(1000) }],
			toolName: "active_context",
			estimateTokens: (t) => t.length / 3,
			placeholderText: () => "",
		});
		expect(d).toMatchObject({ token_cost: 1, expansion_cost: 334, raw_score: 1000, score: 1 });
		const [e] = projectionCandidates({
			folds: [{ record: fold("f7000000000000000", 0), collapsedVisible: true }],
			toolName: "t",
			estimateTokens,
			placeholderText,
		});
		expect(e).toMatchObject({ score: 0, raw_score: 0, expansion_cost: 1 });
	});

	it("measures saved bytes in UTF-8, not characters", () => {
		const [c] = projectionCandidates({
			folds: [{ record: fold("f8000000000000000", 100), collapsedVisible: true }],
			toolName: "t",
			estimateTokens,
			placeholderText: () => "é".repeat(10),
		});
		expect(c?.raw_score).toBe(80);
		expect(c?.score).toBe(0.8);
	});
});
