// Searching one stored blob: each chunk is read once, hashed (SHA-256, the hashing API's stream; this
// file imports src/wasm/hash-api.ts alone, so the search worker's bundle carries no Wasm core and
// node:crypto serves it there) and scanned from the same bytes, so what a hit shows is exactly what
// was verified. A blob whose digest is not its
// name (or that is missing, a symlink, or not a regular file) keeps none of its hits: the result
// names it and says why. A source the caller rebuilt and verified itself (from the session's own
// entries, when the store has no copy) is scanned as it is (`searchVerifiedBytes`). Reads are synchronous (this runs on a search worker thread, or in-thread
// for a memory store) with O_NOFOLLOW | O_NONBLOCK (a FIFO planted in the store opens at once and is
// refused as not a regular file, as the fold store's reads do), one reusable window per scanner.
// Does its own file I/O.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { createSha256 } from "../../wasm/hash-api.ts";
import type { CompiledQuery } from "./query.ts";
import { BlobScanner, type ScanOutcome, ScanScratch } from "./source-scan.ts";

/** This thread's window memory, reused blob after blob (searches here are synchronous, one at a time). */
const scratch = new ScanScratch();

/** Bytes read (and hashed and scanned) at a time: 1 MiB. */
const SEARCH_READ_BYTES = 1024 * 1024;

/** One blob to search: its address, where it is (a file, or bytes in memory), the anchors wanted. */
export interface SearchTarget {
	readonly sha256: string;
	/** Entry ids whose byte ranges the result should report. */
	readonly anchors?: readonly string[];
}

/** Why a blob's bytes were not shown. */
type BlobFailure = "mismatch" | "missing" | "unreadable";

/** What searching one blob found. `ok: false` results carry no hits. */
export type BlobSearchResult =
	| ({ readonly sha256: string; readonly ok: true } & ScanOutcome)
	| {
			readonly sha256: string;
			readonly ok: false;
			readonly failure: BlobFailure;
			/** The digest of what was read, when a blob was read whole. */
			readonly actual: string | null;
			readonly detail: string;
			readonly bytes: number;
	  };

