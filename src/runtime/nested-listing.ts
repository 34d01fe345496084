// A fold that holds other folds (a consolidation, a chapter that absorbed tool folds, an agent's fold
// over a span the ladder had folded inside) lists their handles after its brief with what each covers
// (src/briefs listing.ts), so every fold in the tree can be reached from a brief in the window by
// following handles. This module gathers the coverage from the snapshot: the folds directly inside
// the span, their briefs, entry counts, the time range of their messages and the files read in
// them. A ladder fold also quotes the user messages it holds, verbatim (withQuotesAndListing), and
// every fold made here carries the index of the names it holds (withNames). Pure over the snapshot.

import {
	BRIEF_MAX_CHARS,
	briefWithListing,
	briefWithQuotes,
	expandPathGroups,
	linesInUse,
	mostUsedSpans,
	type NestedCoverage,
	nameIndex,
	nameIndexRoom,
	nestedListing,
	quotable,
	spansIn,
	spansOf,
	tokensOf,
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
	if (children.length === 0) return withNames(snap, start, end, record);
	const listing = nestedListing(children.map((f) => coverage(snap, f)));
	return withNames(snap, start, end, { ...record, brief: briefWithListing(record.brief, listing) });
}

/**
 * `record` (a new fold over [start, end)) with the index of the names it holds, its children's
 * included (src/briefs name-index.ts), in a room that grows with its source, and the lines of its
 * results the agent went on to use, verbatim (lines-in-use.ts); the entries after the span say which
 * names the agent went on to use. Made after the brief is final: a name the brief states is not
 * listed again.
 */
function withNames(snap: Snapshot, start: number, end: number, record: FoldRecord): FoldRecord {
	const leaves = snap.view.transcript.slice(start, end);
	const later = snap.view.transcript.slice(end);
	// The code spans the index may list (the agent's most used, after and inside the span), which
	// another fold's placeholder may already list.
	const spans = [...new Set([...mostUsedSpans(spansIn(later)), ...mostUsedSpans(spansIn(leaves))])];
	const names = nameIndex(
		leaves,
		nameIndexRoom(record.sourceBytes, snap.budget.budgetTokens),
		later,
		shownOutside(snap, start, end, spans),
		record.brief,
	);
	const inUse = linesInUse(leaves, later);
	return { ...record, ...(names ? { names } : {}), ...(inUse ? { inUse } : {}) };
}

/** A fold's brief and name index as its placeholder shows them. */
function placeholderText(fold: FoldRecord): string {
	return `${fold.brief}\n${fold.names ?? ""}`;
}

/** The names a fold's placeholder shows (its brief and name index), read once per record. */
const shownByRecord = new WeakMap<FoldRecord, readonly string[]>();
function namesShownBy(fold: FoldRecord): readonly string[] {
	const known = shownByRecord.get(fold);
	if (known) return known;
	// A path its index writes in a directory's group counts as shown, whole.
	const names = [...quotable(`${fold.brief}\n${expandPathGroups(fold.names ?? "")}`).keys()];
	shownByRecord.set(fold, names);
	return names;
}

/**
 * The names the window shows outside entries [start, end): in the raw entries and in the briefs and
 * name indexes of the folds in force, and those of `spans` (code spans, which no token class reads)
 * that such a placeholder holds. A fold's index leaves them out: the agent sees them already,
 * and whatever later folds what shows them indexes them itself.
 */
function shownOutside(snap: Snapshot, start: number, end: number, spans: readonly string[] = []): Set<string> {
	const out = new Set<string>();
	for (const item of snap.lattice.visible(snap.state.expanded)) {
		if (item.type === "entry") {
			if (item.index >= start && item.index < end) continue;
			const entry = snap.view.transcript[item.index];
			if (!entry) continue;
			for (const token of tokensOf(entry.message).keys()) out.add(token);
			for (const span of spansOf(entry.message).keys()) out.add(span);
			continue;
		}
		if (item.start >= start && item.end <= end) continue;
		const fold = snap.lattice.get(item.id)?.record;
		if (!fold) continue;
		for (const token of namesShownBy(fold)) out.add(token);
		for (const span of spans) if (!out.has(span) && placeholderText(fold).includes(span)) out.add(span);
	}
	return out;
}

/** Room a brief keeps for its own summary beside the quotes and the listing. */
const SUMMARY_MIN_CHARS = 200;

/**
 * A ladder fold's `record` over [start, end): its brief, the verbatim quotes of the user messages it
 * holds (src/briefs user-quotes.ts), then the listing of the folds it holds (the summary shortens),
 * and the index of the names it holds beside the brief (withNames).
 */
export function withQuotesAndListing(snap: Snapshot, start: number, end: number, record: FoldRecord): FoldRecord {
	const leaves = snap.view.transcript.slice(start, end);
	const children = foldsDirectlyIn(snap, start, end);
	const listing = children.length === 0 ? "" : nestedListing(children.map((f) => coverage(snap, f)));
	const quotes = userQuotes(leaves, BRIEF_MAX_CHARS - listing.length - SUMMARY_MIN_CHARS);
	const brief = !quotes
		? children.length === 0
			? record.brief
			: briefWithListing(record.brief, listing)
		: briefWithQuotes(record.brief.replace(/\s+/g, " ").trim(), quotes, listing);
	return withNames(snap, start, end, { ...record, brief });
}
