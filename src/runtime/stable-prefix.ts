// The stable prefix of the window: the entries no commit in sight can change. The next commit's
// first change is at or after the first entry that any of these could touch: a decision already
// recorded but not yet in the window (an immediate fold, an expand, a rebrief: the edits the state
// implies that differ from the edits in force), a pending mark (epoch scheduling), a proposal of a
// ladder rung, or the fresh tail, whose units are the next to go stale. The rungs are asked as the
// next commit may find them, not only as they stand: a closed chapter is counted while still in the
// fresh tail (it becomes a proposal as it ages out), and consolidation as under pressure (the window
// grows toward the commit). A host places a prompt-cache breakpoint right before that entry
// (src/pi/anthropic-cache.ts), so the prefix before a commit's first change is still read from cache
// after it. What the agent or the human decides later (a fold or expand of an older span, a new
// mark) cannot be foreseen; such a commit rewrites from where it changes, as any rewrite would.
// Pure over the snapshot.

import type { ResolvedOptions } from "../options/index.ts";
import {
	CONSOLIDATE_OCCUPANCY,
	chapterProposals,
	consolidationProposals,
	ladderInput,
	pendingEditFrom,
	type Snapshot,
	spanOf,
	toolProposals,
	windowTokens,
} from "../policy/index.ts";

/** Where the stable prefix ends, and what could touch the entry after it. */
export interface StablePrefix {
	/** The first transcript entry the next commit could change; null when the transcript is empty. */
	readonly firstTouchable: string | null;
	/** Its index in the transcript (the transcript's length when null). */
	readonly index: number;
	/** What could touch it: "decision", "mark", "tools", "chapter", "consolidation", "fresh tail" ("end": nothing). */
	readonly by: string;
}

/** The stable prefix of `snap`: where the first entry the next commit could change sits. */
export function stablePrefix(snap: Snapshot, options: ResolvedOptions): StablePrefix {
	const entries = snap.view.transcript;
	const candidates: [number, string][] = [[pendingEditFrom(snap, options) ?? entries.length, "decision"]];
	for (const mark of snap.state.pendingMarks.values()) {
		const span = spanOf(snap, mark.fold.leafIds);
		if (span) candidates.push([span.start, "mark"]);
	}
	const tokens = windowTokens(snap);
	const pressure = Math.max(CONSOLIDATE_OCCUPANCY, tokens.total / snap.budget.budgetTokens);
	const input = ladderInput(snap, options, tokens, pressure);
	const aged = { ...input, freshStartUnit: snap.units.length };
	for (const p of [...toolProposals(input), ...chapterProposals(aged), ...consolidationProposals(input)])
		candidates.push([p.start, p.rung]);
	candidates.push([snap.units[snap.freshUnit]?.start ?? entries.length, "fresh tail"]);
	let best: [number, string] = [entries.length, "end"];
	for (const c of candidates) if (c[0] < best[0]) best = c;
	const [index, by] = best;
	return { firstTouchable: entries[index]?.id ?? null, index, by };
}
