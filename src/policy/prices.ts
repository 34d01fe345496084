// What a request costs at a model's prices: dollars per million tokens for fresh input, cache
// writes, cache reads and output, with pi-ai's long-context tiers (a whole request whose input is
// above a tier's `inputTokensAbove` is priced at that tier, the highest matching tier winning, as
// pi-ai's `calculateCost` does). Read from the session model's `cost` (pi-ai `Model.cost`) or the
// `prices` option; `pricesAssumed` says when neither gives any, so that a person is shown no dollars
// at DEFAULT_PRICES (the policy still decides with them). Pure.

/** Dollars per million tokens. */
export interface Rates {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** A model's price table: base rates and long-context tiers (pi-ai's `ModelCost` fits). */
export interface PriceTable extends Rates {
	readonly tiers?: readonly (Rates & { readonly inputTokensAbove: number })[] | undefined;
}

/**
 * Used when the model states no prices: relative rates only matter to the policy, and these are the
 * common shape (cache reads a tenth of fresh input, writes at the input price, output six times it).
 */
export const DEFAULT_PRICES: PriceTable = { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 };

/** Whether {@link pricesFor} falls back to DEFAULT_PRICES: neither the option nor the model states usable prices. */
export function pricesAssumed(model: PriceTable | undefined, option?: PriceTable): boolean {
	return pricesFor(model, option) === DEFAULT_PRICES && option !== DEFAULT_PRICES && model !== DEFAULT_PRICES;
}

/** DEFAULT_PRICES as a person reads them: "$5 / $30 / $0.50 per M" (input, output, cache reads). */
export const ASSUMED_PRICES_TEXT = `$${DEFAULT_PRICES.input} / $${DEFAULT_PRICES.output} / $${DEFAULT_PRICES.cacheRead.toFixed(2)} per M`;

/** The price table to use: the option when given, else the model's, else DEFAULT_PRICES. */
export function pricesFor(model: PriceTable | undefined, option?: PriceTable): PriceTable {
	const chosen = option ?? model;
	if (!chosen || !(chosen.input > 0) || !(chosen.cacheRead >= 0)) return DEFAULT_PRICES;
	return chosen;
}

/** The rates a request with `inputTokens` of prompt is billed at. */
export function ratesAt(table: PriceTable, inputTokens: number): Rates {
	let rates: Rates = table;
	let matched = -1;
	for (const tier of table.tiers ?? []) {
		if (inputTokens > tier.inputTokensAbove && tier.inputTokensAbove > matched) {
			rates = tier;
			matched = tier.inputTokensAbove;
		}
	}
	return rates;
}

/** The lowest prompt size at which a tier raises prices, or Infinity without tiers. */
export function firstTierAt(table: PriceTable): number {
	const tiers = table.tiers ?? [];
	return tiers.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...tiers.map((t) => t.inputTokensAbove));
}

/** The rate a cache miss is billed at: the cache-write rate, or the input rate when none is stated. */
export function writeRate(rates: Rates): number {
	return rates.cacheWrite > 0 ? rates.cacheWrite : rates.input;
}
