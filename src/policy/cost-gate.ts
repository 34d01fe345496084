// The gate of a boundary under cost scheduling: what the cost policy (src/policy cost-schedule.ts)
// reads of the session now. The ladder's proposals are computed with the keep-raw floor as the
// protected tail (fold deep: everything stale down to the working set the model keeps raw), plus the
// span rung's folds of the stale conversation once the window is half the budget (a fifth when no
// other rung has anything to fold); the
// economy is the window, what was appended since the last request, the growth rate, the calibration
// and the prices (the `prices` option, else the model's); a model-written brief is priced and kept
// only when it costs less than what its fold saves until the next commit (a span's always, priced
// into its commit; a custom summarizer's always, unpriced); the cache is cold when
// the last request is older than its lifetime. Pure over the snapshot and the meter.

import { SUMMARY_INPUT_MAX_CHARS, SUMMARY_MAX_OUTPUT_TOKENS } from "../briefs/index.ts";
import type { ResolvedOptions } from "../options/index.ts";
import type { Occupancy } from "./boundary-input.ts";
import type { HostFacts, MeterReading } from "./calibration.ts";
import { briefRequestCost, type Economy } from "./cost.ts";
import { type CostPlan, planCostCommit } from "./cost-schedule.ts";
import { keptRawUnits } from "./kept-raw.ts";
import { chapterProposals, consolidationProposals, type Proposal, toolProposals } from "./ladder.ts";
import { ladderInput, markViews, shownTokens, type WindowTokens, windowTokens } from "./ladder-input.ts";
import { pricesFor, ratesAt } from "./prices.ts";
import type { Snapshot } from "./snapshot.ts";
import { spanProposals } from "./span-rung.ts";

/** The keep-raw floor is at most this share of the serving budget (small windows keep less raw). */
export const KEEP_RAW_MAX_BUDGET_SHARE = 0.25;
/** Growth assumed per request before any is measured, as a share of the serving budget. */
export const DEFAULT_GROWTH_SHARE = 0.02;
/** Characters per token assumed for a model brief's bounded input. */
const BRIEF_CHARS_PER_TOKEN = 4;

export interface CostGate {
	readonly plan: CostPlan;
	readonly marks: ReturnType<typeof markViews>;
	/** Whether a chapter or consolidation proposal gets a written brief (it pays for itself, or is custom). */
	readonly modelBrief: (proposal: Proposal) => boolean;
}

/**
/**
 * The keep-raw floor in estimated tokens: the `keepRawTokens` option (provider tokens) turned into
 * estimated ones by the calibration rate, at most KEEP_RAW_MAX_BUDGET_SHARE of the budget.
 */
export function keepRawFloor(keepRawTokens: number, calibrationRate: number, budgetTokens: number): number {
	return Math.min(keepRawTokens / calibrationRate, KEEP_RAW_MAX_BUDGET_SHARE * budgetTokens);
}

/**
 * The first unit of the newest units holding `keepTokens` of the window (the keep-raw floor). What
 * the agent chose to see (`kept`: an expand, a recent peek) stays raw on its own account and does
 * not use up the floor, so it never pushes the work in hand (a stage's instructions) out of it.
 */
export function keepRawUnit(
	snap: Snapshot,
	tokens: WindowTokens,
	keepTokens: number,
	kept: readonly boolean[] = [],
): number {
	let held = 0;
	for (let u = snap.units.length - 1; u >= 0; u--) {
		const unit = snap.units[u];
		if (!unit) break;
		if (kept[u] === true) continue;
		held += tokens.range(unit.start, unit.end);
		if (held >= keepTokens) return u;
	}
	return 0;
}

/**
 * What the pending decisions do to the window whatever the commit folds: the rewrite starts at
 * their first edit at the latest, and the window grows by what they restore (the state's window
 * against the one in force).
 */
function pendingChange(from: number | null, growth: number) {
	if (from === null) return {};
	return { pendingFrom: from, pendingGrowth: growth };
}

/** Whether the provider's cache has expired since the last request. */
function cacheCold(host: HostFacts, meter: MeterReading, ttlOption: number | undefined): boolean {
	const ttl = ttlOption ?? host.cacheTtlMs;
	const last = meter.lastRequestAt;
	return ttl !== undefined && last !== null && host.now - last > ttl;
}

/** Dollars a fold saves in cache reads until the next commit (`horizon` requests). */
function saverFor(economy: Economy, horizon: number): (p: Proposal) => number {
	const read =
		ratesAt(economy.prices, economy.overhead + economy.windowTokens * economy.calibration).cacheRead / 1_000_000;
	return (p) => p.freedTokens * economy.calibration * read * horizon;
}

/**
 * Dollars of a proposal's model-written brief request (the summarizer's model when the host knows it,
 * else the session model's). The request reads the span as the window will show it: the tool batches
 * of this commit inside it (`tools`) as their placeholders, not as the tokens they free.
 */
