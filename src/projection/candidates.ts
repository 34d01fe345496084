// The projection candidate provider's records (the `setProjectionProvider` option, README
// "Configuration"): one record per visible collapsed fold, exactly the spec's field table, which
// this comment is the documentation of (below). The runtime owns which folds are
// visible and hands them in with its token estimator and placeholder renderer; the host receives
// the provider through `setProjectionProvider`. Pure: no I/O, no Pi imports.
//
//   version 1 · key/collapse_key "projection:<fold-id>" · kind "projection" · domain "system" ·
//   horizon "working" · source_id fold id · source_version exact source SHA-256 ·
//   route { tool: <toolName>, arguments: { action: "expand", id } } ·
//   token_cost  = estimated placeholder (replacement) tokens, rounded up, minimum 1 ·
//   expansion_cost = estimated exact-source tokens, rounded up, minimum 1 (from the fold's `source`
//                    text when given, else sourceBytes / DEFAULT_SOURCE_BYTES_PER_TOKEN) ·
//   rank = zero-based position among emitted candidates (input order: transcript order) ·
//   score = saved-byte fraction (raw_score / sourceBytes), capped at 1 (0 for an empty source) ·
//   raw_score = exact bytes saved: sourceBytes - UTF-8 bytes of the placeholder, never below 0 ·
//   confidence "exact" · freshness "current" · locked_owner false ·
//   generator from brief provenance: model -> "projection-model", deterministic ->
//   "projection-deterministic", agent / supplied -> "projection-supplied" ·
//   generator_version "memory-slate-generators-v2" · recency null

import type { BriefSource, FoldRecord } from "../lattice/index.ts";

/** A projection candidate record (its fields: this module's header comment). */
export interface ProjectionCandidate {
	readonly version: 1;
	readonly key: string;
	readonly kind: "projection";
	readonly domain: "system";
	readonly horizon: "working";
	readonly source_id: string;
	readonly source_version: string;
	readonly route: { readonly tool: string; readonly arguments: { readonly action: "expand"; readonly id: string } };
	readonly token_cost: number;
	readonly expansion_cost: number;
	readonly rank: number;
	readonly score: number;
	readonly raw_score: number;
	readonly confidence: "exact";
	readonly freshness: "current";
	readonly locked_owner: false;
	readonly collapse_key: string;
	readonly generator: "projection-model" | "projection-deterministic" | "projection-supplied";
	readonly generator_version: "memory-slate-generators-v2";
	readonly recency: null;
}

/** Bytes per token assumed for expansion_cost when the caller does not pass the source text. */
export const DEFAULT_SOURCE_BYTES_PER_TOKEN = 4;

const GENERATOR: Record<BriefSource, ProjectionCandidate["generator"]> = {
	model: "projection-model",
	deterministic: "projection-deterministic",
	agent: "projection-supplied",
	supplied: "projection-supplied",
};

/** One fold as the runtime sees it; `source` (the exact text) sharpens expansion_cost when at hand. */
interface CandidateFold {
	readonly record: FoldRecord;
	readonly collapsedVisible: boolean;
	readonly source?: string;
}

function tokens(estimate: number): number {
	return Math.max(1, Math.ceil(Number.isFinite(estimate) ? estimate : 1));
}

/** The candidate records of every visible collapsed fold, ranked in the order given. */
export function projectionCandidates(input: {
	folds: readonly CandidateFold[];
	toolName: string;
	estimateTokens(text: string): number;
	placeholderText(id: string): string;
}): ProjectionCandidate[] {
	const out: ProjectionCandidate[] = [];
	for (const fold of input.folds) {
		if (!fold.collapsedVisible) continue;
		const { record } = fold;
		const placeholder = input.placeholderText(record.id);
		const saved = Math.max(0, record.sourceBytes - Buffer.byteLength(placeholder, "utf8"));
		const key = `projection:${record.id}`;
		out.push({
			version: 1,
			key,
			kind: "projection",
			domain: "system",
			horizon: "working",
			source_id: record.id,
			source_version: record.sourceSha256,
			route: { tool: input.toolName, arguments: { action: "expand", id: record.id } },
			token_cost: tokens(input.estimateTokens(placeholder)),
			expansion_cost: tokens(
				fold.source !== undefined
					? input.estimateTokens(fold.source)
					: record.sourceBytes / DEFAULT_SOURCE_BYTES_PER_TOKEN,
			),
			rank: out.length,
			score: record.sourceBytes > 0 ? Math.min(1, saved / record.sourceBytes) : 0,
			raw_score: saved,
			confidence: "exact",
			freshness: "current",
			locked_owner: false,
			collapse_key: key,
			generator: GENERATOR[record.briefSource],
			generator_version: "memory-slate-generators-v2",
			recency: null,
		});
	}
	return out;
}
