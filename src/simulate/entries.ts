// The entries of a simulated session: the same shapes Pi writes to a session file (a message, a
// custom entry, a custom message, a context edit, a compaction), on one linear branch. Plain data.

import type { Replacement } from "../projection/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";

interface MessageEntry {
	readonly type: "message";
	readonly id: string;
	readonly message: TranscriptMessage;
}

interface CustomEntry {
	readonly type: "custom";
	readonly id: string;
	readonly customType: string;
	readonly data: unknown;
}

interface CustomMessageEntry {
	readonly type: "custom_message";
	readonly id: string;
	readonly customType: string;
	readonly content: unknown;
	readonly display: boolean;
}

interface ContextEditEntry {
	readonly type: "context_edit";
	readonly id: string;
	readonly targetId: string;
	readonly replacement: Replacement;
}

interface CompactionEntry {
	readonly type: "compaction";
	readonly id: string;
	readonly summary: string;
	/** First entry kept raw after the summary (null: none before it). */
	readonly firstKeptEntryId: string | null;
	readonly tokensBefore: number;
}

export type SimEntry = MessageEntry | CustomEntry | CustomMessageEntry | ContextEditEntry | CompactionEntry;
