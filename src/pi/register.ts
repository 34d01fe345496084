// Wires pi-fold into Pi: settles the options (registerPiFold's own over the settings files,
// settings-loader.ts; callbacks contained: option-checks.ts), creates the runtime, and registers the hooks
// (hooks.ts), the tool (at session start, unless its name is taken), the checks of the options
// against the session, the commands, the human's notices (notices.ts) and, last, the one handler
// per boundary event (boundary-hooks.ts). The runtime itself knows nothing of Pi: each call gets a host
// (host.ts) built from the event's context.

import { join } from "node:path";
import { type ExtensionAPI, getAgentDir } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { type PiFoldOptions, SETTINGS_FILE_NAME } from "../options/index.ts";
import { FoldRuntime, type SourceStore } from "../runtime/index.ts";
import { core } from "../wasm/index.ts";
import { registerBoundary } from "./boundary-hooks.ts";
import { registerCommands } from "./commands.ts";
import { registerHooks } from "./hooks.ts";
import { type PiFold, piHost } from "./host.ts";
import { registerIntegrations } from "./integrations.ts";
import { briefWriterFor } from "./model-briefs.ts";
import { registerNotices } from "./notices.ts";
import { notifierFor } from "./notify.ts";
import { containCallbacks, OptionReporter, registerToolChecked, registerWindowCheck } from "./option-checks.ts";
import { PiFoldSettings } from "./settings-loader.ts";
import { registerTool } from "./tool.ts";
import type { BoundaryAudit } from "./turn-end-forecast.ts";

export interface RegisterExtras {
	/** Test seam: build the fold store for a directory (default: src/store's FoldStore). */
	readonly storeFactory?: (dir: string) => SourceStore;
	/** Test seam: the model-brief timeout in ms (default SUMMARY_TIMEOUT_MS). */
	readonly summaryTimeoutMs?: number;
	/** Where the global settings file lives (default: Pi's agent directory, `getAgentDir()`). */
	readonly agentDir?: string;
	/**
	 * Test seam: keeps the `turn_end` handler registered at every boundary and reports, for each
	 * turn, the forecast made for its boundary beside whether it committed (turn-end-forecast.ts).
	 */
	readonly boundaryAudit?: BoundaryAudit;
}

/**
 * Registers pi-fold on `pi`; returns the runtime and its host accessor. `options` win over the
 * settings files (`pi-fold.json` in Pi's agent directory and in the project's `.pi/`); an invalid
 * option here throws, an invalid file is reported and ignored.
 */
export function registerPiFold(pi: ExtensionAPI, options?: PiFoldOptions, extras: RegisterExtras = {}): PiFold {
	const reporter = new OptionReporter();
	const globalFile = join(extras.agentDir ?? getAgentDir(), SETTINGS_FILE_NAME);
	const settings = new PiFoldSettings(options, globalFile, (resolved) => containCallbacks(resolved, reporter));
	core();
	const runtime = new FoldRuntime(settings.options, extras.storeFactory);
	const writeBrief = briefWriterFor(runtime, extras.summaryTimeoutMs);
	const fold: PiFold = { runtime, host: (ctx) => piHost(pi, runtime, ctx, writeBrief) };
	let toolRegistered = false;
	// First, so every other session_start handler (the rebuild, the tool, evidence) sees the project's settings.
	pi.on("session_start", (_event, ctx) => {
		try {
			settings.atSessionStart(fold, ctx, () => {
				if (toolRegistered) registerTool(pi, fold);
			});
		} catch (error) {
			notifierFor(ctx)(`session_start: settings files not applied: ${errorMessage(error)}`, "error");
		}
	});
	registerHooks(pi, fold);
	registerToolChecked(pi, fold, reporter, () => {
		registerTool(pi, fold);
		toolRegistered = true;
	});
	registerWindowCheck(pi, fold, reporter);
	registerCommands(pi, fold, settings);
	const remember = registerIntegrations(pi, fold);
	const notice = registerNotices(pi, fold);
	// One handler per boundary event: the commit, then the integrations' and the notices' part.
	registerBoundary(pi, fold, [remember, notice], extras.boundaryAudit);
	return fold;
}
