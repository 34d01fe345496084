// The fold store: each fold's exact source (canonical bytes, UTF-8) stored content-addressed by
// SHA-256 with the verifier's layout (src/verify: `<dir>/sha256/<2 hex>/<64 hex>`, a `.tree` chunk
// sidecar beside sources larger than the tree threshold, atomic tmp+fsync+rename writes, files 0444,
// directories 0700). Every read is verified before a byte is returned:
//
// - `read(sha, label, expectedBytes?)` reads the whole blob and hashes it against its name.
// - `readSlice(sha, offset, bytes, label, expectedBytes?)` returns the UTF-8-snapped range
//   [offset, offset+bytes) (outward snapping, so paging with offset = previous end tiles the source
//   exactly). Small blobs (no sidecar) are hashed whole, keeping only the range. Large blobs are
//   verified by the sidecar chunks the range touches only, with the sidecar's root PINNED: by `put`
//   in this process, or, the first time an unpinned large blob is sliced (after a restart), by one
//   whole-blob verification that also recomputes the root. So a consistently rewritten blob + sidecar
//   pair never passes on trust. Any chunk-level failure falls back to whole verification against the
//   name; only a blob that does not hash to its name (or is missing, or was refused) is refused.
//
// Every read is checked before the blob is opened (source-read.ts, src/verify/safe-open.ts): a blob
// that is not a regular file (symlink, FIFO, socket, device, folder), or whose size is not the
// `expectedBytes` the fold recorded, is refused by name unopened; opens never block; reads are
// bounded calls, and memory holds only what is returned. A sidecar that is not a regular file is
// ignored (never opened) and the name decides. Opening a store sweeps its tmp/ of files a killed
// writer left (older than a minute, writer gone: src/verify/tmp-sweep.ts).
//
// Refusals throw SourceVerificationError naming the caller's label (e.g. "fold f0123…"), both
// digests (actual null when there is no readable blob), and the path and what was wrong; nothing
// unverified is ever returned. This module does its own file I/O (async whole reads; bounded slices
// use the verifier's sync reads).

import { constants as bufferConstants } from "node:buffer";
import { lstatSync } from "node:fs";
import { lstat, mkdir, rm } from "node:fs/promises";
import {
	blobPath,
	blobRelPath,
	chunkDigestsOf,
	DEFAULT_CHUNK_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	DIR_MODE,
	FileRefusedError,
	isDigestHex,
	loadTree,
	makeTree,
	readVerifiedRange,
	type SweepResult,
	sha256Hex,
	sweepStaleTemp,
	treePath,
	writeBlob,
} from "../verify/index.ts";
import { snapUtf8Range } from "../wasm/index.ts";
import type { CompiledQuery, PoolSearchRun, SearchTarget } from "./search/index.ts";
import { sharedSearchPool } from "./search/index.ts";
import { type Keep, readWholeChecked, type WholeFail } from "./source-read.ts";

/** Why a stored source was refused: absent, altered, unreadable, or refused unopened (not a regular file, wrong size). */
export type SourceFailure = "missing" | "mismatch" | "unreadable" | "refused";

/** The largest source `read` returns: the longest string Node can hold (bytes >= characters). */
export const MAX_SOURCE_TEXT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** A stored fold source failed verification (or is missing); nothing from it was returned. */
export class SourceVerificationError extends Error {
	override name = "SourceVerificationError";
	/** The caller's label, e.g. "fold f0123456789abcdef". */
	readonly label: string;
	/** The SHA-256 the source must have (its address). */
	readonly expected: string;
	/** The SHA-256 of what is on disk, or null when there is no readable blob. */
	readonly actual: string | null;
	readonly reason: SourceFailure;
	constructor(label: string, expected: string, actual: string | null, reason: SourceFailure, detail = "") {
		const found = actual ?? `none (blob ${reason === "mismatch" ? "unreadable" : reason})`;
		super(
			`${label}: stored source failed verification: expected sha256 ${expected}, actual sha256 ${found}` +
				`${detail ? ` (${detail})` : ""}; nothing from it was returned`,
		);
		this.label = label;
		this.expected = expected;
		this.actual = actual;
		this.reason = reason;
	}
}

