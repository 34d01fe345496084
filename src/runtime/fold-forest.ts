// The folds on a branch, in exactly one of three places: in the window (placed on the transcript:
// the lattice), summarized by Pi's native compaction but still readable (their entries left the
// context; their records and their sources did not), or unreadable (no source in the fold store, or
// not placeable for another reason). Status and /context count and list them from here (a person's
// views and the footer count the top-level ones, the nested ones beside them: `foldCounts`), and search
// reads the summarized ones through `summarizedSnapshot`: their sources' verified entries laid out as
// a transcript of their own, with the summarized folds placed on it, so the search pipeline places
// hits in them as it does in the window. The fold records come from the branch (they survive a
// compaction as custom entries), and so do the entries they hold: a fold whose blob the store lacks
// is still readable when the branch holds every one of its leaves (its source is rebuilt from them
// and verified against its digest, session-source.ts). The store is asked only whether a blob exists
// (sync) or for the verified source (bound-source.ts).

import { errorMessage } from "../common/index.ts";
import { type FoldRecord, Lattice, type PlacedFold } from "../lattice/index.ts";
import type { Snapshot } from "../policy/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { readBoundSource } from "./bound-source.ts";
import { originalEntry } from "./branch-view.ts";
import type { SourceStore } from "./ports.ts";

/** A fold whose entries Pi's compaction summarized, nested by its leaves among the other such folds. */
export interface SummarizedFold {
	readonly record: FoldRecord;
	readonly parent: string | null;
	readonly depth: number;
}

/** A fold no action can read or show here, and why. */
interface UnreadableFold {
	readonly record: FoldRecord;
	readonly reason: string;
}

export interface FoldForest {
	/** Folds placed on the transcript, in transcript order (the lattice's). */
	readonly window: readonly PlacedFold[];
	/** Summarized folds, each outer fold before the folds nested in it. */
	readonly summarized: readonly SummarizedFold[];
	readonly unreadable: readonly UnreadableFold[];
	/** Every fold in force on the branch: the three places together, each fold once. */
	readonly total: number;
}

/** Whether the store holds a blob (its `has`: no read, no hash). */
export function sourcePresence(store: SourceStore): (sha256: string) => boolean {
	return (sha256) => store.has(sha256);
}

/** Parent and depth of each summarized fold by leaf containment (folds nest or are disjoint). */
function nest(records: readonly FoldRecord[]): SummarizedFold[] {
	const leaves = new Map(records.map((r) => [r.id, new Set(r.leafIds)]));
	const parentOf = new Map<string, string | null>();
	for (const r of records) {
		let best: FoldRecord | null = null;
		for (const o of records)
			if (o !== r && o.leafIds.length > r.leafIds.length && leaves.get(o.id)?.has(r.leafIds[0] as string))
				if (best === null || o.leafIds.length < best.leafIds.length) best = o;
		parentOf.set(r.id, best?.id ?? null);
	}
	const depthOf = (id: string): number => {
		let depth = 0;
		for (let p = parentOf.get(id) ?? null; p !== null && depth < records.length; p = parentOf.get(p) ?? null) depth++;
		return depth;
	};
	const out: SummarizedFold[] = [];
	const walk = (parent: string | null) => {
		for (const r of records)
			if (parentOf.get(r.id) === parent) {
				out.push({ record: r, parent, depth: depthOf(r.id) });
				walk(r.id);
			}
	};
	walk(null);
	return out;
}

