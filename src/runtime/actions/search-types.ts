// The search action's shared shapes and limits: its arguments, a hit placed in the innermost fold
// that holds it, the ranges of anchor entries, and what a search found. Types and constants only.

import type { PlacedFold } from "../../lattice/index.ts";
import type { BlobSearchResult, ScanHit } from "../../store/index.ts";

/** Hits per page when `limit` is not given, and at most. */
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 10;
/** Hits kept per search at most (page x limit): pages past this are refused. */
export const SEARCH_MAX_HITS = 500;
/** A search stops after this long (a pathological regex, a huge history) and says so. */
export const SEARCH_TIME_LIMIT_MS = 5_000;

export interface SearchArgs {
	readonly pattern: string;
	readonly regex?: boolean | undefined;
	readonly fold?: string | undefined;
	readonly limit?: number | undefined;
	readonly page?: number | undefined;
}

/** One hit placed in the innermost fold that holds it. */
export interface PlacedHit {
	readonly fold: PlacedFold;
	readonly hit: ScanHit;
	/** Byte offset of the hit, and of its entry's line, in `fold`'s own source. */
	readonly offset: number;
	readonly entryStart: number | null;
	/** Transcript position of the entry (sort key), or the scanned fold's start. */
	readonly at: number;
	/** Anchor entries of the scanned source (read results among them), with ranges in their innermost fold. */
	readonly ranges: ReadonlyMap<string, EntryRange>;
}

/** An entry's byte range [start, end) in the source of the innermost fold that holds it. */
export interface EntryRange {
	readonly fold: PlacedFold;
	readonly start: number;
	readonly end: number;
}

/** What the scan found: hits placed, failed sources, what was scanned, why it stopped early. */
export interface SearchFindings {
	readonly hits: PlacedHit[];
	readonly total: number;
	readonly failed: { fold: PlacedFold; result: Extract<BlobSearchResult, { ok: false }>; instead: string[] }[];
	readonly sources: number;
	/** Of those, sources the store had no copy of, rebuilt from the session's entries and verified. */
	readonly rebuilt: number;
	readonly sourcesPlanned: number;
	readonly bytes: number;
	readonly stopped: string | null;
}