interface BlobSearchOptions {
	readonly maxHits: number;
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function failed(sha256: string, failure: BlobFailure, detail: string, actual: string | null = null, bytes = 0) {
	return { sha256, ok: false as const, failure, actual, detail, bytes };
}

/** Searches the blob at `path` (named `target.sha256`): one read, hashed and scanned together. */
export function searchBlobFile(
	path: string,
	target: SearchTarget,
	query: CompiledQuery,
	options: BlobSearchOptions,
): BlobSearchResult {
	let fd = -1;
	try {
		fd = openSync(path, OPEN_FLAGS);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return failed(target.sha256, "missing", "blob missing");
		return failed(target.sha256, "unreadable", code === "ELOOP" ? "a symlink, not followed" : `cannot read (${code})`);
	}
	try {
		if (!fstatSync(fd).isFile()) return failed(target.sha256, "unreadable", "not a regular file");
		const scanner = new BlobScanner(query, {
			maxHits: options.maxHits,
			anchors: new Set(target.anchors ?? []),
			scratch,
		});
		const hasher = createSha256();
		let position = 0;
		for (;;) {
			const into = scanner.reserve(SEARCH_READ_BYTES);
			let n = 0;
			while (n < into.length) {
				const got = readSync(fd, into, n, into.length - n, position + n);
				if (got === 0) break;
				n += got;
			}
			hasher.update(into.subarray(0, n));
			position += n;
			const eof = n < into.length;
			scanner.commit(n, eof);
			if (eof) break;
		}
		const actual = hasher.digestHex();
		if (actual !== target.sha256)
			return failed(target.sha256, "mismatch", "the blob does not hash to its name", actual, position);
		return { sha256: target.sha256, ok: true, ...scanner.outcome() };
	} catch (error) {
		return failed(target.sha256, "unreadable", (error as Error).message);
	} finally {
		closeSync(fd);
	}
}

/** One blob of a source stored as several (a manifest fold's entries, in order). */
interface SearchPart {
	readonly path: string;
	readonly sha256: string;
	readonly bytes: number;
}

/** A blob to search, or (with `parts`) a source made of several blobs scanned as one. */
export interface SearchItem {
	readonly path: string;
	readonly target: SearchTarget;
	readonly parts?: readonly SearchPart[];
}

/** Searches one item: a blob, or the parts of a manifest fold. */
export function searchItem(item: SearchItem, query: CompiledQuery, options: BlobSearchOptions): BlobSearchResult {
	return item.parts
		? searchParts(item.parts, item.target, query, options)
		: searchBlobFile(item.path, item.target, query, options);
}

/**
 * Searches a source stored as `parts` (a manifest fold's entries in order) as one stream: each part
 * read once, hashed against its own digest and scanned; a part that is missing, altered or not a
 * regular file fails the whole source, naming the part. The result carries `target.sha256`.
 */
function searchParts(
	parts: readonly SearchPart[],
	target: SearchTarget,
	query: CompiledQuery,
	options: BlobSearchOptions,
): BlobSearchResult {
	const scanner = new BlobScanner(query, { maxHits: options.maxHits, anchors: new Set(target.anchors ?? []), scratch });
	let total = 0;
	if (parts.length === 0) scanner.commit(0, true);
	for (let p = 0; p < parts.length; p++) {
		const part = parts[p] as SearchPart;
		const last = p === parts.length - 1;
		const name = `entry blob ${part.sha256.slice(0, 16)}…`;
		let fd = -1;
		try {
			fd = openSync(part.path, OPEN_FLAGS);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT" || code === "ENOTDIR") return failed(target.sha256, "missing", `${name} missing`);
			return failed(target.sha256, "unreadable", `${name} cannot be read (${code})`);
		}
		try {
			if (!fstatSync(fd).isFile()) return failed(target.sha256, "unreadable", `${name} is not a regular file`);
			const hasher = createSha256();
			let position = 0;
			for (;;) {
				const want = Math.min(SEARCH_READ_BYTES, part.bytes - position + 1);
				const into = scanner.reserve(want);
				let n = 0;
				while (n < into.length) {
					const got = readSync(fd, into, n, into.length - n, position + n);
					if (got === 0) break;
					n += got;
				}
				const eof = n < into.length;
				if (position + n > part.bytes)
					return failed(target.sha256, "mismatch", `${name} is longer than its manifest says`);
				hasher.update(into.subarray(0, n));
				position += n;
				scanner.commit(n, eof && last);
				if (eof) break;
			}
			total += position;
			const actual = hasher.digestHex();
			if (actual !== part.sha256 || position !== part.bytes)
				return failed(target.sha256, "mismatch", `${name} does not hash to its name`, actual, total);
		} catch (error) {
			return failed(target.sha256, "unreadable", (error as Error).message);
		} finally {
			closeSync(fd);
		}
	}
	return { sha256: target.sha256, ok: true, ...scanner.outcome() };
}

/** Searches bytes held in memory (a memory store): hashed and scanned in the same pass. */
export function searchBlobBytes(
	bytes: Uint8Array | undefined,
	target: SearchTarget,
	query: CompiledQuery,
	options: BlobSearchOptions,
): BlobSearchResult {
	if (!bytes) return failed(target.sha256, "missing", "blob missing");
	const scanner = new BlobScanner(query, { maxHits: options.maxHits, anchors: new Set(target.anchors ?? []), scratch });
	const hasher = createSha256();
	for (let at = 0; at < bytes.length || at === 0; at += SEARCH_READ_BYTES) {
		const chunk = bytes.subarray(at, at + SEARCH_READ_BYTES);
		hasher.update(chunk);
		scanner.push(chunk, at + SEARCH_READ_BYTES >= bytes.length);
		if (bytes.length === 0) break;
	}
	const actual = hasher.digestHex();
	if (actual !== target.sha256)
		return failed(target.sha256, "mismatch", "the blob does not hash to its name", actual, bytes.length);
	return { sha256: target.sha256, ok: true, ...scanner.outcome() };
}

/**
 * Scans bytes the caller has verified against `target.sha256` by other means (a fold's source rebuilt
 * from the session's entries and checked against the fold's digest, in either of its forms): no hash
 * here, the result carries `target.sha256`.
 */
export function searchVerifiedBytes(
	bytes: Uint8Array,
	target: SearchTarget,
	query: CompiledQuery,
	options: BlobSearchOptions,
): BlobSearchResult {
	const scanner = new BlobScanner(query, { maxHits: options.maxHits, anchors: new Set(target.anchors ?? []), scratch });
	if (bytes.length === 0) scanner.commit(0, true);
	for (let at = 0; at < bytes.length; at += SEARCH_READ_BYTES)
		scanner.push(bytes.subarray(at, at + SEARCH_READ_BYTES), at + SEARCH_READ_BYTES >= bytes.length);
	return { sha256: target.sha256, ok: true, ...scanner.outcome() };
}
