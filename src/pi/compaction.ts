// Living beside Pi's native compaction (`session_before_compact`): a `threshold` compaction is
// cancelled with a reason when pi-fold can keep the window inside its band (it has folds in force
// or the ladder or pending marks could free room at the next boundary, and the window less that
// room fits the serving budget); a `manual` /compact passes;
// an `overflow` passes too, because cancelling it fails the turn: Pi compacts as the last resort and
// the human is told out of band. Each decision is kept for status.

import type { ExtensionContext, SessionBeforeCompactEvent } from "@earendil-works/pi-coding-agent";
import { chapterProposals, consolidationProposals, toolProposals } from "../policy/index.ts";
import { ladderInput, markViews, windowTokens } from "./ladder-input.ts";
import { type FoldRuntime, notifierFor } from "./runtime.ts";

/** The window's estimated tokens now, and what pi-fold could still free at the next boundary. */
export function foldRoom(runtime: FoldRuntime, ctx: ExtensionContext): { window: number; reclaimable: number } {
	const snap = runtime.snapshot(ctx);
	const tokens = windowTokens(snap);
	const input = ladderInput(snap, runtime.options, tokens, tokens.total / snap.budget.budgetTokens);
	const ladder = [...toolProposals(input), ...chapterProposals(input), ...consolidationProposals(input)];
	const marks = markViews(snap, tokens).filter((m) => m.protectedBy === null);
	return { window: tokens.total, reclaimable: [...ladder, ...marks].reduce((sum, p) => sum + p.freedTokens, 0) };
}

export function beforeCompact(
	runtime: FoldRuntime,
	event: Pick<SessionBeforeCompactEvent, "reason">,
	ctx: ExtensionContext,
): { cancel: true } | undefined {
	const note = (decision: "cancelled" | "passed", why: string) =>
		runtime.compactions.push({ reason: event.reason, decision, why });
	if (event.reason === "manual") {
		note("passed", "a manual /compact is the human's call");
		return undefined;
	}
	if (event.reason === "overflow") {
		note("passed", "the provider overflowed; Pi compacts as the last resort so the turn completes");
		notifierFor(ctx)(
			`${runtime.options.brandNoun}: the request overflowed the provider window; letting Pi's native compaction run as the last resort (its summary discards the originals; folded sources stay in the fold store)`,
			"warning",
		);
		return undefined;
	}
	const snap = runtime.snapshot(ctx);
	const { window, reclaimable } = foldRoom(runtime, ctx);
	const fits = window - reclaimable <= snap.budget.budgetTokens;
	if ((reclaimable > 0 || snap.state.folds.size > 0) && fits) {
		const why = `${runtime.options.brandNoun} keeps the window inside its band: ${snap.state.folds.size} fold(s) in force, ~${reclaimable.toLocaleString("en-US")} tokens reclaimable at the next commit`;
		note("cancelled", why);
		return { cancel: true };
	}
	note(
		"passed",
		fits
			? "nothing pi-fold could fold losslessly; Pi's threshold compaction runs"
			: `pi-fold cannot bring ~${window.toLocaleString("en-US")} tokens under the serving budget (~${reclaimable.toLocaleString("en-US")} reclaimable); Pi's threshold compaction runs`,
	);
	return undefined;
}