/** The folds in force on the snapshot's branch, each in one place; `present` says whether a source is stored. */
export function foldForest(snap: Snapshot, present: (sha256: string) => boolean): FoldForest {
	const window = snap.lattice.inOrder();
	const why = new Map(snap.unplaced.map((u) => [u.id, u.reason]));
	const summarized: FoldRecord[] = [];
	const unreadable: UnreadableFold[] = [];
	const inContext = new Set(snap.view.transcript.map((e) => e.id));
	for (const record of snap.state.folds.values()) {
		if (snap.lattice.get(record.id)) continue;
		// No blob: the session's entries stand in when the branch holds every leaf (verified when read).
		const missing = present(record.sourceSha256)
			? undefined
			: record.leafIds.find((id) => originalEntry(snap.view, id) === undefined);
		if (missing !== undefined)
			unreadable.push({
				record,
				reason: `its source (sha256 ${record.sourceSha256.slice(0, 16)}…) is not in the fold store, and entry ${missing} is not on this branch to rebuild it from`,
			});
		// Its entries left the context: Pi's compaction summarized them (the branch still holds them).
		else if (record.leafIds.some((id) => !inContext.has(id))) summarized.push(record);
		else unreadable.push({ record, reason: why.get(record.id) ?? "it cannot be placed on this branch" });
	}
	return {
		window,
		summarized: nest(summarized),
		unreadable,
		total: window.length + summarized.length + unreadable.length,
	};
}

/** The summarized fold with this id, if it is one. */
export function summarizedFold(forest: FoldForest, id: string): SummarizedFold | undefined {
	return forest.summarized.find((f) => f.record.id === id);
}

/**
 * A snapshot whose transcript is the summarized folds' own entries (read from the store, or rebuilt
 * from the branch's entries when it has no copy; verified, bound to each fold) and whose lattice places those folds on them: the outermost readable
 * summarized folds side by side, oldest record first. `within` narrows it to one summarized fold
 * and what is nested in it. A source that cannot be read is named; the folds nested in it are read
 * instead.
 */
export async function summarizedSnapshot(
	snap: Snapshot,
	forest: FoldForest,
	store: SourceStore,
	within?: string,
): Promise<{ snap: Snapshot; failed: { id: string; reason: string }[] }> {
	const entries: TranscriptEntry[] = [];
	const placed: FoldRecord[] = [];
	const failed: { id: string; reason: string }[] = [];
	const children = (parent: string | null) => forest.summarized.filter((f) => f.parent === parent);
	const under = (id: string): SummarizedFold[] => {
		const out: SummarizedFold[] = [];
		for (const c of children(id)) out.push(c, ...under(c.record.id));
		return out;
	};
	const top = within === undefined ? children(null) : forest.summarized.filter((f) => f.record.id === within);
	const read = async (fold: SummarizedFold): Promise<void> => {
		try {
			const own = await readBoundSource(store, fold.record, snap.view);
			entries.push(...own);
			placed.push(fold.record, ...under(fold.record.id).map((f) => f.record));
		} catch (error) {
			failed.push({ id: fold.record.id, reason: errorMessage(error) });
			for (const c of children(fold.record.id)) await read(c);
		}
	};
	for (const fold of top) await read(fold);
	let lattice: Lattice;
	try {
		lattice = Lattice.build(entries, placed);
	} catch {
		// Folds that do not nest as their records say: keep the outermost ones, whose sources were read.
		lattice = Lattice.build(
			entries,
			placed.filter((r) => top.some((t) => t.record.id === r.id)),
		);
	}
	return { snap: { ...snap, view: { ...snap.view, transcript: entries }, lattice }, failed };
}

/**
 * The one way folds are counted wherever a person looks (the headline, the listing, the footer): the
 * top-level folds, those the listing shows (in the window, or summarized by Pi and still readable),
 * and, beside them, every fold counting those nested inside and those no one can read.
 */
export interface FoldCounts {
	/** Top-level folds in the window. */
	readonly inWindow: number;
	/** Of those, expanded. */
	readonly expanded: number;
	/** Top-level folds Pi's compaction summarized, still readable. */
	readonly summarized: number;
	readonly unreadable: number;
	/** Every fold in force, nested ones included. */
	readonly all: number;
}

export function foldCounts(forest: FoldForest, expanded: ReadonlySet<string>): FoldCounts {
	const top = forest.window.filter((f) => f.parent === null);
	return {
		inWindow: top.length,
		expanded: top.filter((f) => expanded.has(f.record.id)).length,
		summarized: forest.summarized.filter((f) => f.parent === null).length,
		unreadable: forest.unreadable.length,
		all: forest.total,
	};
}
