// Reads Pi's active branch into the plain data the runtime takes (src/policy `BranchView`): the
// transcript (context-producing entries in branch order with their ORIGINAL, unedited messages),
// pi-fold's decision records, and the context edits in force (latest per target), telling pi-fold's
// own edits from foreign ones. Reads Pi's session manager; writes nothing.

import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import type { BranchView } from "../policy/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";

type ReadonlySessionManager = ExtensionContext["sessionManager"];

interface CommitLike {
	kind?: unknown;
	edits?: unknown;
}

function editTargets(data: unknown): string[] | null {
	const record = data as CommitLike | null;
	if (record?.kind !== "commit" || !Array.isArray(record.edits)) return null;
	return record.edits.map((edit) => String((edit as { targetId?: unknown }).targetId));
}

function messageOf(entry: SessionEntry): TranscriptMessage | undefined {
	if (entry.type !== "message" && entry.type !== "custom_message" && entry.type !== "branch_summary") {
		if (entry.type !== "compaction") return undefined;
	}
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
	const records: { entryId: string; data: unknown }[] = [];
	const ownEdits = new Set<string>();
	const managed = new Set<string>();
	let run: SessionEntry[] = [];
	for (const entry of branch) {
		if (entry.type === "context_edit") {
			run.push(entry);
			continue;
		}
		if (entry.type === "custom" && entry.customType === decisionType) {
			records.push({ entryId: entry.id, data: entry.data });
			const targets = editTargets(entry.data);
			if (targets && targets.length > 0 && targets.length <= run.length) {
				const mine = run.slice(run.length - targets.length);
				if (mine.every((e, i) => e.type === "context_edit" && e.targetId === targets[i])) {
					for (const e of mine) ownEdits.add(e.id);
					for (const t of targets) managed.add(t);
				}
			}
		}
		run = [];
	}
	const transcript: TranscriptEntry[] = [];
	const inForce = new Map<string, Replacement>();
	const latestEdit = new Map<string, string>();
	for (const entry of sm.buildContextEntries()) {
		if (entry.type === "context_edit") {
			inForce.set(entry.targetId, entry.replacement as Replacement);
			latestEdit.set(entry.targetId, entry.id);
			continue;
		}
		if (entry.type === "custom_message" && receiptType !== undefined && entry.customType === receiptType) continue;
		const message = messageOf(entry);
		if (message) transcript.push({ id: entry.id, message });
	}
	const foreign = new Set<string>();
	for (const target of managed) {
		const latest = latestEdit.get(target);
		if (latest !== undefined && !ownEdits.has(latest)) foreign.add(target);
	}
	return { leafId: sm.getLeafId(), transcript, records, inForce, managed, foreign };
}

/** Only the decision records of the active branch (cheaper than readBranch, for per-request sync). */
export function branchRecords(sm: ReadonlySessionManager, decisionType: string): LogRecord[] {
	const out: LogRecord[] = [];
	for (const entry of sm.getBranch())
		if (entry.type === "custom" && entry.customType === decisionType) out.push({ entryId: entry.id, data: entry.data });
	return out;
}
