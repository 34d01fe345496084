// Wires pi-fold into Pi: resolves the options (callbacks contained: option-checks.ts), creates the
// runtime, and registers the hooks (hooks.ts), the tool (at session start, unless its name is
// taken), the checks of the options against the session, and the commands. The runtime itself knows
// nothing of Pi: each call gets a host (host.ts) built from the event's context.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { type PiFoldOptions, resolveOptions } from "../options/index.ts";
import { FoldRuntime, type SourceStore } from "../runtime/index.ts";
import { core } from "../wasm/index.ts";
import { registerCommands } from "./commands.ts";
import { registerHooks } from "./hooks.ts";
import { type PiFold, piHost } from "./host.ts";
import { registerIntegrations } from "./integrations.ts";
import { containCallbacks, OptionReporter, registerToolChecked, registerWindowCheck } from "./option-checks.ts";
import { briefWriterFor } from "./summarizer.ts";
import { registerTool } from "./tool.ts";

export interface RegisterExtras {
	/** Test seam: build the fold store for a directory (default: src/store's FoldStore). */
	readonly storeFactory?: (dir: string) => SourceStore;
	/** Test seam: the model-brief timeout in ms (default SUMMARY_TIMEOUT_MS). */
	readonly summaryTimeoutMs?: number;
}

/** Registers pi-fold on `pi`; returns the runtime and its host accessor. */
export function registerPiFold(pi: ExtensionAPI, options?: PiFoldOptions, extras: RegisterExtras = {}): PiFold {
	const reporter = new OptionReporter();
	const resolved = containCallbacks(resolveOptions(options ?? {}), reporter);
	core();
	const runtime = new FoldRuntime(resolved, extras.storeFactory);
	const writeBrief = briefWriterFor(runtime, extras.summaryTimeoutMs);
	const fold: PiFold = { runtime, host: (ctx) => piHost(pi, runtime, ctx, writeBrief) };
	registerHooks(pi, fold);
	registerToolChecked(pi, fold, reporter, () => registerTool(pi, fold));
	registerWindowCheck(pi, fold, reporter);
	registerCommands(pi, fold);
	registerIntegrations(pi, fold);
	return fold;
}
