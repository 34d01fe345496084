// What the decision core reads of the session beyond the branch: how the provider counts a request
// against pi-fold's estimate (the calibration the runtime's meter measures), the meter's other
// readings (growth, the last request, the rate's upper bound), and the few facts of the host's model
// the cost gate prices with. Plain read-only values and one pure scaling; the runtime supplies them.

import type { PriceTable } from "./prices.ts";

/** How the provider counts a request of `e` estimated tokens: `overhead + rate * e`. */
export interface Calibration {
	readonly overhead: number;
	readonly rate: number;
}

/** The session meter as the decision core reads it (src/runtime meter.ts measures it). */
export interface MeterReading {
	readonly calibration: Calibration;
	/** How many times the calibration's rate the provider may count per estimated token (1 once measured). */
	readonly rateBound: number;
	/** Estimated message tokens of the last request sent (null before the first). */
	readonly lastRequestTokens: number | null;
	/** When the last request left (null before the first). */
	readonly lastRequestAt: number | null;
	/** Estimated tokens the window grows per request, or `fallback` before any measurement. */
	growthTokens(fallback: number): number;
}

/** What the cost gate reads of the host: the models' prices, the cache's lifetime, the time now. */
export interface HostFacts {
	/** The session model's prices, if the host knows them. */
	readonly modelCost: PriceTable | undefined;
	/** The brief writer's model's prices when it is another model, else undefined. */
	readonly briefModelCost: PriceTable | undefined;
	/** The provider cache's lifetime for the session model, if known. */
	readonly cacheTtlMs: number | undefined;
	readonly now: number;
}

/** `snap` with its serving budget in estimated tokens: the provider's budget over the calibration. */
export function inEstimatedTokens<S extends { readonly budget: { readonly budgetTokens: number } }>(
	snap: S,
	calibration: Calibration,
): S {
	const { overhead, rate } = calibration;
	if (overhead === 0 && rate === 1) return snap;
	const budgetTokens = Math.max(1, Math.round((snap.budget.budgetTokens - overhead) / rate));
	return { ...snap, budget: { ...snap.budget, budgetTokens } };
}
