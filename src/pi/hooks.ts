// pi-fold's Pi hooks, in three groups: the session (session_start / session_tree rebuild from the
// branch), each request (context_with_system: the fence, then the window observer; message_end:
// usage; before_provider_request: the Anthropic breakpoint, then the wire observer), and native
// compaction (session_before_compact, which also keeps pi-fold's text from reading as the user's in
// Pi's summary). The boundaries (turn_end / agent_before_settle) are
// boundary-hooks.ts's. Every handler catches its own errors and reports them with the event name (out of
// band), so a failure never kills the host.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { registerAnthropicCache } from "./anthropic-cache.ts";
import { latestRewriteTime } from "./branch.ts";
import { unattributeForSummary } from "./compaction-input.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";
import { registerOutputBudget } from "./output-budget.ts";
import { registerWireObserver } from "./wire-observer.ts";

/** `handler` with its errors caught and reported out of band, naming `event`. */
export function guard<E, R>(
	event: string,
	handler: (event: E, ctx: ExtensionContext) => Promise<R> | R,
): (event: E, ctx: ExtensionContext) => Promise<R | undefined> {
	return async (e, ctx) => {
		try {
			return await handler(e, ctx);
		} catch (error) {
			try {
				notifierFor(ctx)(`${event} failed: ${errorMessage(error)}`, "error");
			} catch {
				// A stale context cannot report; the host must still live.
			}
			return undefined;
		}
	};
}

/** session_start (every reason) and session_tree: rebuild everything from the branch. */
function sessionHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	pi.on(
		"session_start",
		guard("session_start", (e, ctx) => runtime.rebuild(fold.host(ctx), `since session ${e.reason}`)),
	);
	pi.on(
		"session_tree",
		guard("session_tree", (_e, ctx) => runtime.rebuild(fold.host(ctx), "since the last /tree navigation")),
	);
}

/**
 * context_with_system (the request as the provider is sent it: the system head with the prompt and
 * the tool schemas, then every message; after pi-fold's own output-budget edit): the fence, then
 * the window observer; message_end: the provider's usage.
 */
function requestHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	pi.on(
		"context_with_system",
		guard("context_with_system", (event, ctx) => {
			const host = fold.host(ctx);
			const { verdict } = runtime.request(host, event.messages);
			if (verdict.abort) ctx.abort();
			if (verdict.message)
				runtime.notifyOnce(
					host,
					`fence:${verdict.abort}`,
					`${runtime.options.brandNoun}: ${verdict.message}`,
					verdict.abort ? "error" : "warning",
				);
			return undefined;
		}),
	);
	pi.on(
		"message_end",
		guard("message_end", (event) => {
			const message = event.message as {
				role?: string;
				usage?: { input: number; cacheRead: number; cacheWrite: number };
			};
			if (message.role === "assistant" && message.usage) runtime.recordUsage(message.usage);
			return undefined;
		}),
	);
}

/**
 * session_before_compact: beside native compaction. A compaction that goes ahead summarizes none of
 * pi-fold's text as the user's (compaction-input.ts edits the preparation Pi summarizes next).
 */
function compactionHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	pi.on(
		"session_before_compact",
		guard("session_before_compact", (e, ctx) => {
			if (runtime.compaction(fold.host(ctx), e.reason).decision === "cancelled") return { cancel: true as const };
			unattributeForSummary(e.preparation, runtime.options, runtime.receiptType);
			return undefined;
		}),
	);
}

/** Registers every hook pi-fold needs on `pi`. */
export function registerHooks(pi: ExtensionAPI, fold: PiFold): void {
	sessionHooks(pi, fold);
	// The output budget's edit of the request comes before the observer reads it.
	registerOutputBudget(pi, (ctx) =>
		latestRewriteTime(ctx.sessionManager, fold.runtime.names.decisionEntryType, fold.runtime.receiptType),
	);
	requestHooks(pi, fold);
	compactionHooks(pi, fold);
	registerAnthropicCache(pi, fold);
	// After every body edit of pi-fold's: it observes the body as it leaves.
	registerWireObserver(pi, fold);
}
