// The optional host integrations, wired around the runtime: evidence ingestion of oversized tool
// results (when `evidenceIngestion` is true at session start; nothing is written otherwise), the
// projection-candidate provider handed to `setProjectionProvider`, and the suggestion-source
// registrar handed to `setSuggestionSourceRegistrar` (sources register; nothing renders). The
// evidence store writes files (counted in the runtime's telemetry); the rest reads the runtime's
// snapshot.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import {
	candidatesFor,
	type EvidenceIngestor,
	evidenceIngestorFor,
	SuggestionRegistry,
	suggestionAcceptEntryType,
} from "../runtime/index.ts";
import type { BoundaryFollower } from "./boundary-hooks.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";

/** Registers the integrations; returns the boundary follower that remembers the latest context. */
export function registerIntegrations(pi: ExtensionAPI, fold: PiFold): BoundaryFollower {
	const { runtime } = fold;
	const options = runtime.options;
	let latest: ExtensionContext | undefined;
	let ingestor: EvidenceIngestor | undefined;
	const remember = (ctx: ExtensionContext) => {
		latest = ctx;
	};
	pi.on("session_start", (_event, ctx) => {
		remember(ctx);
		const sm = ctx.sessionManager;
		try {
			// The options in force for this session (a project's settings file may have changed them).
			ingestor = evidenceIngestorFor(
				runtime.options,
				{ sessionDir: sm.getSessionFile() ? sm.getSessionDir() : undefined, sessionId: sm.getSessionId() },
				{
					onRefused: (r) => {
						runtime.telemetry.recordEvidence(null);
						notifierFor(ctx)(`evidence for ${r.toolName} (${r.bytes} bytes) not written: ${r.reason}`, "warning");
					},
				},
			);
		} catch (error) {
			ingestor = undefined;
			notifierFor(ctx)(`session_start: evidence ingestion is off: ${errorMessage(error)}`, "error");
		}
	});
	pi.on("tool_result", async (event, ctx) => {
		if (!ingestor) return undefined;
		try {
			const record = await ingestor.ingest({
				toolName: event.toolName,
				toolCallId: event.toolCallId,
				content: event.content,
			});
			if (record) runtime.telemetry.recordEvidence(record);
		} catch (error) {
			notifierFor(ctx)(`tool_result failed: ${errorMessage(error)}`, "error");
		}
		return undefined;
	});
	options.setProjectionProvider?.(() => {
		try {
			return latest ? candidatesFor(runtime, fold.host(latest)) : [];
		} catch {
			return [];
		}
	});
	if (options.setSuggestionSourceRegistrar) {
		const registry = new SuggestionRegistry({
			write: (record) => pi.appendEntry(suggestionAcceptEntryType(options.entryTypePrefix), record),
		});
		options.setSuggestionSourceRegistrar(registry.registrar);
	}
	return (_entries, ctx) => remember(ctx);
}
