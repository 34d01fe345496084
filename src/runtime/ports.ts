// The narrow interfaces the runtime depends on, so it runs with no Pi at all: the host session (read
// the branch, append a decision, describe the model, tell the human, name the agent directory that
// holds the records' key, its working directory), the verified fold store (whether it holds a blob,
// reads, bounded slices, hash-verified search), and
// the drafts a boundary returns. A Pi adapter (src/pi/host.ts) implements `Host` over Pi's
// extension context; the simulator (src/simulate/) implements it over an in-memory session.
// Types only; no I/O here.

import type { BriefedKind, FoldRecord } from "../lattice/index.ts";
import type { BranchView, ModelWindow, PriceTable } from "../policy/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { DecisionRecord, LogRecord } from "../state/index.ts";
import type { CompiledQuery, ManifestShown, PoolSearchRun, SearchTarget, StoreUsage } from "../store/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";

/** Where exact fold sources live: content-addressed by SHA-256, every read verified. */
export interface SourceStore {
	/** Writes `source` (idempotent); resolves once it is durable. */
	put(source: string): Promise<{ sha256: string; bytes: number }>;
	/**
	 * Writes a fold's source as a Merkle manifest over its entries (`data`: each entry's exact bytes,
	 * one JSON line; an entry already stored is not stored again); resolves with the root's digest
	 * and the source's size once every blob is durable.
	 */
	putFold(
		foldId: string,
		leaves: readonly { id: string; data: Uint8Array }[],
	): Promise<{ sha256: string; bytes: number }>;
	/**
	 * Whether a blob is stored at `sha256` (not a verification). False: the source can still be rebuilt
	 * from the session's own entries and checked against the digest (session-source.ts).
	 */
	has(sha256: string): boolean;
	/** The store's size and the share the fold sources `roots` reach (each blob once), when the store can tell. */
	usage?(roots: Iterable<string>): StoreUsage;
	/**
	 * Reads and verifies the whole source; rejects naming `label` and both digests on a mismatch. With
	 * `expectedBytes` (the size the fold recorded), a blob of another size is refused unopened.
	 */
	read(sha256: string, label: string, expectedBytes?: number): Promise<string>;
	/** A verified slice snapped to UTF-8 boundaries: byte range [start, end) of totalBytes. `expectedBytes` as for read. */
	readSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<{ text: string; start: number; end: number; totalBytes: number; manifest?: ManifestShown }>;
	/**
	 * Searches the sources of `targets`: each read once, hashed against its address and scanned from
	 * the same bytes; a source that fails keeps none of its hits. Results are index-aligned with
	 * `targets`; the search stops at `timeLimitMs` (undefined results were not searched).
	 */
	search(
		targets: readonly SearchTarget[],
		query: CompiledQuery,
		options: { maxHits: number; timeLimitMs: number },
	): Promise<PoolSearchRun>;
}

/** Tells the human something out of band (never into the model's window). */
export type Notify = (message: string, level: "info" | "warning" | "error") => void;

/** What the runtime reads of the session's model. */
export interface ModelInfo extends ModelWindow {
	readonly provider?: string | undefined;
	readonly id?: string | undefined;
	readonly api?: string | undefined;
	/** Dollars per million tokens, with long-context tiers (pi-ai's `Model.cost`). */
	readonly cost?: PriceTable | undefined;
	/** How long the provider keeps a prompt cached after a request, in ms (pi-ai `getPromptCacheTtlMs`). */
	readonly cacheTtlMs?: number | undefined;
}

/** Where a session keeps its files: its id and, for a persisted session, its directory. */
export interface SessionLocation {
	readonly id: string;
	/** Undefined for an in-memory session (the store then lives under the OS temp dir). */
	readonly dir: string | undefined;
}

/** The context usage a host shows its human (Pi's footer: `getContextUsage()`). */
export interface ContextUsage {
	/** Tokens in the window; null when the host does not know yet (after a compaction). */
	readonly tokens: number | null;
	/** The model's context window the percent is of. */
	readonly window: number;
	readonly percent: number | null;
}

/** A model-written (or supplied) brief, or the deterministic one when the writer fell back. */
export interface BriefOut {
	readonly brief: string;
	readonly source: FoldRecord["briefSource"];
}

/**
 * The host session as the runtime sees it during one call (a hook, a tool call, a boundary). Built
 * per call, because a host may replace its session between calls.
 */
export interface Host {
	/** The active branch as plain data (original messages, decision records, edits in force). */
	readBranch(): BranchView;
	/** Only pi-fold's decision records on the active branch (cheaper than readBranch). */
	branchRecords(): readonly LogRecord[];
	/** Native compactions on the active branch (each rewrites the window, as a commit does). */
	compactionCount(): number;
	/** Appends a decision record to the session (never sent to the model). */
	appendRecord(record: DecisionRecord): void;
	session(): SessionLocation;
	/**
	 * The agent directory, where pi-fold keeps the key that signs decision records (Pi: its agent dir,
	 * `getAgentDir()`). Undefined: records are signed with a key that lives only in this process.
	 */
	agentDir(): string | undefined;
	/** The session's model, or undefined before one is chosen. */
	model(): ModelInfo | undefined;
	/** The host's own estimate of the context size (Pi's getContextUsage), or null when unknown. */
	contextTokens(): number | null;
	/** The context usage the host shows its human (Pi's footer figure), when it has one. */
	contextUsage?(): ContextUsage | undefined;
	/** The system prompt the next request carries. */
	systemPrompt(): string;
	/** The session's working directory: relative paths of folded file reads resolve against it. */
	cwd(): string;
	/**
	 * A brief for a ladder chapter, span or consolidation fold over `leaves` (falls back to their
	 * deterministic brief); the request reads `shown`, the span as the window shows it, when given.
	 */
	writeBrief(
		leaves: readonly TranscriptEntry[],
		kind: BriefedKind,
		shown?: readonly TranscriptEntry[],
	): Promise<BriefOut>;
	/** The model that writes those briefs, when it is not the session's (its prices cost a brief). */
	briefModel?(): ModelInfo | undefined;
	notify: Notify;
	/** Milliseconds since the epoch (a clock tests control). */
	now(): number;
}

/** A `context_edit` the host appends at a boundary: null omits the target, else its content is swapped. */
export interface ContextEditDraft {
	readonly type: "context_edit";
	readonly targetId: string;
	readonly replacement: Replacement;
}

/** A `custom` entry (pi-fold's decision record) appended at a boundary. */
export interface CustomDraft {
	readonly type: "custom";
	readonly customType: string;
	readonly data: DecisionRecord;
}

/** A `custom_message` (the commit receipt) appended at a boundary; reaches the model as user text. */
export interface CustomMessageDraft {
	readonly type: "custom_message";
	readonly customType: string;
	readonly content: string;
	readonly display: boolean;
}

/** What a boundary returns: drafts the host appends, in order, before the next request. */
export type BoundaryDraft = ContextEditDraft | CustomDraft | CustomMessageDraft;
