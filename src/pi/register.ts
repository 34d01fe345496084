// Wires pi-fold into Pi: resolves the options, creates the runtime, and registers the hooks
// (session_start / session_tree rebuild, context fences then observes, message_end records usage,
// turn_end / agent_before_settle commit through the scheduler, tool_call's opportunistic fold before
// a blocking tool, session_before_compact beside native compaction), the tool and the commands.
// Every handler catches its own errors and reports them with the event name (out of band), so a
// failure never kills the host. The runtime itself knows nothing of Pi: each call gets a host
// (host.ts) built from the event's context.

import type { ExtensionAPI, ExtensionContext, SessionBoundaryDraft } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { type PiFoldOptions, resolveOptions } from "../options/index.ts";
import { type BoundaryDraft, FoldRuntime, type Host, type SourceStore } from "../runtime/index.ts";
import { core } from "../wasm/index.ts";
import { registerCommands } from "./commands.ts";
import { piHost } from "./host.ts";
import { registerIntegrations } from "./integrations.ts";
import { notifierFor } from "./notify.ts";
import { briefWriterFor } from "./summarizer.ts";
import { registerTool } from "./tool.ts";

export interface RegisterExtras {
	/** Test seam: build the fold store for a directory (default: src/store's FoldStore). */
	readonly storeFactory?: (dir: string) => SourceStore;
	/** Test seam: the model-brief timeout in ms (default SUMMARY_TIMEOUT_MS). */
	readonly summaryTimeoutMs?: number;
}

/** What registerPiFold returns: the runtime, and its host for a Pi context (tests and hosts read status). */
export interface PiFold {
	readonly runtime: FoldRuntime;
	host(ctx: ExtensionContext): Host;
}

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

function registerHooks(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	const boundary = async (
		ctx: ExtensionContext,
		entries: SessionBoundaryDraft[],
		reason: string,
		preview?: unknown[],
	) => {
		const drafts = await runtime.boundary(fold.host(ctx), reason, preview);
		return drafts ? { entries: [...entries, ...toPiDrafts(drafts)] } : undefined;
	};
	pi.on(
		"session_start",
		guard("session_start", (e, ctx) => runtime.rebuild(fold.host(ctx), `since session ${e.reason}`)),
	);
	pi.on(
		"session_tree",
		guard("session_tree", (_e, ctx) => runtime.rebuild(fold.host(ctx), "since the last /tree navigation")),
	);
	pi.on(
		"context",
		guard("context", (event, ctx) => {
			// One digest per message serves both the fence's estimate cache and the window observer.
			const host = fold.host(ctx);
			const digests = runtime.telemetry.digests(event.messages);
			const verdict = runtime.fence(host, event.messages, digests);
			if (verdict.abort) {
				ctx.abort();
				host.notify(
					`${runtime.options.brandNoun} fence: ${verdict.message}; /compact (Pi's native compaction) can make room`,
					"error",
				);
				return undefined;
			}
			runtime.observe(host, event.messages, digests);
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
	pi.on(
		"turn_end",
		guard("turn_end", (e, ctx) =>
			e.outcome === "aborted"
				? undefined
				: boundary(ctx, e.entries, `turn ${e.turnIndex} boundary`, e.context?.llmMessages),
		),
	);
	pi.on(
		"agent_before_settle",
		guard("agent_before_settle", (e, ctx) => boundary(ctx, e.entries, "settle boundary", e.context?.llmMessages)),
	);
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

/** Registers pi-fold on `pi`; returns the runtime and its host accessor. */
export function registerPiFold(pi: ExtensionAPI, options?: PiFoldOptions, extras: RegisterExtras = {}): PiFold {
	const resolved = resolveOptions(options ?? {});
	core();
	const runtime = new FoldRuntime(resolved, extras.storeFactory);
	const writeBrief = briefWriterFor(runtime, extras.summaryTimeoutMs);
	const fold: PiFold = { runtime, host: (ctx) => piHost(pi, runtime, ctx, writeBrief) };
	registerHooks(pi, fold);
	registerTool(pi, fold);
	registerCommands(pi, fold);
	registerIntegrations(pi, fold);
	return fold;
}
