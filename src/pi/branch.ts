// Reads Pi's active branch for the runtime: the branch path and the compaction-aware context entries
// (Pi's `buildContextEntries`), each with its ORIGINAL message (`sessionEntryToContextMessages`,
// system messages dropped; an older compaction kept at a later index projects nothing, as in Pi's
// own projection), handed to the runtime's `branchViewOf`, with every message entry of the branch by
// id (those a compaction took out of the context too, indexed on first use): what a fold's source
// is rebuilt from when the fold store has no copy. Reads Pi's session manager; writes nothing.

import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import type { BranchView } from "../policy/index.ts";
import { branchViewOf, recordsOf } from "../runtime/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";

type ReadonlySessionManager = ExtensionContext["sessionManager"];

/** The one original non-system message `entry` contributes to context at position `index`, if any. */
function messageOf(entry: SessionEntry, index: number): TranscriptMessage | undefined {
	if (entry.type === "compaction" && index > 0) return undefined;
	if (!["message", "custom_message", "branch_summary", "compaction"].includes(entry.type)) return undefined;
	const messages = sessionEntryToContextMessages(entry).filter((m) => m.role !== "system");
	return messages.length === 1 ? (messages[0] as unknown as TranscriptMessage) : undefined;
}

/**
 * Reads the active branch of `sm`; `decisionType` is pi-fold's decision custom type. Custom messages
 * of `receiptType` (pi-fold's own commit receipts) stay in the window but are not part of the
 * transcript pi-fold folds: a receipt is never re-rendered, and it does not open a chapter.
 */
export function readBranch(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): BranchView {
	const branch = sm.getBranch();
	return branchViewOf({
		leafId: sm.getLeafId(),
		branch,
		context: sm.buildContextEntries().map((entry, i) => ({ entry, message: messageOf(entry, i) })),
		decisionType,
		receiptType,
		branchEntry: branchEntries(branch),
	});
}

/** Every entry of `branch` that gives one message (compaction summaries aside), by id, indexed on first use. */
function branchEntries(branch: readonly SessionEntry[]): (id: string) => TranscriptEntry | undefined {
	let index: Map<string, TranscriptEntry> | undefined;
	return (id) => {
		if (!index) {
			index = new Map();
			for (const entry of branch) {
				// Index 1: a compaction's summary is never a fold's leaf.
				const message = messageOf(entry, 1);
				if (message) index.set(entry.id, { id: entry.id, message });
			}
		}
		return index.get(id);
	};
}

/** Only the decision records of the active branch (cheaper than readBranch, for per-request sync). */
export function branchRecords(sm: ReadonlySessionManager, decisionType: string): LogRecord[] {
	return recordsOf(sm.getBranch(), decisionType);
}
