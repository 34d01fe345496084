// Results too large for the window: at the end of the turn that produced them, before any request
// carries them, the results of the newest tool batch that cannot fit (not even after every other
// stale unit is folded) are picked, largest first, to be shown as bounded excerpts, until the next
// request would sit at QUIET_OCCUPANCY of the budget with everything else folded, or none is left
// that an excerpt would shrink. Before the session has measured how the provider counts against the
// estimate, the request must also fit the budget at the highest rate it may count (src/runtime
// meter.ts rateBound), whatever the rate turns out to be, since nothing else can make room for it.
// Each stays a tool result answering its call (pairing is kept); its exact original is a fold's
// verified source (peek, search, expand read it). A batch of many results each too small for an
// excerpt of its own but too large as a whole is then folded as a whole: its remaining results,
// largest first, are shown each by its start, its size and its handle (a batch excerpt,
// BATCH_EXCERPT_TOKENS_ESTIMATE each; when even the results large enough for an excerpt of their own
// are too many, their excerpts become such places too), so every call stays answered and search,
// peek and expand reach every result. Only a unit that cannot fit even so reaches the fence. Pure over the snapshot
// and the window's tokens.

import type { TranscriptEntry } from "../transcript/index.ts";
import { QUIET_OCCUPANCY } from "./constants.ts";
import type { WindowTokens } from "./ladder-input.ts";
import { rescueProposals } from "./rescue.ts";
import type { Snapshot } from "./snapshot.ts";

/** Estimated tokens an excerpt's placeholder occupies: a 1,200-character brief and its header and handles. */
export const EXCERPT_TOKENS_ESTIMATE = 400;

/**
 * A result is worth an excerpt only when it holds at least this many estimated tokens (two excerpts'
 * worth: it frees at least as much as the excerpt takes). A batch of many mid-sized results that
 * together do not fit is excerpted too; only results smaller than this reach the fence.
 */
export const EXCERPT_MIN_TOKENS = 2 * EXCERPT_TOKENS_ESTIMATE;

/** Estimated tokens of one result's place in a batch excerpt: its start, its size, its handle. */
export const BATCH_EXCERPT_TOKENS_ESTIMATE = 160;

/** A result joins a batch excerpt only when it holds at least two of its places' worth. */
export const BATCH_EXCERPT_MIN_TOKENS = 2 * BATCH_EXCERPT_TOKENS_ESTIMATE;

/** One result of the newest batch to show as an excerpt. */
export interface OversizedResult {
	/** Transcript index of the result entry. */
	readonly index: number;
	readonly entry: TranscriptEntry;
	/** The call entry it answers (the batch's assistant message). */
	readonly call: TranscriptEntry;
	/** Estimated tokens it holds now. */
	readonly tokens: number;
	/** Shown as its place in a batch excerpt (the batch too large as a whole): its position and the batch's size. */
	readonly batch?: { readonly position: number; readonly count: number } | undefined;
}

/** What the newest batch asks for: the results to excerpt, and the tokens that frees (estimated). */
export interface OversizePlan {
	readonly results: readonly OversizedResult[];
	readonly freedTokens: number;
}

const NONE: OversizePlan = { results: [], freedTokens: 0 };

/**
 * The results of the newest unit (a completed tool batch that no fold covers yet) to excerpt so the
 * next request (`nextTokens`, estimated, system prompt included) fits the budget with everything
 * else stale folded; none when it fits as it is. `rateBound` is how many times the calibration's
 * rate the provider may count per estimated token (1 once the session meter measured the rate):
 * the excerpts bring the request to the quiet line, and within the budget at that many times the
 * rate, so that it fits whatever the rate turns out to be.
 */
export function oversizedResults(
	snap: Snapshot,
	tokens: WindowTokens,
	nextTokens: number,
	rateBound = 1,
): OversizePlan {
	const unit = snap.units.at(-1);
	if (unit?.kind !== "toolBatch" || !unit.complete || unit.end - unit.start < 2) return NONE;
	if (snap.lattice.innermostAt(unit.start) || snap.lattice.innermostAt(unit.end - 1)) return NONE;
	const budget = snap.budget.budgetTokens;
	// The common case, a request that fits as it is, asks the rescue nothing.
	if (nextTokens <= budget) return NONE;
	const reclaimable = rescueProposals(snap, tokens).reduce((sum, p) => sum + p.freedTokens, 0);
	let after = nextTokens - reclaimable;
	if (after <= budget) return NONE;
	const call = snap.view.transcript[unit.start] as TranscriptEntry;
	const results: OversizedResult[] = [];
	for (let i = unit.start + 1; i < unit.end; i++) {
		const entry = snap.view.transcript[i] as TranscriptEntry;
		results.push({ index: i, entry, call, tokens: tokens.range(i, i + 1) });
	}
	results.sort((a, b) => b.tokens - a.tokens || a.index - b.index);
	const chosen: OversizedResult[] = [];
	let freed = 0;
	// The quiet line at the calibration, and within the budget at the highest rate the provider may count.
	const target = Math.min(QUIET_OCCUPANCY * budget, budget / Math.max(1, rateBound));
	for (const r of results) {
		if (after <= target || r.tokens < EXCERPT_MIN_TOKENS) break;
		const saves = r.tokens - EXCERPT_TOKENS_ESTIMATE;
		chosen.push(r);
		freed += saves;
		after -= saves;
	}
	// Still too large as a whole: the batch (of several results; a single one keeps its whole excerpt)
	// is folded as a whole, each remaining result by its start.
	const count = results.length;
	if (count < 2) return chosen.length > 0 ? { results: chosen, freedTokens: freed } : NONE;
	for (const r of results.slice(chosen.length)) {
		if (after <= target || r.tokens < BATCH_EXCERPT_MIN_TOKENS) break;
		const saves = r.tokens - BATCH_EXCERPT_TOKENS_ESTIMATE;
		chosen.push({ ...r, batch: { position: r.index - unit.start, count } });
		freed += saves;
		after -= saves;
	}
	// Even so too large (many results each large enough for an excerpt of its own): the excerpts become
	// places in the batch excerpt too, largest first, until it fits.
	for (let i = 0; i < chosen.length && after > target; i++) {
		const r = chosen[i] as OversizedResult;
		if (r.batch) continue;
		const saves = EXCERPT_TOKENS_ESTIMATE - BATCH_EXCERPT_TOKENS_ESTIMATE;
		chosen[i] = { ...r, batch: { position: r.index - unit.start, count } };
		freed += saves;
		after -= saves;
	}
	return chosen.length > 0 ? { results: chosen.sort((a, b) => a.index - b.index), freedTokens: freed } : NONE;
}
