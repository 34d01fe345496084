// pi-fold's boundary hooks: ONE handler for `turn_end` and one for `agent_before_settle`, each doing
// the scheduler-gated commit (the runtime's drafts chained after earlier handlers') and then, in
// order, what else pi-fold does at a boundary (the integrations remember the context; the human's
// notice and footer). One handler, not one per concern, because Pi (1.6) rebuilds the boundary's
// preview after EVERY handler of the event, re-applying every draft proposed so far, and each
// `context_edit` it applies walks the whole branch (`SessionManager.appendContextEdit` checks the
// target with `getBranch()`): each extra handler after a large fold cost as much as the commit itself
// (docs/runtime.md, "Large folds"). The `turn_end` handler is registered only for a turn whose
// boundary may commit (turn-end-forecast.ts), and again as soon as a decision is recorded; the
// followers of a boundary it skips run when it is skipped.

import type { ExtensionAPI, ExtensionContext, SessionBoundaryDraft } from "@earendil-works/pi-coding-agent";
import { requestMessageTokens } from "../policy/index.ts";
import type { BoundaryDraft, BoundaryKind } from "../runtime/index.ts";
import { projectionTokens } from "./branch.ts";
import { guard } from "./hooks.ts";
import type { PiFold } from "./host.ts";
import { type BoundaryAudit, registerTurnEndForecast } from "./turn-end-forecast.ts";

/** What runs after the commit at a boundary, with the boundary's drafts (earlier handlers' and ours). */
export type BoundaryFollower = (entries: readonly SessionBoundaryDraft[], ctx: ExtensionContext) => void;

/**
 * The runtime's drafts as Pi's boundary drafts. The only conversion between the two: replacement
 * content is always a message content pi-fold read from Pi's own entries (or a placeholder string).
 */
function toPiDrafts(drafts: readonly BoundaryDraft[]): SessionBoundaryDraft[] {
	return drafts as unknown as SessionBoundaryDraft[];
}

/** Runs each follower, none of which may disturb the boundary. */
function follow(
	followers: readonly BoundaryFollower[],
	entries: readonly SessionBoundaryDraft[],
	ctx: ExtensionContext,
) {
	for (const follower of followers) {
		try {
			follower(entries, ctx);
		} catch {
			// A follower is a courtesy (a notice, a remembered context): it must never drop the commit.
		}
	}
}

/**
 * Registers pi-fold's one `turn_end` handler (only for a turn whose boundary may commit:
 * turn-end-forecast.ts; always, with `audit`) and one `agent_before_settle` handler; `followers` run
 * after the commit, and at a boundary skipped because it could not commit.
 */
export function registerBoundary(
	pi: ExtensionAPI,
	fold: PiFold,
	followers: readonly BoundaryFollower[],
	audit?: BoundaryAudit,
): void {
	const { runtime } = fold;
	const boundary = async (
		event: { entries: SessionBoundaryDraft[]; context?: { llmMessages?: unknown[] } },
		ctx: ExtensionContext,
		name: "turn_end" | "agent_before_settle",
		at: BoundaryKind | null,
	) => {
		const commit = guard(name, () =>
			at ? runtime.boundary(fold.host(ctx), at, event.context?.llmMessages) : undefined,
		);
		const drafts = await commit(undefined, ctx);
		const entries = drafts ? [...event.entries, ...toPiDrafts(drafts)] : event.entries;
		follow(followers, entries, ctx);
		return drafts ? { entries } : undefined;
	};
	let forecastOf: () => boolean | null = () => null;
	// An aborted turn commits nothing; its followers still run (the footer).
	const turnEnd = async (e: Parameters<typeof boundary>[0] & { outcome?: string }, ctx: ExtensionContext) => {
		const records = () => (audit ? fold.host(ctx).branchRecords().length : 0);
		const before = records();
		const result = await boundary(e, ctx, "turn_end", e.outcome === "aborted" ? null : "turn_end");
		if (audit) {
			const { names, receiptType } = runtime;
			audit({
				forecast: forecastOf(),
				committed: result !== undefined || records() !== before,
				previewTokens: requestMessageTokens(e.context?.llmMessages ?? []),
				trackedTokens: projectionTokens(ctx.sessionManager, names.decisionEntryType, receiptType),
			});
		}
		return result;
	};
	let off: (() => void) | null = null;
	const arm = (may: boolean, ctx: ExtensionContext) => {
		if (may || audit) {
			off ??= pi.on("turn_end", turnEnd);
			return;
		}
		if (!off) return;
		off();
		off = null;
		// The boundary skipped: its followers still run (nothing was drafted).
		follow(followers, [], ctx);
	};
	off = pi.on("turn_end", turnEnd);
	// A decision recorded after the forecast (the human's command while a tool runs) lands at this boundary.
	runtime.onDecision(() => {
		try {
			off ??= pi.on("turn_end", turnEnd);
		} catch {
			// An extension API no longer active (the session went away) has no boundary to come.
		}
	});
	forecastOf = registerTurnEndForecast(pi, fold, arm);
	pi.on("agent_before_settle", (e, ctx) => boundary(e, ctx, "agent_before_settle", "settle"));
}
