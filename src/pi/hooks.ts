// pi-fold's Pi hooks, in four groups: the session (session_start / session_tree rebuild from the
// branch), each request (context: the fence, then the window observer; message_end: usage), the
// boundaries (turn_end / agent_before_settle commit through the scheduler, nothing between commits),
// and tools (tool_call's opportunistic fold before a blocking tool; session_before_compact beside
// native compaction). Every handler catches its own errors and reports them with the event name
// (out of band), so a failure never kills the host.

import type { ExtensionAPI, ExtensionContext, SessionBoundaryDraft } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import type { BoundaryDraft, BoundaryKind } from "../runtime/index.ts";
import { registerAnthropicCache } from "./anthropic-cache.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";
import { registerOutputBudget } from "./output-budget.ts";

function guard<E, R>(
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

/**
 * The runtime's drafts as Pi's boundary drafts. The only conversion between the two: replacement
 * content is always a message content pi-fold read from Pi's own entries (or a placeholder string).
 */
function toPiDrafts(drafts: readonly BoundaryDraft[]): SessionBoundaryDraft[] {
	return drafts as unknown as SessionBoundaryDraft[];
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

/** context: the fence, then the window observer; message_end: the provider's usage. */
function requestHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	pi.on(
		"context",
		guard("context", (event, ctx) => {
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

/** turn_end and agent_before_settle: the scheduler-gated commit, whose drafts chain after earlier handlers'. */
function boundaryHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	const boundary = async (
		ctx: ExtensionContext,
		entries: SessionBoundaryDraft[],
		at: BoundaryKind,
		preview?: unknown[],
	) => {
		const drafts = await runtime.boundary(fold.host(ctx), at, preview);
		return drafts ? { entries: [...entries, ...toPiDrafts(drafts)] } : undefined;
	};
	pi.on(
		"turn_end",
		guard("turn_end", (e, ctx) =>
			e.outcome === "aborted" ? undefined : boundary(ctx, e.entries, "turn_end", e.context?.llmMessages),
		),
	);
	pi.on(
		"agent_before_settle",
		guard("agent_before_settle", (e, ctx) => boundary(ctx, e.entries, "settle", e.context?.llmMessages)),
	);
}

/** tool_call: one opportunistic fold before a blocking tool; session_before_compact: beside native compaction. */
function toolHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	pi.on(
		"tool_call",
		guard("tool_call", async (e, ctx) => {
			await runtime.beforeBlockingCall(fold.host(ctx), e.toolName);
			return undefined;
		}),
	);
	pi.on(
		"session_before_compact",
		guard("session_before_compact", (e, ctx) =>
			runtime.compaction(fold.host(ctx), e.reason).decision === "cancelled" ? { cancel: true as const } : undefined,
		),
	);
}

/** Registers every hook pi-fold needs on `pi`. */
export function registerHooks(pi: ExtensionAPI, fold: PiFold): void {
	sessionHooks(pi, fold);
	requestHooks(pi, fold);
	boundaryHooks(pi, fold);
	toolHooks(pi, fold);
	registerOutputBudget(pi);
	registerAnthropicCache(pi, fold);
}
