// The search action: finds a pattern in the exact sources of the folds on this branch (every
// top-level fold, those Pi's compaction summarized included (fold-forest.ts lays their verified
// entries out as a lattice of their own), or one fold with everything nested in it), each source read once, verified
// against its SHA-256 and scanned from the same bytes by the fold store. Top-level sources hold
// their nested folds' entries, so each entry is scanned once; a hit is reported in the innermost
// fold that holds it, at its byte offset in that fold's own source (the scanner reports where each
// nested fold's first entry starts), with a ready peek call. A source the store has no copy of (the
// store deleted, a blob gone) is rebuilt from the session's own entries, every entry of the branch
// (those Pi's compaction summarized too), verified against the fold's SHA-256 and scanned, as peek
// and expand read it. A source that fails verification shows none of its bytes: it is named, and the
// folds nested in it are searched instead. It records nothing and never changes the window.
// Rendering is search-render.ts.

import { errorMessage } from "../../common/index.ts";
import { isFileReadTool, type PlacedFold } from "../../lattice/index.ts";
import type { Snapshot } from "../../policy/index.ts";
import type { BlobSearchResult, CompiledQuery, FileState, SearchTarget } from "../../store/index.ts";
import { compileQuery, searchVerifiedBytes } from "../../store/index.ts";
import { foldForest, sourcePresence, summarizedFold, summarizedSnapshot } from "../fold-forest.ts";
import { sessionSource } from "../session-source.ts";
import { readsUnder, staleOf } from "../stale.ts";
import { annotate, type SearchNotes } from "./search-notes.ts";
import { AGENT_ASK, humanAsk, renderSearch } from "./search-render.ts";
import {
	type EntryRange,
	type PlacedHit,
	SEARCH_DEFAULT_LIMIT,
	SEARCH_MAX_HITS,
	SEARCH_TIME_LIMIT_MS,
	type SearchArgs,
	type SearchFindings,
} from "./search-types.ts";
import { type ActionInput, type ActionResult, refuse } from "./shared.ts";

/** Entries whose byte ranges one source's scan reports at most (nested folds' first entries, reads). */
const ANCHORS_MAX = 4_096;
/** Rounds of "search the nested folds of a source that failed" at most. */
const FALLBACK_ROUNDS = 8;

/** One lattice searched: the window's, or the summarized folds' (fold-forest.ts), and the folds to scan. */
interface SearchPart {
	readonly snap: Snapshot;
	readonly scope: PlacedFold[];
}

export async function searchAction(input: ActionInput, args: SearchArgs): Promise<ActionResult> {
	const compiled = compileQuery({ pattern: args.pattern, regex: args.regex === true });
	if (!compiled.ok) return refuse("search", `pattern: ${compiled.error}`);
	const limit = args.limit ?? SEARCH_DEFAULT_LIMIT;
	const page = args.page ?? 1;
	if (page * limit > SEARCH_MAX_HITS)
		return refuse("search", `page ${page} of ${limit} is past the first ${SEARCH_MAX_HITS} hits; narrow the pattern`);
	const snap = input.runtime.snapshot(input.host);
	const planned = await partsOf(input, snap, args.fold);
	if (typeof planned === "string") return refuse("search", planned);
	const { parts, unread } = planned;
	if (parts.every((p) => p.scope.length === 0) && unread.length === 0)
		return { text: "No folds on this branch to search.", details: { action: "search", total: 0, sources: 0 } };
	const deadline = Date.now() + SEARCH_TIME_LIMIT_MS;
	const found: SearchFindings[] = [];
	for (const part of parts)
		found.push(await find(input, part.snap, part.scope, compiled.query, page * limit, deadline));
	const findings = merged(found, unread);
	const shown = findings.hits.slice((page - 1) * limit, page * limit);
	// Each hit is annotated from its own lattice's entries (a summarized fold's come from its source).
	const perHit: SearchNotes["perHit"][number][] = [];
	const readEntries: string[] = [];
	const stale = new Map<string, FileState>();
	found.forEach((f, i) => {
		const part = parts[i] as SearchPart;
		const mine = shown.filter((h) => f.hits.includes(h));
		const notes = annotate(part.snap, mine);
		readEntries.push(...notes.readEntries);
		mine.forEach((h, k) => {
			perHit[shown.indexOf(h)] = notes.perHit[k] as SearchNotes["perHit"][number];
		});
		const held = readsUnder(part.snap, part.scope);
		const flagged = staleOf(
			input.runtime,
			input.host,
			notes.readEntries.flatMap((e) => held.get(e) ?? []),
		);
		for (const [entry, state] of flagged) stale.set(entry, state);
	});
	const ask = input.actor === "human" ? humanAsk(input.runtime.options.commandNames.fold) : AGENT_ASK;
	return renderSearch({ ...args, limit, page }, findings, shown, { perHit, readEntries }, stale, ask);
}

