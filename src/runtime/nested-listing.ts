// A fold that holds other folds (a consolidation, a chapter that absorbed tool folds, an agent's fold
// over a span the ladder had folded inside) lists their handles after its brief with what each covers
// (src/briefs listing.ts), so every fold in the tree can be reached from a brief in the window by
// following handles. This module gathers the coverage from the snapshot: the folds directly inside
// the span, their briefs, entry counts, the time range of their messages and the files read in
// them. A ladder fold also quotes the user messages it holds, verbatim (withQuotesAndListing). Pure
// over the snapshot.

import {
	BRIEF_MAX_CHARS,
	briefWithListing,
	briefWithQuotes,
	type NestedCoverage,
	nameIndex,
	nestedListing,
	userQuotes,
} from "../briefs/index.ts";
import type { FoldRecord, PlacedFold } from "../lattice/index.ts";
import type { Snapshot } from "../policy/index.ts";

/**
 * The folds directly inside entries [start, end): inside it, and not inside another fold inside it.
 * Folds in `replaced` (the folds a merge replaces) do not count; their children take their place.
 */
function foldsDirectlyIn(
	snap: Snapshot,
	start: number,
	end: number,
	replaced: ReadonlySet<string> = new Set(),
): PlacedFold[] {
	const inside = snap.lattice
		.inOrder()
		.filter((f) => start <= f.start && f.end <= end && !(f.start === start && f.end === end))
		.filter((f) => !replaced.has(f.record.id));
	return inside.filter((f) => !inside.some((o) => o !== f && o.start <= f.start && f.end <= o.end));
}

function coverage(snap: Snapshot, fold: PlacedFold): NestedCoverage {
	let from: number | undefined;
	let to: number | undefined;
	for (let i = fold.start; i < fold.end; i++) {
		const t = snap.view.transcript[i]?.message.timestamp;
		if (typeof t !== "number" || !Number.isFinite(t)) continue;
		from = from === undefined ? t : Math.min(from, t);
		to = to === undefined ? t : Math.max(to, t);
	}
	const files = new Set<string>();
	for (const f of snap.lattice.inOrder())
		if (fold.start <= f.start && f.end <= fold.end) for (const r of f.record.reads ?? []) files.add(r.path);
	return {
		id: fold.record.id,
		brief: fold.record.brief,
		entries: fold.record.leafIds.length,
		from,
		to,
		files: [...files],
	};
}

/** `record` (a new fold over [start, end)) with its brief followed by the listing of the folds it holds. */
export function withNestedListing(
	snap: Snapshot,
	start: number,
	end: number,
	record: FoldRecord,
	replaced?: ReadonlySet<string>,
): FoldRecord {
	const children = foldsDirectlyIn(snap, start, end, replaced);
	if (children.length === 0) return record;
	const listing = nestedListing(children.map((f) => coverage(snap, f)));
	return { ...record, brief: briefWithListing(record.brief, listing) };
}

/** Room a brief keeps for its own summary beside the quotes and the listing. */
const SUMMARY_MIN_CHARS = 200;

/**
 * A ladder fold's `record` over [start, end): its brief, the verbatim quotes of the user messages it
 * holds (src/briefs user-quotes.ts), the index of the names it holds (src/briefs name-index.ts, its
 * children's included), then the listing of the folds it holds; the summary shortens.
 */
export function withQuotesAndListing(snap: Snapshot, start: number, end: number, record: FoldRecord): FoldRecord {
	const leaves = snap.view.transcript.slice(start, end);
	const children = foldsDirectlyIn(snap, start, end);
	const listing = children.length === 0 ? "" : nestedListing(children.map((f) => coverage(snap, f)));
	const quotes = userQuotes(leaves, BRIEF_MAX_CHARS - listing.length - SUMMARY_MIN_CHARS);
	const later = snap.view.transcript.slice(end);
	const names = nameIndex(leaves, BRIEF_MAX_CHARS - listing.length - quotes.length - SUMMARY_MIN_CHARS, later);
	const middle = [quotes, names].filter((part) => part.length > 0).join(" ");
	if (!middle) return children.length === 0 ? record : { ...record, brief: briefWithListing(record.brief, listing) };
	return { ...record, brief: briefWithQuotes(record.brief.replace(/\s+/g, " ").trim(), middle, listing) };
}
