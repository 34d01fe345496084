// What the human sees of folding while Pi runs: a one-line notice when a commit lands (what was
// folded, the tokens it freed, the cost arithmetic once the telemetry carries it, and how many of
// its model-written briefs were refused or failed and replaced by pi-fold's own) and a compact
// footer item through Pi's status API (the top-level folds, counted as /context counts them, those Pi's compaction summarized among them, and marks; the window's percentage is Pi's own footer's). Both only
// where Pi has a UI (`ctx.hasUI`: the TUI, and RPC clients, which receive them as they receive any
// extension's notify and setStatus); print and JSON modes get nothing. The boundary notice is a
// follower of pi-fold's boundary handler (boundary-hooks.ts), so it reads the drafts that handler returns.
// Never throws into Pi.

import type { ExtensionAPI, ExtensionContext, SessionBoundaryDraft } from "@earendil-works/pi-coding-agent";
import {
	type CommitBody,
	type CommitNote,
	commitFacts,
	commitNotice,
	foldCounts,
	foldForest,
	footerText,
	sourcePresence,
} from "../runtime/index.ts";
import type { BoundaryFollower } from "./boundary-hooks.ts";
import type { PiFold } from "./host.ts";

/** The key of pi-fold's item in Pi's footer (Pi sorts extension statuses by key). */
export const STATUS_KEY = "pi-fold";

/** Refreshes pi-fold's footer item (no UI: nothing). */
export function refreshFooter(fold: PiFold, ctx: ExtensionContext): void {
	if (!ctx.hasUI) return;
	const host = fold.host(ctx);
	const state = fold.runtime.sync(host);
	// The folds counted as /context's headline counts them (fold-forest.ts); without folds, no snapshot is built.
	const counts =
		state.folds.size > 0
			? foldCounts(foldForest(fold.runtime.snapshot(host), sourcePresence(fold.runtime.store(host))), state.expanded)
			: null;
	ctx.ui.setStatus(STATUS_KEY, footerText(counts, state.pendingMarks.size));
}

/** The commit record among a boundary's drafts (pi-fold's own, `seq`), if any. */
function commitBodyOf(entries: readonly SessionBoundaryDraft[], decisionType: string, seq: number) {
	for (const entry of entries) {
		const e = entry as { type?: string; customType?: string; data?: { kind?: string; seq?: number } };
		if (e.type === "custom" && e.customType === decisionType && e.data?.kind === "commit" && e.data.seq === seq)
			return e.data as unknown as CommitBody;
	}
	return undefined;
}

/** Registers the footer's refreshes; returns the boundary follower that tells the human of a commit. */
export function registerNotices(pi: ExtensionAPI, fold: PiFold): BoundaryFollower {
	const { runtime } = fold;
	let told: CommitNote | null = null;
	// Model briefs not used (refused or failed) up to the last commit told: the next commit's notice says how many since.
	let toldFallbacks = 0;
	const safely =
		<E>(handler: (event: E, ctx: ExtensionContext) => void) =>
		(event: E, ctx: ExtensionContext) => {
			try {
				handler(event, ctx);
			} catch {
				// A notice is a courtesy: it must never disturb the session.
			}
			return undefined;
		};
	const afterBoundary = (entries: readonly SessionBoundaryDraft[], ctx: ExtensionContext) => {
		const note = runtime.telemetry.view().commit;
		if (note && note !== told) {
			told = note;
			if (ctx.hasUI) {
				const host = fold.host(ctx);
				const body = commitBodyOf(entries, runtime.names.decisionEntryType, note.seq);
				const facts = commitFacts(note, runtime.snapshot(host), body, runtime.pricesAssumed(host));
				const view = runtime.telemetry.view();
				const briefsReplaced = { count: view.briefs.fallbacks - toldFallbacks, reason: view.briefFallback };
				ctx.ui.notify(commitNotice({ ...facts, briefsReplaced }, runtime.options.commandNames.status), "info");
			}
			toldFallbacks = runtime.telemetry.view().briefs.fallbacks;
		}
		refreshFooter(fold, ctx);
	};
	const footer = safely((_event: unknown, ctx: ExtensionContext) => refreshFooter(fold, ctx));
	pi.on("message_end", footer);
	pi.on("session_start", footer);
	pi.on("session_tree", footer);
	return afterBoundary;
}
