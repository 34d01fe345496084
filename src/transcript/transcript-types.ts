// Plain-data shapes of the transcript as the pure layers see it: context-producing session
// entries in active-branch order, and the units they group into. No Pi imports; the adapter maps
// Pi's entries onto these. Pure types.

/** A message as stored in a session entry (Pi's AgentMessage, read structurally). */
export interface TranscriptMessage {
	readonly role: string;
	readonly content?: unknown;
	readonly toolCallId?: string;
	readonly toolName?: string;
	readonly [key: string]: unknown;
}

/** One context-producing session entry: its id and its (unedited) message. */
export interface TranscriptEntry {
	readonly id: string;
	readonly message: TranscriptMessage;
}

/**
 * The structural unit folds align to:
 * - `user`: a user-side message (user, custom, bashExecution);
 * - `assistant`: an assistant reply without tool calls;
 * - `toolBatch`: an assistant tool-use message with its result batch (the results that follow it);
 * - `summary`: a compaction or branch summary Pi inserted;
 * - `orphan`: a tool result whose call is not in the transcript (never folds on its own).
 */
export type UnitKind = "user" | "assistant" | "toolBatch" | "summary" | "orphan";

export interface Unit {
	/** Position among the transcript's units. */
	readonly index: number;
	readonly kind: UnitKind;
	/** First entry index (inclusive) and end (exclusive) in the transcript. */
	readonly start: number;
	readonly end: number;
	readonly entryIds: readonly string[];
	/** Tool names called by a tool batch, in call order (empty for other kinds). */
	readonly toolNames: readonly string[];
	/** A tool batch is complete when every call has exactly one result inside the batch. */
	readonly complete: boolean;
	/** Characters of the unit's messages as JSON: the size measure the pure layers use. */
	readonly chars: number;
}

/** A run of units opened by a user unit; closed once a later user unit exists. */
export interface Chapter {
	readonly index: number;
	/** First unit index (inclusive) and end (exclusive). */
	readonly startUnit: number;
	readonly endUnit: number;
	readonly closed: boolean;
}
