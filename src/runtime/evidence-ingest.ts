// Evidence ingestion: a tool result larger than the threshold is written as a read-only artifact
// (EvidenceStore, src/store) so an oversized result has an exact-recovery anchor on disk. The
// ingestor only WRITES the artifact and returns its record; it never changes what the model sees
// (the runtime decides whether to edit anything and persists the record if it wants it). With
// `evidenceIngestion: false` the runtime never creates an ingestor, so nothing is written.
//
// Ownership (artifact folder under `<sessionDir>/pi-fold-evidence/`):
//   isMcpTool(name) and name shaped mcp__<server>__<tool>  ->  mcp/<server>/sha256/<2 hex>/<64 hex>
//   anything else (or an unparseable MCP name)             ->  ns/<namespace>/sha256/<2 hex>/<64 hex>
// where `namespace` derives from entryTypePrefix (the runtime passes derivedNames().mcpFallbackServer).
//
// Artifact bytes: a string `content` as UTF-8 ("text"); anything else as JSON.stringify(content)
// ("json", e.g. Pi's [{ type: "text", text }] blocks). Refusals (cap crossed, write failure) return
// null and are reported through `onRefused`; ingest never throws.
// The EvidenceStore does the file I/O; this module decides what to write.

import { derivedNames, type ResolvedOptions } from "../options/index.ts";
import { type EvidenceOwner, EvidenceStore, resolveStoreDir } from "../store/index.ts";

/** Tool results strictly larger than this many UTF-8 bytes are ingested (64 KiB). */
export const DEFAULT_EVIDENCE_THRESHOLD_BYTES = 64 * 1024;

/** The record of one ingested artifact (plain JSON; `path` is relative to the evidence folder). */
export interface EvidenceRecord {
	readonly v: 1;
	readonly kind: "evidence";
	readonly toolName: string;
	readonly toolCallId: string;
	readonly owner: EvidenceOwner;
	readonly sha256: string;
	readonly bytes: number;
	readonly encoding: "text" | "json";
	readonly path: string;
	/** False when identical content of this owner was already stored (charged once). */
	readonly created: boolean;
}

/** Why an oversized result got no artifact. */
export interface EvidenceRefusal {
	readonly toolName: string;
	readonly toolCallId: string;
	readonly bytes: number;
	readonly reason: string;
}

const MCP_NAME = /^mcp__([A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*)__(.+)$/;

/** The server of a tool named mcp__<server>__<tool>, or undefined when the name is not so shaped. */
export function mcpServerOf(toolName: string): string | undefined {
	const match = MCP_NAME.exec(toolName);
	const server = match?.[1];
	return server !== undefined && server.length <= 128 ? server : undefined;
}

/** What createEvidenceIngestor returns. */
export interface EvidenceIngestor {
	ingest(result: { toolName: string; toolCallId: string; content: unknown }): Promise<EvidenceRecord | null>;
}

/**
 * The runtime's entry point: undefined (no hook, no store, nothing written) when
 * `evidenceIngestion` is false; otherwise an ingestor over `<sessionDir>/pi-fold-evidence/` (or the
 * in-memory fallback of resolveStoreDir) with the namespace derived from entryTypePrefix.
 */
export function evidenceIngestorFor(
	options: Pick<ResolvedOptions, "evidenceIngestion" | "isMcpTool" | "entryTypePrefix">,
	location: { sessionDir: string | undefined; sessionId: string; fallbackRoot?: string },
	extra: { capBytes?: number; thresholdBytes?: number; onRefused?(refusal: EvidenceRefusal): void } = {},
): EvidenceIngestor | undefined {
	if (!options.evidenceIngestion) return undefined;
	const names = derivedNames(options);
	const dir = resolveStoreDir({ ...location, storeDirName: names.evidenceDirName });
	return createEvidenceIngestor({
		store: new EvidenceStore(dir, {
			sessionId: location.sessionId,
			...(extra.capBytes === undefined ? {} : { capBytes: extra.capBytes }),
		}),
		isMcpTool: options.isMcpTool,
		namespace: names.mcpFallbackServer,
		...(extra.thresholdBytes === undefined ? {} : { thresholdBytes: extra.thresholdBytes }),
		...(extra.onRefused === undefined ? {} : { onRefused: extra.onRefused }),
	});
}

export function createEvidenceIngestor(options: {
	store: EvidenceStore;
	isMcpTool(name: string): boolean;
	thresholdBytes?: number;
	namespace: string;
	onRefused?(refusal: EvidenceRefusal): void;
}): EvidenceIngestor {
	const threshold = options.thresholdBytes ?? DEFAULT_EVIDENCE_THRESHOLD_BYTES;
	if (!Number.isSafeInteger(threshold) || threshold < 0)
		throw new RangeError(`createEvidenceIngestor(): thresholdBytes must be an integer >= 0, got ${threshold}`);
	const namespaceOwner: EvidenceOwner = { kind: "namespace", name: options.namespace };

	const ownerOf = (toolName: string): EvidenceOwner => {
		let mcp = false;
		try {
			mcp = options.isMcpTool(toolName) === true;
		} catch {
			mcp = false;
		}
		const server = mcp ? mcpServerOf(toolName) : undefined;
		return server !== undefined ? { kind: "mcp", name: server } : namespaceOwner;
	};

	return {
		async ingest(result) {
			const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content ?? null);
			const bytes = Buffer.byteLength(text, "utf8");
			if (bytes <= threshold) return null;
			const refuse = (reason: string) => {
				options.onRefused?.({ toolName: result.toolName, toolCallId: result.toolCallId, bytes, reason });
				return null;
			};
			const owner = ownerOf(result.toolName);
			try {
				const put = await options.store.put(owner, text);
				if (put.status === "refused") return refuse(put.reason);
				return {
					v: 1,
					kind: "evidence",
					toolName: result.toolName,
					toolCallId: result.toolCallId,
					owner,
					sha256: put.sha256,
					bytes: put.bytes,
					encoding: typeof result.content === "string" ? "text" : "json",
					path: put.path,
					created: put.status === "written",
				};
			} catch (error) {
				return refuse(`evidence write failed: ${error instanceof Error ? error.message : String(error)}`);
			}
		},
	};
}