/**
 * What to scan: the summarized folds' lattice (older: Pi compacts the oldest entries first), then
 * the window's top-level folds; or one fold, wherever it is. A string: why the fold is not searchable.
 */
async function partsOf(
	input: ActionInput,
	snap: Snapshot,
	fold: string | undefined,
): Promise<string | { parts: SearchPart[]; unread: { id: string; reason: string }[] }> {
	const placed = fold === undefined ? undefined : snap.lattice.get(fold);
	if (placed) return { parts: [{ snap, scope: [placed] }], unread: [] };
	const store = input.runtime.store(input.host);
	const forest = foldForest(snap, sourcePresence(store));
	if (fold !== undefined && !summarizedFold(forest, fold)) {
		const gone = forest.unreadable.find((u) => u.record.id === fold);
		return gone ? `fold ${fold} cannot be read: ${gone.reason}` : `no fold ${fold} on this branch`;
	}
	const parts: SearchPart[] = [];
	let unread: { id: string; reason: string }[] = [];
	if (forest.summarized.length > 0) {
		const summarized = await summarizedSnapshot(snap, forest, store, fold);
		unread = summarized.failed;
		const roots = summarized.snap.lattice.roots.map((id) => summarized.snap.lattice.get(id) as PlacedFold);
		parts.push({ snap: summarized.snap, scope: roots });
	}
	if (fold === undefined)
		parts.push({ snap, scope: snap.lattice.roots.map((id) => snap.lattice.get(id) as PlacedFold) });
	return { parts, unread };
}

/** The parts' findings as one (summarized hits first), with the summarized sources that could not be read. */
function merged(found: readonly SearchFindings[], unread: readonly { id: string; reason: string }[]): SearchFindings {
	const failed: SearchFindings["failed"] = unread.map((u) => ({
		fold: { record: { id: u.id, sourceSha256: "" } } as unknown as PlacedFold,
		result: { sha256: "", ok: false, failure: "unreadable", actual: null, detail: u.reason, bytes: 0 },
		instead: [],
	}));
	return {
		hits: found.flatMap((f) => f.hits),
		total: found.reduce((n, f) => n + f.total, 0),
		failed: [...failed, ...found.flatMap((f) => f.failed)],
		sources: found.reduce((n, f) => n + f.sources, 0),
		rebuilt: found.reduce((n, f) => n + f.rebuilt, 0),
		sourcesPlanned: found.reduce((n, f) => n + f.sourcesPlanned, 0),
		bytes: found.reduce((n, f) => n + f.bytes, 0),
		stopped: found.find((f) => f.stopped !== null)?.stopped ?? null,
	};
}

/** The folds directly nested in `fold`. */
function childFolds(snap: Snapshot, fold: PlacedFold): PlacedFold[] {
	return fold.children.flatMap((c) => (c.type === "fold" ? [snap.lattice.get(c.id) as PlacedFold] : []));
}

/** Entries whose ranges the scan of `fold`'s source should report: nested folds' first entries, file reads. */
function anchorsOf(snap: Snapshot, fold: PlacedFold): string[] {
	const out = new Set<string>();
	for (const f of snap.lattice.inOrder())
		if (f !== fold && fold.start <= f.start && f.end <= fold.end) out.add(f.record.leafIds[0] as string);
	for (let i = fold.start; i < fold.end && out.size < ANCHORS_MAX; i++) {
		const entry = snap.view.transcript[i];
		if (entry?.message.role === "toolResult" && isFileReadTool(String(entry.message.toolName ?? ""))) out.add(entry.id);
	}
	return [...out].slice(0, ANCHORS_MAX);
}

