// Admission control on peek and expand: what either brings back lands in the window as raw tokens,
// so it must fit below the quiet line (QUIET_OCCUPANCY of the serving budget, in pi-fold's calibrated
// estimate) together with what the window holds now. An expand that would not fit is refused with
// the numbers and the narrower reads that would (a peek slice, a nested fold); a peek asking for more
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
	const { room, window, line } = roomTokens(input, snap);
	if (growth <= room) return null;
	return `it would bring back ~${fmt(growth)} tokens, and the window (~${fmt(window)} now) has room for ~${fmt(room)} below ${Math.round(QUIET_OCCUPANCY * 100)}% of the serving budget (~${fmt(line)}); peek a slice of it (offset, bytes) or expand one of its nested folds instead`;
}

/** The bytes a peek may return: what was asked, or less when the window has no room for it. */
export function admittedPeekBytes(input: ActionInput, snap: Snapshot, want: number): number {
	const { room } = roomTokens(input, snap);
	return Math.min(want, Math.max(PEEK_MIN_BYTES, Math.floor(room * BYTES_PER_TOKEN)));
}