function briefPrice(
	host: HostFacts,
	options: ResolvedOptions,
	economy: Economy,
	tools: readonly Proposal[],
): (p: Proposal) => number {
	if (options.summarizer === "deterministic" || options.summarizer === "custom") return () => 0;
	const prices = pricesFor(host.briefModelCost ?? host.modelCost, undefined);
	return (p) => {
		if (p.rung === "tools") return 0;
		const nested = tools
			.filter((t) => p.start <= t.start && t.end <= p.end && !(t.start === p.start && t.end === p.end))
			.reduce((sum, t) => sum + t.freedTokens, 0);
		const shown = Math.max(0, p.freedTokens - nested);
		const input = Math.min(shown * economy.calibration, SUMMARY_INPUT_MAX_CHARS / BRIEF_CHARS_PER_TOKEN);
		return briefRequestCost(prices, input, SUMMARY_MAX_OUTPUT_TOKENS);
	};
}

/**
 * The brief cost a commit pays for each proposal: a span's always (it always gets its written brief,
 * span-rung.ts); a chapter's or consolidation's only when its brief pays for itself before the next
 * commit (else its deterministic brief, free).
 */
function briefPricer(price: (p: Proposal) => number, saving: (p: Proposal) => number) {
	return (p: Proposal) => {
		const cost = price(p);
		if (p.rung === "span") return cost;
		return cost <= saving(p) ? cost : 0;
	};
}

/** Step 1 under cost scheduling: does this boundary commit, and what. */
export function costGate(input: {
	readonly snap: Snapshot;
	readonly options: ResolvedOptions;
	readonly occupancy: Occupancy;
	readonly meter: MeterReading;
	readonly host: HostFacts;
	readonly decisionsPending: boolean;
	readonly expandPending: boolean;
	/** The first entry the pending decisions change (their edits land with any commit), or null. */
	readonly pendingFrom?: number | null;
	/** Estimated tokens those decisions add to the window when they land (negative: they fold). */
	readonly pendingGrowth?: number;
	readonly paused: boolean;
}): CostGate {
	const { snap, options, meter } = input;
	const { rate: k, overhead } = meter.calibration;
	const tokens = windowTokens(snap);
	const marks = markViews(snap, tokens);
	// `snap.budget` is in estimated tokens (the runtime scales it by the calibration): one unit throughout.
	const keep = keepRawFloor(options.keepRawTokens, k, snap.budget.budgetTokens);
	const kept = keptRawUnits(snap, options.toolName);
	const deep = { ...snap, freshUnit: Math.min(snap.freshUnit, keepRawUnit(snap, tokens, keep, kept)) };
	const ladder = ladderInput(deep, options, tokens, input.occupancy.tokens / snap.budget.budgetTokens);
	const window = input.occupancy.tokens;
	const economy: Economy = {
		windowTokens: window,
		appendedTokens: Math.max(0, window - (meter.lastRequestTokens ?? window)),
		growthTokens: meter.growthTokens(DEFAULT_GROWTH_SHARE * snap.budget.budgetTokens),
		calibration: k,
		overhead,
		prices: pricesFor(input.host.modelCost, options.prices),
		prefixTokens: (start) => (input.occupancy.systemTokens ?? 0) + tokens.range(0, start),
		...pendingChange(input.pendingFrom ?? null, input.pendingGrowth ?? tokens.total - shownTokens(snap)),
	};
	const horizon = Math.max(1, (snap.budget.budgetTokens - window) / Math.max(1, economy.growthTokens));
	const tools = toolProposals(ladder);
	const price = briefPrice(input.host, options, economy, tools);
	const saving = saverFor(economy, horizon);
	const briefCost = briefPricer(price, saving);
	const chapters = chapterProposals(ladder);
	// Consolidation as under every mode: past ten visible folds, or every equal pair from 85% (a binary counter).
	const consolidations = consolidationProposals(ladder);
	const occupancy = input.occupancy.tokens / snap.budget.budgetTokens;
	// A span takes the tool batches of its run with it (they nest inside). With nothing else to fold, it opens earlier.
	const alone = tools.length === 0 && chapters.length === 0 && !hasToolFold(snap);
	const spans = spanProposals(deep, tokens, occupancy, [...chapters, ...consolidations], kept, alone);
	const plan = planCostCommit({
		budget: snap.budget,
		economy,
		entryCount: snap.view.transcript.length,
		marks,
		decisionsPending: input.decisionsPending,
		expandPending: input.expandPending,
		tools,
		chapters,
		consolidations,
		spans,
		briefCost,
		paused: input.paused,
		cacheCold: cacheCold(input.host, meter, options.cacheTtlMs),
	});
	// A custom summarizer is the user's own choice and unpriced here: it writes every chapter and
	// consolidation brief; the session's (or a named) model writes one only when it pays.
	const custom = options.summarizer === "custom";
	const written = (p: Proposal) => p.rung === "span" || briefCost(p) > 0;
	return { plan, marks, modelBrief: (p) => (custom ? p.rung !== "tools" : written(p)) };
}

/** Whether any tool batch of the session was ever folded (its fold may now sit inside a wider one). */
function hasToolFold(snap: Snapshot): boolean {
	for (const f of snap.lattice.folds.values()) if (f.record.kind === "tools") return true;
	return false;
}