/** One verification the store performed (for status, tests and benchmarks). */
export interface VerifyEvent {
	readonly sha256: string;
	/** "chunks": only sidecar chunks [first, end) were hashed; "whole": the blob was hashed against its name. */
	readonly method: "chunks" | "whole";
	readonly bytesHashed: number;
	readonly chunks?: readonly [number, number];
}

/**
 * FoldStore options (all optional):
 * - `chunkSize` of large sources' chunk trees (default DEFAULT_CHUNK_SIZE, 1 MiB, from src/verify);
 * - `treeMinBytes`: sources larger than this get a chunk tree (default DEFAULT_TREE_MIN_BYTES, 4 MiB);
 * - `durable`: fsync files and folders on put (default true; false only for throwaway stores);
 * - `onVerify`: called after each successful verification (see VerifyEvent);
 * - `sweepTemp`: remove a killed writer's leftovers from tmp/ when the store is opened (default true).
 */
export interface FoldStoreOptions {
	readonly chunkSize?: number;
	readonly treeMinBytes?: number;
	readonly durable?: boolean;
	readonly onVerify?: (event: VerifyEvent) => void;
	readonly sweepTemp?: boolean;
}

/** Bytes read before/after a requested range so outward UTF-8 snapping sees whole characters. */
const SNAP_PAD_BEFORE = 3;
const SNAP_PAD_AFTER = 4;

function checkDigest(fn: string, sha: string): void {
	if (!isDigestHex(sha)) throw new TypeError(`FoldStore.${fn}(): not a SHA-256 digest (64 lowercase hex): ${sha}`);
}

function checkBytes(fn: string, expectedBytes: number | undefined): void {
	if (expectedBytes !== undefined && (!Number.isSafeInteger(expectedBytes) || expectedBytes < 0))
		throw new RangeError(`FoldStore.${fn}(): expectedBytes must be an integer >= 0, got ${expectedBytes}`);
}

function refused(label: string, sha: string, fail: WholeFail): SourceVerificationError {
	return new SourceVerificationError(label, sha, fail.actual, fail.reason, fail.detail);
}

/** A content-addressed, verified store of fold sources rooted at `dir` (created lazily, 0700). */
export class FoldStore {
	readonly dir: string;
	private readonly options: FoldStoreOptions;
	/** Chunk-tree roots known to be authentic (from put, or a whole verification in this process). */
	private readonly roots = new Map<string, string>();
	private readonly inflight = new Map<string, Promise<{ sha256: string; bytes: number }>>();
	private rootReady: Promise<void> | undefined;

	/** What the sweep of tmp/ removed when this store was opened (undefined when sweepTemp is false). */
	readonly swept: SweepResult | undefined;

	constructor(dir: string, options: FoldStoreOptions = {}) {
		this.dir = dir;
		this.options = options;
		this.swept = options.sweepTemp === false ? undefined : sweepQuietly(dir);
	}

	/** True when a blob file exists at the source's address (not a verification). */
	has(sha256: string): boolean {
		return isDigestHex(sha256) && exists(blobPath(this.dir, sha256));
	}

	/**
	 * Stores `source` (UTF-8) under its SHA-256: atomic, 0444, idempotent. An existing blob that
	 * verifies is kept; a damaged one (or a damaged sidecar) is replaced by the correct bytes.
	 */
	put(source: string): Promise<{ sha256: string; bytes: number }> {
		const data = Buffer.from(source, "utf8");
		const sha = sha256Hex(data);
		const running = this.inflight.get(sha);
		if (running) return running;
		const job = this.putBytes(sha, data).finally(() => this.inflight.delete(sha));
		this.inflight.set(sha, job);
		return job;
	}

	/**
	 * The whole source, hashed against its address before it is returned. With `expectedBytes` (the
	 * size the fold recorded), a blob of any other size is refused before it is opened.
	 */
	async read(sha256: string, label: string, expectedBytes?: number): Promise<string> {
		checkDigest("read", sha256);
		checkBytes("read", expectedBytes);
		const want = { expectedSize: expectedBytes, maxSize: MAX_SOURCE_TEXT_BYTES };
		const whole = await readWholeChecked(blobPath(this.dir, sha256), sha256, want, { all: true });
		if (!whole.ok) throw refused(label, sha256, whole);
		this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
		return Buffer.from(whole.bytes.buffer, whole.bytes.byteOffset, whole.bytes.byteLength).toString("utf8");
	}

