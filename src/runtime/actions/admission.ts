// Admission control on peek and expand: what either brings back lands in the window as raw tokens,
// so it must fit below the quiet line (QUIET_OCCUPANCY of the serving budget, in pi-fold's calibrated
// estimate) together with what the window holds now. An expand that would not fit is refused with
// the numbers and the narrower reads that would (a peek slice, a nested fold); a person's expand is
// decided and refused in the figures /context shows (Pi's tokens, pi-fold's limit); a peek asking for more
// than fits is trimmed to what does, saying so, and continues from where it stopped. Nothing here
// records or edits anything.

import { buildSnapshot, QUIET_OCCUPANCY, type Snapshot, windowTokens } from "../../policy/index.ts";
import type { ActionInput } from "./shared.ts";

/** A peek always gets at least this many bytes, whatever the room (the boundary folds around it). */
export const PEEK_MIN_BYTES = 2_000;

/** Bytes per estimated token for a peek's JSON-lines text (the estimator's ratio on source text). */
const BYTES_PER_TOKEN = 4;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Estimated tokens that may still land in the window before it reaches the quiet line (never below 0). */
export function roomTokens(input: ActionInput, snap: Snapshot): { room: number; window: number; line: number } {
	const line = QUIET_OCCUPANCY * input.runtime.estimatedBudget(input.host);
	const window = input.runtime.windowEstimate(input.host, snap);
	return { room: Math.max(0, line - window), window, line };
}

/** Why expanding `foldId` would not fit, or null when it does. */
export function expandRefusal(input: ActionInput, snap: Snapshot, foldId: string): string | null {
	const opened = buildSnapshot(
		snap.view,
		{ ...snap.state, expanded: new Set([...snap.state.expanded, foldId]) },
		snap.known,
		snap.budget,
	);
	const growth = windowTokens(opened).total - windowTokens(snap).total;
	const usage = input.actor === "human" ? input.host.contextUsage?.() : undefined;
	if (usage && usage.tokens !== null) return personRefusal(input, snap, foldId, growth, usage.tokens);
	const { room, window, line } = roomTokens(input, snap);
	if (growth <= room) return null;
	return `it would bring back ~${fmt(growth)} tokens, and the window (~${fmt(window)} now) has room for ~${fmt(room)} below ${Math.round(QUIET_OCCUPANCY * 100)}% of the serving budget (~${fmt(line)}); peek a slice of it (offset, bytes) or expand one of its nested folds instead`;
}

/**
 * The refusal a person reads, decided and said in the figures `/context` shows: Pi's tokens in the
 * window (its footer's), pi-fold's limit, and what the expand brings back in Pi's tokens (pi-fold's
 * estimate over the calibration). Null when it fits. Names the slash command that reads a part.
 */
function personRefusal(
	input: ActionInput,
	snap: Snapshot,
	foldId: string,
	growth: number,
	used: number,
): string | null {
	const limit = snap.budget.budgetTokens;
	const line = QUIET_OCCUPANCY * limit;
	const back = growth * input.runtime.calibration.rate;
	const room = Math.max(0, line - used);
	if (back <= room) return null;
	const pct = Math.round(QUIET_OCCUPANCY * 100);
	const full = room === 0 ? "has no room left below that" : `has room for about ${fmt(room)} more`;
	const { fold, status } = input.runtime.options.commandNames;
	const nested = snap.lattice.get(foldId)?.children.some((c) => c.type === "fold")
		? `, or expand one of the folds inside it (/${status} tree lists them)`
		: "";
	return `it would bring back about ${fmt(back)} tokens. An expand may fill the window to ${pct}% of pi-fold's limit (${fmt(line)} of ${fmt(limit)} tokens); it holds ${fmt(used)} now, as in Pi's footer, and ${full}. Read it a part at a time instead: /${fold} peek ${foldId}${nested}`;
}

/** The bytes a peek may return: what was asked, or less when the window has no room for it. */
export function admittedPeekBytes(input: ActionInput, snap: Snapshot, want: number): number {
	const { room } = roomTokens(input, snap);
	return Math.min(want, Math.max(PEEK_MIN_BYTES, Math.floor(room * BYTES_PER_TOKEN)));
}
