// The search scanner: finds a compiled query in one fold source fed to it in chunks, in bounded
// memory (a window of the newest chunk plus a small carry), and reports each hit with the entry it
// sits in (the `{"id":...}` that opens its JSON line), its line within that entry's text (1 + the
// newline escapes before it), a short excerpt (the hit's text line, clipped), and the byte ranges of
// any "anchor" entries the caller asked for. It never hashes: the caller hashes the same chunks it
// feeds here (one read per blob) and drops the hits when the digest is wrong. Literal search finds
// candidates by the needle's rarest byte (literal.ts); a literal hit that starts inside a JSON
// escape (the `n` of `\n`) is not a hit. Pure in-memory.

import { LiteralFinder } from "./literal.ts";
import { type CompiledQuery, SEARCH_REGEX_FLAGS } from "./query.ts";

/** Bytes of context an excerpt shows on each side of a hit, at most (its text line, clipped). */
const EXCERPT_SIDE_BYTES = 60;
/** Bytes of a hit an excerpt shows, at most. */
const EXCERPT_MATCH_BYTES = 80;
/** A regex hit is found whole when it is at most this long (windows overlap by this much). */
const REGEX_SPAN_BYTES = 1024;
/** Longest entry id parsed at a line start. */
const ID_MAX_BYTES = 128;
/** An entry that started at most this many bytes back stays in memory, so hits in it get line numbers. */
const LINE_CARRY_BYTES = 1024 * 1024;

/** One hit in a blob. Offsets are bytes from the start of the blob. */
export interface ScanHit {
	readonly offset: number;
	readonly length: number;
	/** The entry whose JSON line holds the hit, or null when its line start was not seen. */
	readonly entryId: string | null;
	/** Byte offset of that entry's line, or null. */
	readonly entryStart: number | null;
	/** 1 + the newline escapes between the entry's start and the hit, or null when not counted. */
	readonly line: number | null;
	/** Source text (UTF-8, JSON-escaped as stored) before the hit, of the hit, and after it, clipped. */
	readonly before: string;
	readonly match: string;
	readonly after: string;
}

/** What a scan found: the first `maxHits` hits, how many there were in all, and the anchors' ranges. */
export interface ScanOutcome {
	readonly hits: ScanHit[];
	readonly hitCount: number;
	readonly bytes: number;
	/** [entry id, start, end) of every anchor entry seen, in blob order. */
	readonly anchors: [string, number, number][];
}

/**
 * Reusable window memory: a scanner grows these and leaves them for the next scanner on the same
 * thread (allocating and zeroing a fresh window per blob would cost more than scanning it).
 */
export class ScanScratch {
	buf: Uint8Array = new Uint8Array(0);
}

interface ScannerOptions {
	/** Hits kept (all are counted). */
	readonly maxHits: number;
	/** Window memory to reuse (one scanner at a time per scratch). */
	readonly scratch?: ScanScratch;
	/** Entry ids whose line ranges to report. */
	readonly anchors?: ReadonlySet<string>;
	/** How far back an entry's start is kept for line numbers (default LINE_CARRY_BYTES; tests use 0). */
	readonly lineCarryBytes?: number;
}

const ID_PREFIX = [0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22]; // {"id":"
const NL = 0x0a;
const BACKSLASH = 0x5c;
const isHex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);

export class BlobScanner {
	private buf: Uint8Array = new Uint8Array(0);
	private len = 0;
	/** Absolute offset of buf[0]. */
	private base = 0;
	/** Index in buf from which hits and line starts are still to be found. */
	private from = 0;
	private entryId: string | null = null;
	private entryStart: number | null = null;
	private lineMemo = { start: -1, pos: 0, count: 0 };
	private open: { id: string; start: number } | null = null;
	private readonly anchorsOut: [string, number, number][] = [];
	private readonly hits: ScanHit[] = [];
	private hitCount = 0;
	private done = false;
	private readonly tail: number;
	private readonly re: RegExp | null;
	private readonly literal: LiteralFinder | null;
	private readonly options: ScannerOptions;

	private readonly scratch: ScanScratch | undefined;