	/**
	 * The verified UTF-8 slice covering [offset, offset + bytes) of the source, snapped outward to
	 * character boundaries and clamped to its size. `start`/`end` are byte offsets; page with
	 * `offset = previous end` until `end === totalBytes`. `expectedBytes` as for read().
	 */
	async readSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<{ text: string; start: number; end: number; totalBytes: number }> {
		checkDigest("readSlice", sha256);
		if (!Number.isSafeInteger(offset) || offset < 0)
			throw new RangeError(`FoldStore.readSlice(): offset must be an integer >= 0, got ${offset}`);
		if (!Number.isSafeInteger(bytes) || bytes < 0)
			throw new RangeError(`FoldStore.readSlice(): bytes must be an integer >= 0, got ${bytes}`);
		checkBytes("readSlice", expectedBytes);
		const tree = this.usableTree(sha256, expectedBytes);
		const pinned = this.roots.get(sha256);
		if (tree && pinned !== undefined) {
			const slice = this.pinnedSlice(sha256, tree, pinned, offset, bytes, label);
			if (slice) return slice;
		}
		return this.wholeSlice(sha256, tree, offset, bytes, label, expectedBytes);
	}

	/** The sidecar, when it is a readable, intact tree of this blob (of the expected size); else undefined. */
	private usableTree(sha256: string, expectedBytes: number | undefined): ReturnType<typeof loadTree> {
		try {
			const tree = loadTree(this.dir, sha256);
			return tree && (expectedBytes === undefined || tree.blobSize === expectedBytes) ? tree : undefined;
		} catch {
			return undefined; // damaged, foreign, or not a regular file (never opened): the name decides
		}
	}

	/** A slice verified by the chunks it touches against a pinned root; undefined to fall back to the name. */
	private pinnedSlice(
		sha256: string,
		tree: NonNullable<ReturnType<typeof loadTree>>,
		pinned: string,
		offset: number,
		bytes: number,
		label: string,
	): { text: string; start: number; end: number; totalBytes: number } | undefined {
		const size = tree.blobSize;
		const from = Math.min(offset, size);
		const to = Math.min(size, from + bytes);
		const wStart = Math.max(0, from - SNAP_PAD_BEFORE);
		const wEnd = Math.min(size, to + SNAP_PAD_AFTER);
		try {
			const range = readVerifiedRange(this.dir, sha256, wStart, wEnd - wStart, {
				expectedRoot: pinned,
				expectedSize: size,
			});
			if (range.chunks)
				this.options.onVerify?.({
					sha256,
					method: "chunks",
					bytesHashed: Math.min(size, range.chunks[1] * tree.chunkSize) - range.chunks[0] * tree.chunkSize,
					chunks: range.chunks,
				});
			return sliceOf(range.bytes, range.start, from, to, size);
		} catch (error) {
			if (error instanceof FileRefusedError && error.problem === "missing")
				throw new SourceVerificationError(label, sha256, null, "missing", blobRelPath(sha256));
			return undefined; // chunk mismatch, size mismatch, refused or a foreign root: the name decides
		}
	}

	/** Verifies the whole blob against its name in one bounded pass, keeping only the window it returns (and pinning the tree's root). */
	private async wholeSlice(
		sha256: string,
		tree: ReturnType<typeof loadTree>,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes: number | undefined,
	): Promise<{ text: string; start: number; end: number; totalBytes: number }> {
		const keep: Keep = {
			window: (size) => {
				const from = Math.min(offset, size);
				return [Math.max(0, from - SNAP_PAD_BEFORE), Math.min(size, from + bytes + SNAP_PAD_AFTER)];
			},
		};
		const path = blobPath(this.dir, sha256);
		const whole = await readWholeChecked(path, sha256, { expectedSize: expectedBytes }, keep, tree?.chunkSize);
		if (!whole.ok) throw refused(label, sha256, whole);
		if (tree && whole.chunkDigests)
			this.roots.set(sha256, makeTree(sha256, tree.chunkSize, whole.size, whole.chunkDigests).root);
		this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
		const from = Math.min(offset, whole.size);
		return sliceOf(whole.bytes, whole.start, from, Math.min(whole.size, from + bytes), whole.size);
	}

