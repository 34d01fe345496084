// A correct output budget after a commit. pi-ai sizes each request's output (`max_tokens`) from the
// window less its estimate of the prompt, and that estimate starts from the last assistant message's
// reported usage unless a message with a NEWER timestamp precedes that assistant message (its
// "usage describes an older prefix" rule, meant for compaction summaries). A `context_edit` keeps
// the edited messages' timestamps, and a commit receipt lands AFTER the last assistant message, so
// right after a commit pi-ai would trust the pre-fold usage and clamp the output to what the
// unfolded window left (measured: `max_tokens` 1 to a few hundred at a 32k window).
//
// The fix applies Pi's own rule (its `getContextUsage` trusts no usage captured before the latest
// `context_edit` or compaction on the branch) to the request pi-ai sees: in the
// `context_with_system` hook, the leading system message's timestamp is raised to the time of the
// latest edit or compaction. Every assistant message answered before that edit then no longer
// describes the prefix, so pi-ai estimates the prompt from the messages themselves until the next
// response reports a fresh usage. Only that copy of the request changes (Pi clones the messages for
// every request); a system message's timestamp never reaches a provider (pi-ai sends its text), so
// no byte of any request body changes, and pi-fold's observer (which runs after this handler) leaves
// the timestamp out of the system message's digest.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { notifierFor } from "./notify.ts";

type Branch = ReturnType<ExtensionContext["sessionManager"]["getBranch"]>;

/** Milliseconds of the latest `context_edit` or compaction on the branch, or null when there is none. */
export function latestRewriteTime(branch: Branch): number | null {
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i];
		if (entry?.type !== "context_edit" && entry?.type !== "compaction") continue;
		const ms = Date.parse(entry.timestamp);
		return Number.isFinite(ms) ? ms : null;
	}
	return null;
}

/**
 * Raises the first message's timestamp to `since` (in place) so no usage reported before `since`
 * describes the prompt; returns whether it changed anything. The first message of a Pi request is
 * its leading system message (else the user's, or a compaction summary), never an assistant's.
 */
export function distrustUsageBefore(messages: readonly unknown[], since: number): boolean {
	const first = messages[0] as { role?: unknown; timestamp?: unknown } | undefined;
	if (!first || first.role === "assistant" || typeof first.timestamp !== "number") return false;
	if (first.timestamp >= since) return false;
	first.timestamp = since;
	return true;
}

/**
 * Registers the `context_with_system` handler that keeps pi-ai from trusting pre-commit usage;
 * `rewriteTime` reads the latest edit's or compaction's time (default: from the whole branch).
 */
export function registerOutputBudget(
	pi: ExtensionAPI,
	rewriteTime: (ctx: ExtensionContext) => number | null = (ctx) => latestRewriteTime(ctx.sessionManager.getBranch()),
): void {
	pi.on("context_with_system", (event, ctx) => {
		try {
			const since = rewriteTime(ctx);
			if (since !== null) distrustUsageBefore(event.messages, since);
		} catch (error) {
			// Only the output estimate is at stake; the request goes out as Pi built it.
			notifierFor(ctx)(`context_with_system (output budget) failed: ${errorMessage(error)}`, "error");
		}
		return undefined;
	});
}
