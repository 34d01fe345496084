// Reads Pi's active branch for the runtime: the branch path and the compaction-aware context entries
// (Pi's `buildContextEntries`), each with its ORIGINAL message (`sessionEntryToContextMessages`,
// system messages dropped; an older compaction kept at a later index projects nothing, as in Pi's
// own projection), fed to the runtime's branch-view builder, with every message entry of the branch
// by id (those a compaction took out of the context too, indexed on first use): what a fold's source
// is rebuilt from when the fold store has no copy.
//
// Incrementally, one reader per session manager: a read walks back from the leaf through the
// entries' parent links to the last entry the previous read ended on. When it finds that very entry
// (the same object: the same session, at the same place), the branch is the previous one plus what
// the walk passed, and only those entries are read: appended to the branch, and to the context too
// unless one is a compaction. Anything else (another leaf off the old path, a /tree navigation, a
// switched session, a new compaction, other entry types) reads the whole branch again through Pi.
// Reads Pi's session manager; writes nothing.

import type { ExtensionContext, SessionEntry } from "@earendil-works/pi-coding-agent";
import { sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import type { BranchView } from "../policy/index.ts";
import { BranchViewBuilder, type ContextItem } from "../runtime/index.ts";
import type { LogRecord } from "../state/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";
import { ProjectionTokens } from "./projection-tokens.ts";

type ReadonlySessionManager = ExtensionContext["sessionManager"];

/** The one original non-system message `entry` contributes to context at position `index`, if any. */
function messageOf(entry: SessionEntry, index: number): TranscriptMessage | undefined {
	if (entry.type === "compaction" && index > 0) return undefined;
	if (!["message", "custom_message", "branch_summary", "compaction"].includes(entry.type)) return undefined;
	const messages = sessionEntryToContextMessages(entry).filter((m) => m.role !== "system");
	return messages.length === 1 ? (messages[0] as unknown as TranscriptMessage) : undefined;
}

/** Every entry of `branch[0, length)` that gives one message (compaction summaries aside), by id, indexed on first use. */
function branchEntries(branch: readonly SessionEntry[], length: number): (id: string) => TranscriptEntry | undefined {
	let index: Map<string, TranscriptEntry> | undefined;
	return (id) => {
		if (!index) {
			index = new Map();
			for (let i = 0; i < length; i++) {
				const entry = branch[i] as SessionEntry;
				// Index 1: a compaction's summary is never a fold's leaf.
				const message = messageOf(entry, 1);
				if (message) index.set(entry.id, { id: entry.id, message });
			}
		}
		return index.get(id);
	};
}

/** What one reader knows of the branch as of its last read. */
class BranchState {
	/** The branch, root to leaf (only ever appended to; a changed branch gets a new state). */
	readonly branch: SessionEntry[] = [];
	readonly builder: BranchViewBuilder;
	/** The estimated size of Pi's projection of the context fed so far (projection-tokens.ts). */
	readonly projection = new ProjectionTokens();
	/** Entries of the context fed to the builder so far. */
	contextLength = 0;
	compactions = 0;
	/** The latest context_edit or compaction on the branch. */
	latestRewrite: SessionEntry | undefined;
	/** The whole-branch index of the view, for the branch's length it was made at. */
	private index: { length: number; lookup: (id: string) => TranscriptEntry | undefined } | null = null;
	readonly decisionType: string;
	readonly receiptType: string | undefined;

	constructor(decisionType: string, receiptType: string | undefined) {
		this.decisionType = decisionType;
		this.receiptType = receiptType;
		this.builder = new BranchViewBuilder(decisionType, receiptType);
	}

	/** Takes `entries` onto the branch (and their context items onto the context). */
	append(entries: readonly SessionEntry[], context: readonly SessionEntry[]): void {
		for (const entry of entries) {
			this.branch.push(entry);
			if (entry.type === "compaction") this.compactions++;
			if (entry.type === "context_edit" || entry.type === "compaction") this.latestRewrite = entry;
		}
		this.builder.appendBranch(entries);
		const items: ContextItem[] = context.map((entry, i) => ({
			entry,
			message: messageOf(entry, this.contextLength + i),
		}));
		this.contextLength += context.length;
		this.builder.appendContext(items);
		this.projection.append(context);
	}

	/** The view of the branch as read (the same object while nothing was appended). */
	view(leafId: string | null): BranchView {
		const length = this.branch.length;
		if (this.index?.length !== length) this.index = { length, lookup: branchEntries(this.branch, length) };
		return this.builder.view(leafId, this.index.lookup);
	}
}

/** Reads one session manager's active branch, from what was appended since the last read when it can. */
class BranchReader {
	private state: BranchState | null = null;

	/** The state as of the branch now, for these entry types. */
	read(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): BranchState {
		const leafId = sm.getLeafId();
		const previous = this.state;
		const known = previous && previous.decisionType === decisionType && previous.receiptType === receiptType;
		const end = known ? previous.branch.at(-1) : undefined;
		const leaf = leafId ? sm.getEntry(leafId) : undefined;
		if (known && leaf === end) return previous;
		// Walk back from the leaf to the entry the last read ended on.
		const walked: SessionEntry[] = [];
		let current = leaf;
		while (current && current !== end) {
			walked.push(current);
			current = current.parentId ? sm.getEntry(current.parentId) : undefined;
		}
		walked.reverse();
		if (known && current === end && !walked.some((e) => e.type === "compaction")) {
			previous.append(walked, walked);
			return previous;
		}
		const state = new BranchState(decisionType, receiptType);
		state.append(sm.getBranch(), sm.buildContextEntries());
		this.state = state;
		return state;
	}
}

const readers = new WeakMap<ReadonlySessionManager, BranchReader>();

function stateOf(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): BranchState {
	let reader = readers.get(sm);
	if (!reader) {
		reader = new BranchReader();
		readers.set(sm, reader);
	}
	return reader.read(sm, decisionType, receiptType);
}

/**
 * Reads the active branch of `sm`; `decisionType` is pi-fold's decision custom type. Custom messages
 * of `receiptType` (pi-fold's own commit receipts) stay in the window but are not part of the
 * transcript pi-fold folds: a receipt is never re-rendered, and it does not open a chapter.
 */
export function readBranch(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): BranchView {
	return stateOf(sm, decisionType, receiptType).view(sm.getLeafId());
}

/** The same view read from the whole branch through Pi, sharing nothing with the incremental reader (tests compare the two). */
export function readBranchAnew(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): BranchView {
	const state = new BranchState(decisionType, receiptType);
	state.append(sm.getBranch(), sm.buildContextEntries());
	return state.view(sm.getLeafId());
}

/** Only the decision records of the active branch (the view's, read as readBranch reads it). */
export function branchRecords(
	sm: ReadonlySessionManager,
	decisionType: string,
	receiptType?: string,
): readonly LogRecord[] {
	return readBranch(sm, decisionType, receiptType).records;
}

/** The estimated tokens of the messages of Pi's projection of the active branch (projection-tokens.ts). */
export function projectionTokens(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): number {
	return stateOf(sm, decisionType, receiptType).projection.total;
}

/** Native compactions on the active branch. */
export function compactionCount(sm: ReadonlySessionManager, decisionType: string, receiptType?: string): number {
	return stateOf(sm, decisionType, receiptType).compactions;
}

/** Milliseconds of the latest `context_edit` or compaction on the active branch, or null when there is none. */
export function latestRewriteTime(
	sm: ReadonlySessionManager,
	decisionType: string,
	receiptType?: string,
): number | null {
	const entry = stateOf(sm, decisionType, receiptType).latestRewrite;
	if (!entry) return null;
	const ms = Date.parse(entry.timestamp);
	return Number.isFinite(ms) ? ms : null;
}
