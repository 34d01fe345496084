// The protected fresh tail: the newest units, which no fold (agent or automatic) may touch, and the
// classification of completed read-only tool batches. Pure functions; the constants are the
// documented defaults.

import type { Unit } from "./transcript-types.ts";

/** Newest units that always stay raw. */
export const FRESH_TAIL_UNITS = 6;
/** The fresh tail never covers more than this share of the serving budget (chars / 4 as tokens)... */
export const FRESH_TAIL_MAX_BUDGET_SHARE = 0.25;
/**
 * ...nor more than this many tokens (chars / 4), whatever the window: on a large window six units
 * can hold two whole stages of work, which every commit then rewrites (docs/policy.md, "The fresh
 * tail's cap").
 */
export const FRESH_TAIL_MAX_TOKENS = 20_000;
/** ...but always keeps at least this many newest units, however small the window. */
export const FRESH_TAIL_MIN_UNITS = 2;
/** Pi's built-in read-only tools: the default `readOnlyTools`. */
export const DEFAULT_READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "grep", "find", "ls"]);

/**
 * Index of the first unit of the fresh tail. The tail is the newest FRESH_TAIL_UNITS units, shrunk
 * (never below FRESH_TAIL_MIN_UNITS) while it would hold more than FRESH_TAIL_MAX_BUDGET_SHARE of
 * `budgetTokens` or more than FRESH_TAIL_MAX_TOKENS, so it shrinks proportionally on small windows
 * and stays the same size on large ones. The user unit that opened the running turn (the last user
 * unit) is also inside the protected range.
 */
export function freshTailStart(units: readonly Unit[], budgetTokens: number): number {
	let start = Math.max(0, units.length - FRESH_TAIL_UNITS);
	const limitChars = Math.min(budgetTokens * FRESH_TAIL_MAX_BUDGET_SHARE, FRESH_TAIL_MAX_TOKENS) * 4;
	let chars = 0;
	for (let u = start; u < units.length; u++) chars += (units[u] as Unit).chars;
	while (units.length - start > FRESH_TAIL_MIN_UNITS && chars > limitChars) {
		chars -= (units[start] as Unit).chars;
		start++;
	}
	return start;
}

/** Index of the user unit that opened the running turn, or -1 when there is none. */
export function runningTurnStart(units: readonly Unit[]): number {
	for (let u = units.length - 1; u >= 0; u--) if ((units[u] as Unit).kind === "user") return u;
	return -1;
}

/** A completed tool batch whose every call is to a read-only tool. */
export function isReadOnlyBatch(unit: Unit, readOnlyTools: ReadonlySet<string>): boolean {
	return unit.kind === "toolBatch" && unit.complete && unit.toolNames.every((name) => readOnlyTools.has(name));
}