async function find(
	input: ActionInput,
	snap: Snapshot,
	scope: PlacedFold[],
	query: CompiledQuery,
	maxHits: number,
	deadline: number,
): Promise<SearchFindings> {
	const store = input.runtime.store(input.host);
	const found: { fold: PlacedFold; result: Extract<BlobSearchResult, { ok: true }> }[] = [];
	const failed: SearchFindings["failed"] = [];
	let pending = scope;
	let stopped: string | null = null;
	let sources = 0;
	let rebuilt = 0;
	let planned = 0;
	let bytes = 0;
	for (let round = 0; pending.length > 0 && stopped === null && round < FALLBACK_ROUNDS; round++) {
		planned += pending.length;
		const targets = pending.map((f) => ({ sha256: f.record.sourceSha256, anchors: anchorsOf(snap, f) }));
		const timeLimitMs = Math.max(1, deadline - Date.now());
		const run = await store.search(targets, query, { maxHits, timeLimitMs });
		stopped = run.stopped;
		const next: PlacedFold[] = [];
		run.results.forEach((stored, i) => {
			const fold = pending[i] as PlacedFold;
			// No copy in the store: the session's entries stand in, verified against the fold's digest.
			const missing = stored !== undefined && !stored.ok && stored.failure === "missing";
			const result = missing ? rebuiltScan(snap, fold, targets[i] as SearchTarget, query, maxHits) : stored;
			if (!result) return;
			sources++;
			if (missing && result.ok) rebuilt++;
			bytes += result.bytes;
			if (result.ok) found.push({ fold, result });
			else {
				const instead = childFolds(snap, fold);
				failed.push({ fold, result, instead: instead.map((f) => f.record.id) });
				next.push(...instead);
			}
		});
		pending = next;
	}
	const hits = found.flatMap(({ fold, result }) => placeHits(snap, fold, result));
	hits.sort((a, b) => a.at - b.at || a.hit.offset - b.hit.offset);
	const total = found.reduce((sum, f) => sum + f.result.hitCount, 0);
	return { hits, total, failed, sources, rebuilt, sourcesPlanned: planned, bytes, stopped };
}

/**
 * `fold`'s source rebuilt from the branch's entries (session-source.ts: every leaf, compacted ones
 * too, hashing to the fold's recorded digest) and scanned; a rebuild that fails is the source's
 * failure, naming why, and none of its bytes are shown.
 */
function rebuiltScan(
	snap: Snapshot,
	fold: PlacedFold,
	target: SearchTarget,
	query: CompiledQuery,
	maxHits: number,
): BlobSearchResult {
	let source: string;
	try {
		source = sessionSource(snap.view, fold.record);
	} catch (error) {
		const detail = errorMessage(error);
		return { sha256: target.sha256, ok: false, failure: "missing", actual: null, detail, bytes: 0 };
	}
	return searchVerifiedBytes(new TextEncoder().encode(source), target, query, { maxHits });
}

/** Places each hit of `scanned`'s source in the innermost fold holding its entry. */
function placeHits(snap: Snapshot, scanned: PlacedFold, result: Extract<BlobSearchResult, { ok: true }>): PlacedHit[] {
	const anchors = new Map(result.anchors.map(([id, start, end]) => [id, { start, end }]));
	const inner = (index: number): { fold: PlacedFold; base: number } => {
		const fold = snap.lattice.innermostAt(index);
		const base = fold === undefined || fold === scanned ? 0 : anchors.get(fold.record.leafIds[0] as string)?.start;
		return fold !== undefined && base !== undefined ? { fold, base } : { fold: scanned, base: 0 };
	};
	const ranges = new Map<string, EntryRange>();
	for (const [id, range] of anchors) {
		const at = snap.lattice.position.get(id);
		if (at === undefined) continue;
		const where = inner(at);
		ranges.set(id, { fold: where.fold, start: range.start - where.base, end: range.end - where.base });
	}
	return result.hits.map((hit) => {
		const at = hit.entryId === null ? undefined : snap.lattice.position.get(hit.entryId);
		const where = at === undefined ? { fold: scanned, base: 0 } : inner(at);
		return {
			fold: where.fold,
			hit,
			offset: hit.offset - where.base,
			entryStart: hit.entryStart === null ? null : hit.entryStart - where.base,
			at: at ?? scanned.start,
			ranges,
		};
	});
}
