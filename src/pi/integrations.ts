// The optional host integrations, wired around the runtime: evidence ingestion of oversized tool
// results (when `evidenceIngestion` is true; nothing is registered or written otherwise), the
// projection-candidate provider handed to `setProjectionProvider`, and the suggestion-source
// registrar handed to `setSuggestionSourceRegistrar` (sources register; nothing renders). The
// evidence store writes files; the rest reads the runtime's snapshot.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { renderPlaceholder } from "../projection/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import { projectionCandidates } from "./candidates.ts";
import { type EvidenceIngestor, type EvidenceRecord, evidenceIngestorFor } from "./evidence-hook.ts";
import type { ProjectionCandidate } from "./options.ts";
import { type FoldRuntime, notifierFor } from "./runtime.ts";
import { SuggestionRegistry, suggestionAcceptEntryType } from "./suggestions.ts";

/** Evidence artifacts written this session (in memory; the files themselves are the record). */
export interface EvidenceLog {
	readonly records: EvidenceRecord[];
	refused: number;
}

/** The candidates of every visible collapsed fold on the branch `ctx` sees. */
export function candidatesFor(runtime: FoldRuntime, ctx: ExtensionContext): ProjectionCandidate[] {
	const snap = runtime.snapshot(ctx);
	const visible = new Set(snap.lattice.visible(snap.state.expanded).flatMap((i) => (i.type === "fold" ? [i.id] : [])));
	return projectionCandidates({
		folds: snap.lattice.inOrder().map((f) => ({ record: f.record, collapsedVisible: visible.has(f.record.id) })),
		toolName: runtime.options.toolName,
		estimateTokens,
		placeholderText: (id) => {
			const record = snap.lattice.get(id)?.record;
			return record ? renderPlaceholder(record, runtime.options) : "";
		},
	});
}

export function registerIntegrations(pi: ExtensionAPI, runtime: FoldRuntime): EvidenceLog {
	const options = runtime.options;
	const evidence: EvidenceLog = { records: [], refused: 0 };
	let latest: ExtensionContext | undefined;
	let ingestor: EvidenceIngestor | undefined;
	const remember = (ctx: ExtensionContext) => {
		latest = ctx;
	};
	pi.on("session_start", (_event, ctx) => {
		remember(ctx);
		const sm = ctx.sessionManager;
		try {
			ingestor = evidenceIngestorFor(
				options,
				{ sessionDir: sm.getSessionFile() ? sm.getSessionDir() : undefined, sessionId: sm.getSessionId() },
				{
					onRefused: (r) => {
						evidence.refused++;
						notifierFor(ctx)(`evidence for ${r.toolName} (${r.bytes} bytes) not written: ${r.reason}`, "warning");
					},
				},
			);
		} catch (error) {
			ingestor = undefined;
			notifierFor(ctx)(
				`session_start: evidence ingestion is off: ${error instanceof Error ? error.message : String(error)}`,
				"error",
			);
		}
	});
	pi.on("turn_end", (_event, ctx) => remember(ctx));
	if (options.evidenceIngestion) {
		pi.on("tool_result", async (event, ctx) => {
			try {
				const record = await ingestor?.ingest({
					toolName: event.toolName,
					toolCallId: event.toolCallId,
					content: event.content,
				});
				if (record) evidence.records.push(record);
			} catch (error) {
				notifierFor(ctx)(`tool_result failed: ${error instanceof Error ? error.message : String(error)}`, "error");
			}
			return undefined;
		});
	}
	options.setProjectionProvider?.(() => {
		try {
			return latest ? candidatesFor(runtime, latest) : [];
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
	return evidence;
}