	constructor(query: CompiledQuery, options: ScannerOptions) {
		this.options = options;
		this.scratch = options.scratch;
		if (this.scratch) this.buf = this.scratch.buf;
		this.literal = query.kind === "literal" ? new LiteralFinder(query.needle) : null;
		this.re = query.kind === "regex" ? new RegExp(query.source, SEARCH_REGEX_FLAGS) : null;
		const span = query.kind === "literal" ? query.needle.length : REGEX_SPAN_BYTES;
		this.tail = span + EXCERPT_SIDE_BYTES + ID_MAX_BYTES + ID_PREFIX.length + 8;
	}

	/** A writable view of `n` bytes right after the bytes held; fill it, then `commit`. */
	reserve(n: number): Uint8Array {
		this.ensure(this.len + n);
		return this.buf.subarray(this.len, this.len + n);
	}

	/** Takes `n` reserved bytes as the next bytes of the blob; `eof` on the last call. */
	commit(n: number, eof: boolean): void {
		if (this.done) throw new Error("BlobScanner: commit after the end of the blob");
		this.len += n;
		this.process(eof);
		if (eof) this.done = true;
	}

	/** Feeds bytes (copied); `eof` on the last call. */
	push(bytes: Uint8Array, eof: boolean): void {
		this.reserve(bytes.length).set(bytes);
		this.commit(bytes.length, eof);
	}

	outcome(): ScanOutcome {
		return { hits: this.hits, hitCount: this.hitCount, bytes: this.base + this.len, anchors: this.anchorsOut };
	}

	private ensure(size: number): void {
		if (size <= this.buf.length) return;
		const next = new Uint8Array(Math.max(size, this.buf.length * 2, 64 * 1024));
		next.set(this.buf.subarray(0, this.len));
		this.buf = next;
		if (this.scratch) this.scratch.buf = next;
	}

	private process(eof: boolean): void {
		const limit = eof ? this.len : Math.max(this.from, this.len - this.tail);
		const view = Buffer.from(this.buf.buffer, 0, this.len);
		const newlines: number[] = [];
		// The first line starts at 0; its id is parsed once the window holds it (limit leaves the tail).
		if (this.base === 0 && this.from === 0 && this.entryStart === null && limit > 0) this.startLine(0);
		for (let at = view.indexOf(NL, this.from); at >= 0 && at < limit; at = view.indexOf(NL, at + 1)) newlines.push(at);
		let k = 0;
		let next = this.from;
		const hit = (p: number, length: number) => {
			while (k < newlines.length && (newlines[k] as number) < p) this.startLine((newlines[k++] as number) + 1);
			this.record(p, length);
			next = p + length;
		};
		const literal = this.literal;
		if (literal)
			literal.find(
				view,
				this.from,
				limit,
				(p) => !this.insideEscape(p),
				(p) => hit(p, literal.length),
			);
		else this.findRegex(limit, hit);
		while (k < newlines.length) this.startLine((newlines[k++] as number) + 1);
		if (eof) {
			if (this.open) this.anchorsOut.push([this.open.id, this.open.start, this.base + this.len]);
			this.open = null;
			return;
		}
		this.compact(Math.max(limit, next));
	}

	private findRegex(limit: number, hit: (p: number, length: number) => void): void {
		const re = this.re as RegExp;
		const text = Buffer.from(this.buf.buffer, 0, this.len).toString("latin1");
		re.lastIndex = this.from;
		for (let m = re.exec(text); m !== null && m.index < limit; m = re.exec(text)) {
			if (m[0].length === 0) re.lastIndex = m.index + 1;
			else hit(m.index, m[0].length);
		}
	}

	/** True when a literal hit at `p` starts inside a JSON escape (after an odd run of backslashes, or in \uXXXX). */
	private insideEscape(p: number): boolean {
		const { buf } = this;
		if (backslashesBefore(buf, p) % 2 === 1) return true;
		for (let k = 1; k <= 5 && p - k - 1 >= 0; k++) {
			const at = p - k;
			if (buf[at] === 0x75 && buf[at - 1] === BACKSLASH && backslashesBefore(buf, at) % 2 === 1) return true;
			if (!isHex(buf[at] as number)) return false;
		}
		return false;
	}

	private startLine(s: number): void {
		if (this.open) this.anchorsOut.push([this.open.id, this.open.start, this.base + s]);
		this.open = null;
		this.entryStart = this.base + s;
		this.entryId = this.parseId(s);
		if (this.entryId !== null && this.options.anchors?.has(this.entryId))
			this.open = { id: this.entryId, start: this.base + s };
	}

