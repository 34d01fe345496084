// The branch view (src/policy `BranchView`) from any host's entries: the transcript (context-producing
// entries in branch order with their ORIGINAL, unedited messages), pi-fold's decision records, and
// the context edits in force (latest per target), telling pi-fold's own edits from foreign ones. A
// host adapter hands in its branch path and its compaction-aware context entries, each with its
// original message (Pi: src/pi/branch.ts; the simulator: src/simulate), and may hand in every entry
// of the branch by id (compacted ones too), which a fold's source is rebuilt from. Pure.

import type { BranchView } from "../policy/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";

/** What the view reads of a session entry (Pi's `SessionEntry` fits structurally). */
interface EntryView {
	readonly id: string;
	readonly type: string;
	readonly customType?: string;
	readonly data?: unknown;
	readonly targetId?: string;
	readonly replacement?: unknown;
}

interface BranchViewInput {
	readonly leafId: string | null;
	/** The active branch, root to leaf. */
	readonly branch: readonly EntryView[];
	/** The compaction-aware context entries, each with its original message (undefined: projects none). */
	readonly context: readonly { readonly entry: EntryView; readonly message: TranscriptMessage | undefined }[];
	readonly decisionType: string;
	/** pi-fold's receipt custom-message type: in the window, but never part of the foldable transcript. */
	readonly receiptType?: string | undefined;
	/** Any context-producing entry on the branch by id, compacted ones included (src/policy `BranchView`). */
	readonly branchEntry?: ((id: string) => TranscriptEntry | undefined) | undefined;
}

function editTargets(data: unknown): string[] | null {
	const record = data as { kind?: unknown; edits?: unknown } | null;
	if (record?.kind !== "commit" || !Array.isArray(record.edits)) return null;
	return record.edits.map((edit) => String((edit as { targetId?: unknown }).targetId));
}

/** pi-fold's decision records, and its own edits: the context_edit run right before each commit record. */
function ownRecords(branch: readonly EntryView[], decisionType: string) {
	const records: LogRecord[] = [];
	const ownEdits = new Set<string>();
	const managed = new Set<string>();
	let run: EntryView[] = [];
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
				if (mine.every((e, i) => e.targetId === targets[i])) {
					for (const e of mine) ownEdits.add(e.id);
					for (const t of targets) managed.add(t);
				}
			}
		}
		run = [];
	}
	return { records, ownEdits, managed };
}

export function branchViewOf(input: BranchViewInput): BranchView {
	const { records, ownEdits, managed } = ownRecords(input.branch, input.decisionType);
	const transcript: TranscriptEntry[] = [];
	const receipts: { id: string; before: number }[] = [];
	const inForce = new Map<string, Replacement>();
	const latestEdit = new Map<string, string>();
	for (const { entry, message } of input.context) {
		if (entry.type === "context_edit" && entry.targetId !== undefined) {
			inForce.set(entry.targetId, entry.replacement as Replacement);
			latestEdit.set(entry.targetId, entry.id);
			continue;
		}
		if (entry.type === "custom_message" && input.receiptType !== undefined && entry.customType === input.receiptType) {
			receipts.push({ id: entry.id, before: transcript.length });
			continue;
		}
		if (message) transcript.push({ id: entry.id, message });
	}
	const foreign = new Set<string>();
	for (const target of managed) {
		const latest = latestEdit.get(target);
		if (latest !== undefined && !ownEdits.has(latest)) foreign.add(target);
	}
	const view = { leafId: input.leafId, transcript, records, inForce, managed, foreign, receipts };
	return input.branchEntry ? { ...view, branchEntry: input.branchEntry } : view;
}

/** Only pi-fold's decision records on a branch (cheaper than the whole view, for per-request sync). */
export function recordsOf(branch: readonly EntryView[], decisionType: string): LogRecord[] {
	const out: LogRecord[] = [];
	for (const entry of branch)
		if (entry.type === "custom" && entry.customType === decisionType) out.push({ entryId: entry.id, data: entry.data });
	return out;
}

const originalsByView = new WeakMap<BranchView, Map<string, TranscriptEntry>>();

/**
 * The original (unedited) entry `id` as the session holds it: from the view's transcript, else (a
 * compaction summarized it) from the whole branch when the host reads it (`branchEntry`); undefined
 * when the branch has no such entry (it is on another branch). Indexed once per view.
 */
export function originalEntry(view: BranchView, id: string): TranscriptEntry | undefined {
	let index = originalsByView.get(view);
	if (!index) {
		index = new Map(view.transcript.map((e) => [e.id, e]));
		originalsByView.set(view, index);
	}
	return index.get(id) ?? view.branchEntry?.(id);
}