	/**
	 * Searches the blobs of `targets` on the shared search pool: each blob read once, hashed against
	 * its name and scanned from the same bytes (a blob that fails keeps none of its hits). Results are
	 * index-aligned with `targets`; the search stops at `timeLimitMs`.
	 */
	search(
		targets: readonly SearchTarget[],
		query: CompiledQuery,
		options: { maxHits: number; timeLimitMs: number },
	): Promise<PoolSearchRun> {
		for (const t of targets) checkDigest("search", t.sha256);
		const items = targets.map((target) => ({ path: blobPath(this.dir, target.sha256), target }));
		return sharedSearchPool().search(items, query, options);
	}

	private async putBytes(sha: string, data: Uint8Array): Promise<{ sha256: string; bytes: number }> {
		await this.ensureRoot();
		const path = blobPath(this.dir, sha);
		if (exists(path)) {
			const existing = await readWholeChecked(path, sha, { expectedSize: data.length }, undefined);
			if (!existing.ok) {
				await rm(path, { force: true });
				await rm(treePath(this.dir, sha), { force: true });
			} else if (data.length <= this.treeMin()) {
				return { sha256: sha, bytes: data.length };
			} else {
				const root = this.authenticRoot(sha, data);
				if (root !== undefined) {
					this.roots.set(sha, root);
					return { sha256: sha, bytes: data.length };
				}
				await rm(treePath(this.dir, sha), { force: true }); // writeBlob rewrites a missing sidecar
			}
		}
		const written = await writeBlob(this.dir, data, {
			chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK_SIZE,
			treeMinBytes: this.treeMin(),
			durable: this.options.durable ?? true,
		});
		if (written.tree) this.roots.set(sha, written.tree.root);
		return { sha256: sha, bytes: data.length };
	}

	/** The on-disk sidecar's root when it matches `data` (the authentic bytes), else undefined. */
	private authenticRoot(sha: string, data: Uint8Array): string | undefined {
		try {
			const tree = loadTree(this.dir, sha);
			if (!tree) return undefined;
			const root = makeTree(sha, tree.chunkSize, data.length, chunkDigestsOf(data, tree.chunkSize)).root;
			return tree.root === root ? root : undefined;
		} catch {
			return undefined;
		}
	}

	private treeMin(): number {
		return this.options.treeMinBytes ?? DEFAULT_TREE_MIN_BYTES;
	}

	/** Creates the root (0700) once and refuses a root that is a symlink or owned by someone else. */
	private ensureRoot(): Promise<void> {
		this.rootReady ??= (async () => {
			await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
			const st = await lstat(this.dir);
			if (!st.isDirectory()) throw new Error(`fold store path is not a directory: ${this.dir}`);
			const uid = process.getuid?.();
			if (uid !== undefined && st.uid !== uid)
				throw new Error(`fold store ${this.dir} is owned by uid ${st.uid}, not this user (${uid}); refusing it`);
		})().catch((error) => {
			this.rootReady = undefined;
			throw error;
		});
		return this.rootReady;
	}
}

/** Sweeps tmp/ of a killed writer's leftovers; a store that cannot be swept is still usable. */
function sweepQuietly(dir: string): SweepResult | undefined {
	try {
		return sweepStaleTemp(dir);
	} catch {
		return undefined;
	}
}

function exists(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch {
		return false;
	}
}

function sliceOf(
	window: Uint8Array,
	windowStart: number,
	from: number,
	to: number,
	totalBytes: number,
): { text: string; start: number; end: number; totalBytes: number } {
	const local = snapUtf8Range(window, from - windowStart, to - from);
	const view = window.subarray(local.start, local.end);
	return {
		text: Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("utf8"),
		start: windowStart + local.start,
		end: windowStart + local.end,
		totalBytes,
	};
}
