// The branch view (src/policy `BranchView`) built as a stream: the branch's entries and the context's
// entries are fed in order, in as many appends as the host likes, and `view()` gives the view of
// everything fed so far. One pass per entry: a host that feeds only what was appended since its last
// read pays for the new entries, not for the whole branch (src/pi/branch.ts keeps one builder per
// session and starts a new one when the branch changes other than by appending). Each view is
// immutable: a collection that changed since the last view is copied into the new one, one that did
// not is the last view's own, so an unchanged part keeps its identity from request to request.
// `branchViewOf` (branch-view.ts) is this builder fed once. Pure in-memory.

import type { BranchView } from "../policy/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";

/** What the view reads of a session entry (Pi's `SessionEntry` fits structurally). */
export interface EntryView {
	readonly id: string;
	readonly type: string;
	readonly customType?: string;
	readonly data?: unknown;
	readonly targetId?: string;
	readonly replacement?: unknown;
}

/** One compaction-aware context entry with its original message (undefined: projects none). */
export interface ContextItem {
	readonly entry: EntryView;
	readonly message: TranscriptMessage | undefined;
}

function editTargets(data: unknown): string[] | null {
	const record = data as { kind?: unknown; edits?: unknown } | null;
	if (record?.kind !== "commit" || !Array.isArray(record.edits)) return null;
	return record.edits.map((edit) => String((edit as { targetId?: unknown }).targetId));
}

export class BranchViewBuilder {
	private readonly decisionType: string;
	private readonly receiptType: string | undefined;
	// From the branch: pi-fold's records, and its own edits (the context_edit run right before each commit record).
	private readonly records: LogRecord[] = [];
	private readonly ownEdits = new Set<string>();
	private readonly managed = new Set<string>();
	private run: EntryView[] = [];
	// From the context: the transcript, the receipts, the edits in force (latest per target).
	private readonly transcript: TranscriptEntry[] = [];
	private readonly receipts: { id: string; before: number }[] = [];
	private readonly inForce = new Map<string, Replacement>();
	private readonly latestEdit = new Map<string, string>();
	private last: BranchView | null = null;
	private changed = { records: true, managed: true, transcript: true, receipts: true, inForce: true };

	constructor(decisionType: string, receiptType?: string) {
		this.decisionType = decisionType;
		this.receiptType = receiptType;
	}

	/** Feeds entries of the active branch, root to leaf, after those fed before. */
	appendBranch(entries: readonly EntryView[]): void {
		for (const entry of entries) {
			if (entry.type === "context_edit") {
				this.run.push(entry);
				continue;
			}
			if (entry.type === "custom" && entry.customType === this.decisionType) {
				this.records.push({ entryId: entry.id, data: entry.data });
				this.changed.records = true;
				const targets = editTargets(entry.data);
				if (targets && targets.length > 0 && targets.length <= this.run.length) {
					const mine = this.run.slice(this.run.length - targets.length);
					if (mine.every((e, i) => e.targetId === targets[i])) {
						for (const e of mine) this.ownEdits.add(e.id);
						for (const t of targets) this.managed.add(t);
						this.changed.managed = true;
					}
				}
			}
			this.run = [];
		}
	}

	/** Feeds compaction-aware context entries, in order, after those fed before. */
	appendContext(items: readonly ContextItem[]): void {
		for (const { entry, message } of items) {
			if (entry.type === "context_edit" && entry.targetId !== undefined) {
				this.inForce.set(entry.targetId, entry.replacement as Replacement);
				this.latestEdit.set(entry.targetId, entry.id);
				this.changed.inForce = true;
				continue;
			}
			if (entry.type === "custom_message" && this.receiptType !== undefined && entry.customType === this.receiptType) {
				this.receipts.push({ id: entry.id, before: this.transcript.length });
				this.changed.receipts = true;
				continue;
			}
			if (message) {
				this.transcript.push({ id: entry.id, message });
				this.changed.transcript = true;
			}
		}
	}

	/** Managed targets whose latest edit in force was written by someone else. */
	private foreign(): Set<string> {
		const foreign = new Set<string>();
		for (const target of this.managed) {
			const latest = this.latestEdit.get(target);
			if (latest !== undefined && !this.ownEdits.has(latest)) foreign.add(target);
		}
		return foreign;
	}

	/**
	 * The view of everything fed so far, at leaf `leafId` (with `branchEntry` when the host reads the
	 * whole branch). The last view itself when nothing was fed since and the leaf and reader are the same.
	 */
	view(leafId: string | null, branchEntry?: (id: string) => TranscriptEntry | undefined): BranchView {
		const last = this.last;
		const c = this.changed;
		if (last && last.leafId === leafId && last.branchEntry === branchEntry && !Object.values(c).some(Boolean))
			return last;
		const view = {
			leafId,
			transcript: !last || c.transcript ? [...this.transcript] : last.transcript,
			records: !last || c.records ? [...this.records] : last.records,
			inForce: !last || c.inForce ? new Map(this.inForce) : last.inForce,
			managed: !last || c.managed ? new Set(this.managed) : last.managed,
			foreign: !last || c.managed || c.inForce ? this.foreign() : last.foreign,
			receipts: !last || c.receipts ? [...this.receipts] : (last.receipts ?? []),
		};
		this.changed = { records: false, managed: false, transcript: false, receipts: false, inForce: false };
		this.last = branchEntry ? { ...view, branchEntry } : view;
		return this.last;
	}
}
