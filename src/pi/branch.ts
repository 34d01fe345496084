// Reads Pi's active branch for the runtime: the branch path and the compaction-aware context entries
// (Pi's `buildContextEntries`), each with its ORIGINAL message (`sessionEntryToContextMessages`,
// system messages dropped; an older compaction kept at a later index projects nothing, as in Pi's
// own projection), handed to the runtime's `branchViewOf`. Reads Pi's session manager; writes nothing.

import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import type { BranchView } from "../policy/index.ts";
import { branchViewOf, recordsOf } from "../runtime/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";

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
	return branchViewOf({
		leafId: sm.getLeafId(),
		branch: sm.getBranch(),
		context: sm.buildContextEntries().map((entry, i) => ({ entry, message: messageOf(entry, i) })),
		decisionType,
		receiptType,
	});
}

/** Only the decision records of the active branch (cheaper than readBranch, for per-request sync). */
export function branchRecords(sm: ReadonlySessionManager, decisionType: string): LogRecord[] {
	return recordsOf(sm.getBranch(), decisionType);
}
