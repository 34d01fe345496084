// The listing a ladder fold's brief carries when it holds other folds (a consolidation, a chapter
// that absorbed tool folds): every nested fold's handle and what it covers (the start of its brief,
// its entries, the time range of its messages, files read in it), so any fold inside can be reached
// from a brief in the window by following handles. Deterministic and bounded: handles always fit
// (a consolidation holds two folds, a chapter a few), coverage is shortened to share what is left,
// and the summary gets the rest of BRIEF_MAX_CHARS. Pure.

import { nounFor } from "../common/index.ts";
import { BRIEF_MAX_CHARS, boundBrief } from "./deterministic.ts";

/** What one nested fold covers, as its listing line shows it. */
export interface NestedCoverage {
	readonly id: string;
	readonly brief: string;
	readonly entries: number;
	/** First and last message timestamps (ms since the epoch), when the messages carry them. */
	readonly from?: number | undefined;
	readonly to?: number | undefined;
	/** Files read inside it (paths as the reads named them). */
	readonly files: readonly string[];
}

/** Characters the listing may take (the summary keeps at least the rest). */
const LISTING_MAX_CHARS = 800;
/** Files named per nested fold at most. */
const FILES_LISTED = 3;

function flat(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

function cut(text: string, n: number): string {
	if (n <= 1) return "";
	return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

/** "11:02-11:15 UTC" (or with dates when the range crosses a day). */
export function timeRange(from: number | undefined, to: number | undefined): string {
	if (from === undefined || to === undefined) return "";
	const a = new Date(from).toISOString();
	const b = new Date(to).toISOString();
	const sameDay = a.slice(0, 10) === b.slice(0, 10);
	const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
	return sameDay ? `${a.slice(11, 16)}-${b.slice(11, 16)} UTC` : `${day(a)}-${day(b)} UTC`;
}

/** A brief without the listing of the folds it holds: a listing line quotes a child's own words, not its listing. */
function ownSummary(brief: string): string {
	const at = brief.indexOf(" Holds ");
	return at > 0 && /^ Holds \d+ folds \(/.test(brief.slice(at)) ? brief.slice(0, at) : brief;
}

/** One nested fold's line, at most `budget` characters (its handle always whole). */
function line(c: NestedCoverage, budget: number): string {
	const facts = [`${c.entries} ${nounFor(c.entries, "entry", "entries")}`];
	const when = timeRange(c.from, c.to);
	if (when) facts.push(when);
	const files = c.files.slice(0, FILES_LISTED).join(", ");
	if (files) facts.push(`read ${files}${c.files.length > FILES_LISTED ? ` +${c.files.length - FILES_LISTED}` : ""}`);
	const head = `${c.id}: `;
	const tail = ` (${facts.join(", ")})`;
	const room = budget - head.length - tail.length - 2;
	if (room < 12) return `${head}${cut(tail.slice(2, -1), Math.max(0, budget - head.length))}`;
	return `${head}"${cut(flat(ownSummary(c.brief)), room)}"${tail}`;
}

/**
 * The listing of nested folds: within LISTING_MAX_CHARS when coverage can shrink to fit; handles
 * alone for a long list; past what a brief can hold, the first handles and a count of the rest.
 */
export function nestedListing(children: readonly NestedCoverage[]): string {
	if (children.length === 0) return "";
	const head = `Holds ${children.length} folds (peek or search any by id): `;
	const each = Math.max(HANDLE_CHARS, Math.floor((LISTING_MAX_CHARS - head.length) / children.length) - 2);
	const lines = children.map((c) => (each <= HANDLE_CHARS ? c.id : line(c, each)));
	const fit = BRIEF_MAX_CHARS - MORE_CHARS;
	let text = head;
	for (const [i, l] of lines.entries()) {
		if (text.length + l.length + 2 > fit)
			return `${text.slice(0, -2)}; +${lines.length - i} more (status "tree" lists them).`;
		text += `${l}; `;
	}
	return `${text.slice(0, -2)}.`;
}

/** A fold id and its separator: what a listing line cannot go below. */
const HANDLE_CHARS = 17;
/** Room kept for the "+N more" tail and a few words of summary. */
const MORE_CHARS = 80;

/** A summary followed by the listing, bounded to BRIEF_MAX_CHARS (the summary is what shortens). */
export function briefWithListing(summary: string, listing: string): string {
	if (!listing) return boundBrief(summary);
	const room = BRIEF_MAX_CHARS - listing.length - 1;
	return `${cut(flat(summary), room)} ${listing}`.trim();
}
