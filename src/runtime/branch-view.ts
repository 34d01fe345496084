// The branch view (src/policy `BranchView`) from any host's entries: the transcript (context-producing
// entries in branch order with their ORIGINAL, unedited messages), pi-fold's decision records, and
// the context edits in force (latest per target), telling pi-fold's own edits from foreign ones. A
// host adapter hands in its branch path and its compaction-aware context entries, each with its
// original message (Pi: src/pi/branch.ts; the simulator: src/simulate), and may hand in every entry
// of the branch by id (compacted ones too), which a fold's source is rebuilt from. Built by
// branch-view-builder.ts, which a host that reads only what was appended feeds instead. Pure.

import type { BranchView } from "../policy/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";
import { BranchViewBuilder, type ContextItem, type EntryView } from "./branch-view-builder.ts";

interface BranchViewInput {
	readonly leafId: string | null;
	/** The active branch, root to leaf. */
	readonly branch: readonly EntryView[];
	/** The compaction-aware context entries, each with its original message (undefined: projects none). */
	readonly context: readonly ContextItem[];
	readonly decisionType: string;
	/** pi-fold's receipt custom-message type: in the window, but never part of the foldable transcript. */
	readonly receiptType?: string | undefined;
	/** Any context-producing entry on the branch by id, compacted ones included (src/policy `BranchView`). */
	readonly branchEntry?: ((id: string) => TranscriptEntry | undefined) | undefined;
}

/** The view of a whole branch at once (branch-view-builder.ts fed in one go). */
export function branchViewOf(input: BranchViewInput): BranchView {
	const builder = new BranchViewBuilder(input.decisionType, input.receiptType);
	builder.appendBranch(input.branch);
	builder.appendContext(input.context);
	return builder.view(input.leafId, input.branchEntry);
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

/** The id a message the host has not appended yet goes by in a forecast's view (its index after the prefix). */
const PENDING_ENTRY_PREFIX = "(not yet appended) ";

/**
 * `view` with `pending` (messages the host holds and will append next, in order) at the end of its
 * transcript, each under a stand-in id: what a forecast decides on (runtime.ts `forecast`). The view
 * itself when nothing is pending.
 */
export function withPending(view: BranchView, pending: readonly TranscriptMessage[]): BranchView {
	if (pending.length === 0) return view;
	const added = pending.map((message, i) => ({ id: `${PENDING_ENTRY_PREFIX}${i}`, message }));
	return { ...view, transcript: [...view.transcript, ...added] };
}