	private parseId(s: number): string | null {
		const { buf } = this;
		if (s + ID_PREFIX.length > this.len) return null;
		for (let i = 0; i < ID_PREFIX.length; i++) if (buf[s + i] !== ID_PREFIX[i]) return null;
		const start = s + ID_PREFIX.length;
		const stop = Math.min(this.len, start + ID_MAX_BYTES);
		for (let i = start; i < stop; i++) {
			if (buf[i] === BACKSLASH) return null;
			if (buf[i] === 0x22) return Buffer.from(buf.buffer, start, i - start).toString("utf8");
		}
		return null;
	}

	private record(p: number, length: number): void {
		this.hitCount++;
		if (this.hits.length >= this.options.maxHits) return;
		const { buf } = this;
		let left = p;
		for (const floor = Math.max(0, p - EXCERPT_SIDE_BYTES); left > floor; left--) {
			const b = buf[left - 1];
			if (b === NL || (b === 0x6e && left - 2 >= 0 && buf[left - 2] === BACKSLASH)) break;
		}
		const end = p + length;
		let right = end;
		for (const ceil = Math.min(this.len, end + EXCERPT_SIDE_BYTES); right < ceil; right++) {
			const b = buf[right];
			if (b === NL || (b === BACKSLASH && buf[right + 1] === 0x6e)) break;
		}
		const shownEnd = Math.min(end, p + EXCERPT_MATCH_BYTES);
		this.hits.push({
			offset: this.base + p,
			length,
			entryId: this.entryId,
			entryStart: this.entryStart,
			line: this.lineOf(p),
			before: utf8(buf, snapStart(buf, left, p), p),
			match: utf8(buf, p, snapEnd(buf, shownEnd, p)),
			after: end === shownEnd ? utf8(buf, end, snapEnd(buf, right, end)) : "…",
		});
	}

	/** 1 + the newline escapes from the entry's start to `p` (counted incrementally), or null. */
	private lineOf(p: number): number | null {
		if (this.entryStart === null || this.entryStart < this.base) return null;
		const memo = this.lineMemo;
		if (memo.start !== this.entryStart || this.base + p < memo.pos) {
			memo.start = this.entryStart;
			memo.pos = this.entryStart;
			memo.count = 0;
		}
		const { buf } = this;
		let i = memo.pos - this.base;
		while (i < p) {
			if (buf[i] === BACKSLASH) {
				if (buf[i + 1] === 0x6e && i + 1 < p) memo.count++;
				i += 2;
			} else i++;
		}
		memo.pos = this.base + Math.max(i, p);
		return memo.count + 1;
	}

	/** Drops bytes no later hit needs: keeps excerpt context and, when near, the current entry's start. */
	private compact(next: number): void {
		let keep = Math.max(0, next - EXCERPT_SIDE_BYTES - 8);
		const entry = this.entryStart === null ? -1 : this.entryStart - this.base;
		const carry = this.options.lineCarryBytes ?? LINE_CARRY_BYTES;
		if (entry >= 0 && entry < keep && this.len - entry <= carry) keep = entry;
		if (keep > 0) {
			this.buf.copyWithin(0, keep, this.len);
			this.len -= keep;
			this.base += keep;
		}
		this.from = next - keep;
	}
}

function backslashesBefore(buf: Uint8Array, p: number): number {
	let n = 0;
	for (let i = p - 1; i >= 0 && buf[i] === BACKSLASH; i--) n++;
	return n;
}

/** Moves a start index forward off UTF-8 continuation bytes (never past `limit`). */
function snapStart(buf: Uint8Array, at: number, limit: number): number {
	while (at < limit && ((buf[at] as number) & 0xc0) === 0x80) at++;
	return at;
}

/** Moves an end index back so no character is cut (never before `floor`). */
function snapEnd(buf: Uint8Array, at: number, floor: number): number {
	while (at > floor && ((buf[at] as number) & 0xc0) === 0x80) at--;
	return at;
}

function utf8(buf: Uint8Array, from: number, to: number): string {
	return to <= from ? "" : Buffer.from(buf.buffer, from, to - from).toString("utf8");
}
