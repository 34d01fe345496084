// Wires pi-fold into Pi: resolves the options, creates the per-session runtime, and registers the
// hooks (session_start / session_tree rebuild, context fences then observes, message_end records
// usage, turn_end / agent_before_settle commit through the scheduler, tool_call's opportunistic fold
// before a blocking tool, session_before_compact beside native compaction), the tool and the
// commands. Every handler catches its own errors and reports them with the event name (out of
// band), so a failure never kills the host.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { core } from "../wasm/index.ts";
import { beforeBlockingCall } from "./blocking.ts";
import { registerCommands } from "./commands.ts";
import { beforeCompact } from "./compaction.ts";
import { fenceRequest } from "./fence.ts";
import { registerIntegrations } from "./integrations.ts";
import { type PiFoldOptions, resolveOptions } from "./options.ts";
import type { SourceStore } from "./ports.ts";
import { FoldRuntime, notifierFor } from "./runtime.ts";
import { briefWriterFor } from "./summarizer.ts";
import { registerTool } from "./tool.ts";

export interface RegisterExtras {
	/** Test seam: build the fold store for a directory (default: src/store's FoldStore). */
	readonly storeFactory?: (dir: string) => SourceStore;
	/** Test seam: the model-brief timeout in ms (default SUMMARY_TIMEOUT_MS). */
	readonly summaryTimeoutMs?: number;
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
				notifierFor(ctx)(`${event} failed: ${error instanceof Error ? error.message : String(error)}`, "error");
			} catch {
				// A stale context cannot report; the host must still live.
			}
			return undefined;
		}
	};
}

/** Registers pi-fold on `pi`; returns the runtime (tests and hosts may read its status). */
export function registerPiFold(pi: ExtensionAPI, options?: PiFoldOptions, extras: RegisterExtras = {}): FoldRuntime {
	const resolved = resolveOptions(options ?? {});
	core();
	const runtime = new FoldRuntime(pi, resolved, extras.storeFactory);
	runtime.briefWriter = briefWriterFor(runtime, extras.summaryTimeoutMs);

	pi.on(
		"session_start",
		guard("session_start", (event, ctx) => runtime.rebuild(ctx, `since session ${event.reason}`)),
	);
	pi.on(
		"session_tree",
		guard("session_tree", (_event, ctx) => runtime.rebuild(ctx, "since the last /tree navigation")),
	);
	pi.on(
		"context",
		guard("context", (event, ctx) => {
			// One digest per message serves both the fence (its per-message estimates are cached by
			// digest, so only new messages are estimated) and the window observer.
			const digests = runtime.observer.digests(event.messages);
			if (fenceRequest(runtime, ctx, event.messages, digests)) return undefined;
			runtime.observe(ctx, event.messages, digests);
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
		guard("turn_end", async (event, ctx) => {
			if (event.outcome === "aborted") return undefined;
			return (await runtime.commit(
				ctx,
				event.entries,
				`turn ${event.turnIndex} boundary`,
				event.context?.llmMessages,
			)) as never;
		}),
	);
	pi.on(
		"agent_before_settle",
		guard("agent_before_settle", async (event, ctx) => {
			return (await runtime.commit(ctx, event.entries, "settle boundary", event.context?.llmMessages)) as never;
		}),
	);
	pi.on(
		"tool_call",
		guard("tool_call", async (event, ctx) => {
			await beforeBlockingCall(runtime, ctx, event.toolName);
			return undefined;
		}),
	);
	pi.on(
		"session_before_compact",
		guard("session_before_compact", (event, ctx) => beforeCompact(runtime, event, ctx)),
	);
	registerTool(pi, runtime);
	registerCommands(pi, runtime);
	runtime.evidence = registerIntegrations(pi, runtime);
	return runtime;
}
