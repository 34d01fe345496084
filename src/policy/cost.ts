// The economics of one commit (docs/policy.md, "Cost scheduling"): a commit whose first change is
// at entry p re-sends everything after p at the write price instead of the read price (less what was
// appended since the last request, which is fresh either way), plus any model-brief requests; it then saves
// the tokens it freed at the read price on every later request until the next commit. The window
// grows by g tokens a request, so committing pays once the reads it would have saved since the window
// was last at its floor cover its cost: the economic order quantity, F >= sqrt(2 g C / c), with F the
// tokens freed, C the commit's cost and c the read price. Token counts here are pi-fold's estimates;
// the calibration (a fixed overhead plus a rate) turns them into the provider's tokens for dollars.
// Pure.

import { type PriceTable, ratesAt, writeRate } from "./prices.ts";

/** A fold a commit may apply: an entry range and the tokens it frees (marks and ladder proposals alike). */
export interface Candidate {
	readonly start: number;
	readonly end: number;
	readonly freedTokens: number;
	/** Dollars of model-brief requests this fold needs (0 for deterministic briefs). */
	readonly briefCost: number;
}

/** What the economics read of the session now. */
export interface Economy {
	/** Estimated tokens of the next request (messages, no system prompt). */
	readonly windowTokens: number;
	/** Estimated tokens appended since the last request (fresh whatever happens). */
	readonly appendedTokens: number;
	/** Estimated tokens the window grows per request (smoothed). */
	readonly growthTokens: number;
	/** Provider tokens per estimated token (1 when unmeasured): turns a count of estimated tokens into the provider's. */
	readonly calibration: number;
	/** Provider tokens a request carries beyond its estimate (tool definitions, framing): 0 when unmeasured. */
	readonly overhead: number;
	readonly prices: PriceTable;
	/** Estimated tokens of the window before entry index `start`. */
	readonly prefixTokens: (start: number) => number;
	/** Decisions already recorded change the window from this entry on, whatever the commit folds. */
	readonly pendingFrom?: number;
	/** Estimated tokens those decisions add (an expand's restore), or remove. */
	readonly pendingGrowth?: number;
}

/** A commit's prediction, in the provider's tokens and dollars. */
export interface CommitPrediction {
	/** Tokens the next request carries from the first change on (all fresh). */
	readonly rewriteTokens: number;
	/** Tokens the commit frees from every later request. */
	readonly freedTokens: number;
	/** The window after the commit (the next request's size, before new appends). */
	readonly windowAfterTokens: number;
	/** Extra dollars the commit costs: the rewrite at the write price less its read price, plus model briefs. */
	readonly rewriteUsd: number;
	/** Dollars saved on each later request. */
	readonly savingPerRequestUsd: number;
	/** Requests until the saving repays the cost (0 when it costs nothing extra). */
	readonly breakEvenRequests: number;
}

/** The commit that applies `chosen` (those from entry `start` on), as the economics see it. */
export interface Priced {
	readonly start: number;
	readonly chosen: readonly Candidate[];
	/** Estimated tokens freed. */
	readonly freed: number;
	/** Estimated tokens after the first change, post-commit (fresh on the next request). */
	readonly after: number;
	/** Of which were cached before (the rewrite proper). */
	readonly rewritten: number;
	/** Dollars the commit costs over not committing. */
	readonly cost: number;
	/** The freed tokens at which this commit pays (economic order quantity), estimated tokens. */
	readonly payAt: number;
	readonly prediction: CommitPrediction;
}

/** Prices a commit of every candidate starting at or after `start`. */
export function price(economy: Economy, candidates: readonly Candidate[], start: number): Priced {
	const chosen = candidates.filter((c) => c.start >= start);
	const freed = chosen.reduce((sum, c) => sum + c.freedTokens, 0);
	const k = economy.calibration;
	// The rewrite starts at the first change: this option's, or a pending decision's before it.
	const from = Math.min(start, economy.pendingFrom ?? start);
	const after = Math.max(0, economy.windowTokens + (economy.pendingGrowth ?? 0) - economy.prefixTokens(from) - freed);
	const rewritten = Math.max(0, after - economy.appendedTokens);
	const rates = ratesAt(economy.prices, economy.overhead + economy.windowTokens * k);
	const read = rates.cacheRead / 1_000_000;
	const extra = (writeRate(rates) - rates.cacheRead) / 1_000_000;
	const briefs = chosen.reduce((sum, c) => sum + c.briefCost, 0);
	const cost = rewritten * k * extra + briefs;
	const saving = freed * k * read;
	const growth = Math.max(1, economy.growthTokens);
	const payAt = read > 0 ? Math.sqrt((2 * growth * cost) / (k * read)) : 0;
	return {
		start,
		chosen,
		freed,
		after,
		rewritten,
		cost,
		payAt,
		prediction: {
			rewriteTokens: Math.round(after * k),
			freedTokens: Math.round(freed * k),
			windowAfterTokens: Math.round(economy.overhead + (economy.windowTokens - freed) * k),
			rewriteUsd: cost,
			savingPerRequestUsd: saving,
			breakEvenRequests: cost <= 0 ? 0 : saving > 0 ? Math.ceil(cost / saving) : Number.POSITIVE_INFINITY,
		},
	};
}

/** Every distinct commit the candidates allow: one per first-change position, deepest first. */
export function commitOptions(economy: Economy, candidates: readonly Candidate[]): Priced[] {
	const starts = [...new Set(candidates.map((c) => c.start))].sort((a, b) => a - b);
	return starts.map((s) => price(economy, candidates, s));
}

/**
 * The commit worth making now, or null: among the options whose freed tokens have reached their
 * economic order quantity, the one that frees the most.
 */
export function worthCommitting(options: readonly Priced[]): Priced | null {
	let best: Priced | null = null;
	for (const o of options) if (o.freed > 0 && o.freed >= o.payAt && (!best || o.freed > best.freed)) best = o;
	return best;
}

/** Dollars of one model-brief request over `inputTokens` of span at `prices` (bounded input and output). */
export function briefRequestCost(prices: PriceTable, inputTokens: number, outputTokens: number): number {
	const rates = ratesAt(prices, inputTokens);
	return (inputTokens * rates.input + outputTokens * rates.output) / 1_000_000;
}
