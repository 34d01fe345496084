// Cost scheduling's span rung: the stale units no other rung folds (the assistant's notes and
// decisions and the results of tools that are not read-only) fold as span folds, once the
// window holds at least SPAN_MIN_OCCUPANCY of the serving budget (SPAN_ALONE_MIN_OCCUPANCY when no
// other rung has anything to fold at the boundary). Each maximal run of such units
// below the keep-raw floor becomes one span (the rescue's spans, src/policy rescue.ts), absorbing the
// tool-batch folds inside it but never an older span (spans sit side by side; consolidation keeps
// their number down), so the window keeps a few briefs for the old conversation instead of a raw
// residue that grows with the session. The user's own messages stay raw and split the runs: only a
// commit the budget forces (the rescue) folds them. Units another rung proposes to fold, what the agent chose to
// see and still holds (an expand, a recent peek or search), and units at or past the floor stay out. A span's brief is always written (the Pi adapter asks the summarizer): it stands for
// what the conversation said, which a deterministic brief cannot. Pure.

import { SPAN_ALONE_MIN_OCCUPANCY, SPAN_MIN_OCCUPANCY } from "./constants.ts";
import type { Proposal } from "./ladder.ts";
import type { WindowTokens } from "./ladder-input.ts";
import { rescueProposals } from "./rescue.ts";
import type { Snapshot } from "./snapshot.ts";

/**
 * The span rung's proposals over `snap`, whose `freshUnit` is the keep-raw floor: none below
 * SPAN_MIN_OCCUPANCY (SPAN_ALONE_MIN_OCCUPANCY when `alone`: no other rung has anything to fold at
 * this boundary), none over a unit one of `others` (the other rungs' proposals) covers, and none over
 * what the agent chose to see and still holds (`kept`, per unit: src/policy kept-raw.ts).
 */
export function spanProposals(
	snap: Snapshot,
	tokens: WindowTokens,
	occupancy: number,
	others: readonly Proposal[],
	kept: readonly boolean[],
	alone = false,
): Proposal[] {
	if (occupancy < (alone ? SPAN_ALONE_MIN_OCCUPANCY : SPAN_MIN_OCCUPANCY)) return [];
	const taken = (start: number, end: number) => others.some((p) => p.start < end && start < p.end);
	return rescueProposals(
		snap,
		tokens,
		Number.POSITIVE_INFINITY,
		(unit) =>
			unit.index >= snap.freshUnit || unit.kind === "user" || kept[unit.index] === true || taken(unit.start, unit.end),
		others,
	).map((p) => ({ ...p, rung: "span" as const }));
}
