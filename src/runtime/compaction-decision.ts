// Living beside the host's native compaction: a `threshold` compaction is cancelled with a reason
// only when pi-fold can keep the window inside its band: automatic folding is not paused, the
// ladder, pending marks or the rescue could free room at the next boundary, and the window less
// that room fits the serving budget. Otherwise it passes, and the human is told in one line why
// (paused, nothing foldable, or too little to free): cancelling it then would let the window grow
// until the provider refuses a request. A `manual` /compact passes; an `overflow` passes too,
// because cancelling it fails the turn: the host compacts as the last resort and the human is told
// out of band. Pure over a snapshot; the runtime records each decision and the adapter returns it
// to the host.

import {
	chapterProposals,
	consolidationProposals,
	type LadderOptions,
	ladderInput,
	markViews,
	rescueProposals,
	type Snapshot,
	toolProposals,
	windowTokens,
} from "../policy/index.ts";
import type { CompactionNote } from "./telemetry.ts";

/** The window's estimated tokens now, and what pi-fold could still free at the next boundary. */
function foldRoom(snap: Snapshot, options: LadderOptions): { window: number; reclaimable: number } {
	const tokens = windowTokens(snap);
	const input = ladderInput(snap, options, tokens, tokens.total / snap.budget.budgetTokens);
	const ladder = [...toolProposals(input), ...chapterProposals(input), ...consolidationProposals(input)];
	const marks = markViews(snap, tokens).filter((m) => m.protectedBy === null);
	const ordinary = [...ladder, ...marks].reduce((sum, p) => sum + p.freedTokens, 0);
	// The rescue (every stale unit folded) is what the next boundary can still do under pressure.
	const rescue = rescueProposals(snap, tokens).reduce((sum, p) => sum + p.freedTokens, 0);
	return { window: tokens.total, reclaimable: Math.max(ordinary, rescue) };
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** What the decision reads besides the snapshot: the ladder's options, the brand, why folding is paused. */
interface CompactionInputs extends LadderOptions {
	readonly brandNoun: string;
	/** Why automatic folding is paused (refused decision records), or null: paused, nothing commits. */
	readonly paused: string | null;
}

/** Whether pi-fold cancels a native compaction of `reason`, and why; `notice` is told to the human. */
export function compactionDecision(
	reason: string,
	snap: Snapshot,
	options: CompactionInputs,
): CompactionNote & { readonly notice?: string } {
	if (reason === "manual") return { reason, decision: "passed", why: "a manual /compact is the human's call" };
	if (reason === "overflow")
		return {
			reason,
			decision: "passed",
			why: "the provider overflowed; Pi compacts as the last resort so the turn completes",
			notice: `${options.brandNoun}: the request overflowed the provider window; letting Pi's native compaction run as the last resort (its summary discards the originals; folded sources stay in the fold store)`,
		};
	const runs = (why: string) => ({
		reason,
		decision: "passed" as const,
		why,
		notice: `${options.brandNoun}: Pi's compaction runs because ${why}; folds made before it stay readable (peek, search)`,
	});
	// Paused, no commit lands (the ladder and the rescue make none): cancelling would only let the window grow.
	if (options.paused !== null)
		return runs(`${options.paused.replace(/^automatic folding paused: /, "automatic folding is paused: ")}`);
	const { window, reclaimable } = foldRoom(snap, options);
	if (reclaimable <= 0) return runs(`${options.brandNoun} has nothing it could fold losslessly`);
	if (window - reclaimable > snap.budget.budgetTokens)
		return runs(
			`${options.brandNoun} cannot bring ~${fmt(window)} tokens under the serving budget (~${fmt(reclaimable)} reclaimable)`,
		);
	return {
		reason,
		decision: "cancelled",
		why: `${options.brandNoun} keeps the window inside its band: ${snap.state.folds.size} fold(s) in force, ~${fmt(reclaimable)} tokens reclaimable at the next commit`,
	};
}
