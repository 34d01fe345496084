// What every target comparing to native compares to: the cheaper of the native arms that ran at a window (`native`,
// Pi's defaults, and `native-tuned`, Pi's compaction set to trigger below the long-context tier), at the price table
// the target is about (tiered or flat). An arm that did not complete every stage is a baseline only when no native
// arm did. Also where each native arm compacts (its `compaction.reserveTokens`). Pure functions.

import { PRICES } from "./ledger.ts";
import type { ArmReport } from "./report-schema.ts";

/** The native arms, Pi's compaction with no pi-fold. */
export const NATIVE_ARMS: readonly string[] = ["native", "native-tuned"];

/** "tiered": the price table with the long-context tier; "flat": base rates throughout. */
export type PriceTable = "tiered" | "flat";

export function isNativeArm(arm: { name: string }): boolean {
	return NATIVE_ARMS.includes(arm.name);
}

export function priceAt(arm: ArmReport, table: PriceTable): number {
	return table === "flat" ? arm.totals.flatCost : arm.totals.cost;
}

/** The cheaper native arm among `arms` at `table` (a tie goes to the one listed first), or undefined. */
export function cheaperNative(arms: readonly ArmReport[], table: PriceTable = "tiered"): ArmReport | undefined {
	const natives = arms.filter(isNativeArm);
	const complete = natives.filter((a) => a.stagesCompleted === a.stageCount);
	const pool = complete.length > 0 ? complete : natives;
	let best: ArmReport | undefined;
	for (const a of pool) if (!best || priceAt(a, table) < priceAt(best, table)) best = a;
	return best;
}

/** Pi's default `compaction.reserveTokens`: Pi compacts once the context exceeds the window less this. */
export const PI_DEFAULT_RESERVE_TOKENS = 16_384;

/**
 * native-tuned's `compaction.reserveTokens` in a window of `window` tokens: where the price table has a long-context
 * tier below the window, Pi compacts with its default headroom below the tier instead of below the window (at 372k:
 * 116,384, so it compacts above 255,616); otherwise Pi's default.
 */
export function tunedReserveTokens(window: number): number {
	const over = window - PRICES.longContextThreshold;
	return over > 0 ? over + PI_DEFAULT_RESERVE_TOKENS : PI_DEFAULT_RESERVE_TOKENS;
}
