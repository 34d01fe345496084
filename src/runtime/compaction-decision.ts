// Living beside the host's native compaction: never a request over the window because pi-fold held
// the host back. A `threshold` compaction is cancelled only when pi-fold's own commit for the request
// about to go succeeded and brings it within the serving budget: automatic folding is not paused (no
// refused record, no human hold, a writable fold store), the last boundary did not fail, the request
// as it stands now (the transcript as the edits in force show it, and the system prompt, counted as
// the provider counts: the session meter's calibration) fits the budget of the model in force now (a
// switch to a smaller model, or a resume on one, shrinks it), and the ladder, pending marks or the
// rescue could free room at the next boundary. Otherwise it passes, and the human is told in one line
// why. A `manual` /compact passes; an `overflow` passes too, because cancelling it fails the turn:
// the host compacts as the last resort and the human is told out of band. Pure over a snapshot; the
// runtime records each decision and the adapter returns it to the host.

import {
	chapterProposals,
	consolidationProposals,
	type LadderOptions,
	ladderInput,
	markViews,
	rescueProposals,
	type ServingBudget,
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

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** What the decision reads besides the snapshot: the ladder's options, the brand, why folding is paused. */
export interface CompactionInputs extends LadderOptions {
	readonly brandNoun: string;
	/** Why automatic folding is paused (refused records, the human's hold, an unwritable store), or null. */
	readonly paused: string | null;
	/** Why the last boundary's commit failed, or null (it succeeded, or none ran yet). */
	readonly boundaryFailed: string | null;
	/** The request as it would go now, in the provider's tokens, and the serving budget of the model in force. */
	readonly request: { readonly tokens: number; readonly budget: ServingBudget };
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
	if (options.boundaryFailed !== null)
		return runs(`${options.brandNoun}'s last commit failed (${options.boundaryFailed})`);
	const { tokens, budget } = options.request;
	// The request goes before the next boundary: only what is folded already can keep it under the budget.
	if (tokens > budget.budgetTokens)
		return runs(
			`the request of ~${fmt(tokens)} tokens is over the serving budget of ${fmt(budget.budgetTokens)} (window ${fmt(budget.totalWindow)} less ${fmt(budget.outputReservation)} kept for the reply)`,
		);
	const { reclaimable } = foldRoom(snap, options);
	if (reclaimable <= 0) return runs(`${options.brandNoun} has nothing it could fold losslessly`);
	return {
		reason,
		decision: "cancelled",
		why: `${options.brandNoun} keeps the window inside its band: ${snap.state.folds.size} fold(s) in force, ~${fmt(reclaimable)} tokens reclaimable at the next commit; the request of ~${fmt(tokens)} tokens fits the serving budget of ${fmt(budget.budgetTokens)}`,
	};
}
