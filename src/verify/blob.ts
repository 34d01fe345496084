// One blob of a store: verify it whole (chunk tree across lanes and worker threads, or its name),
// and read a bounded byte range verified by only the chunks it touches (what `peek` of a large fold
// uses). Does its own reads through safe-open.ts: never following a symlink, never blocking on a
// FIFO, refusing a file of the wrong size before opening it, and reading in bounded calls.

import { closeSync } from "node:fs";
import { chunksEngine, createSha256, sha256Chunks, streamEngine } from "../wasm/index.ts";
import { sharedPool } from "./hash-pool.ts";
import { blobPath, blobRelPath, isDigestHex, toHex, treePath } from "./layout.ts";
import { checkedOpen, FileRefusedError, readAt, readSmallFile } from "./safe-open.ts";
import { MAX_SIDECAR_BYTES } from "./store-scan.ts";
import type { Task } from "./tasks.ts";
import { type ChunkTree, decodeTree, mismatchedChunks, TreeFormatError } from "./tree.ts";
import {
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_READ_SIZE,
	DEFAULT_WORKERS,
	parseOptions,
	type ReadRangeOptions,
	readRangeShape,
	type VerifyBlobOptions,
	verifyBlobShape,
} from "./verify-options.ts";

/** A blob's content failed verification; the message names the blob, what failed and both digests where known. */
export class IntegrityError extends Error {
	override name = "IntegrityError";
	readonly digest: string;
	readonly badChunks: number[];
	constructor(message: string, digest: string, badChunks: number[] = []) {
		super(message);
		this.digest = digest;
		this.badChunks = badChunks;
	}
}

function checkDigest(fn: string, digest: string): void {
	if (!isDigestHex(digest))
		throw new TypeError(`${fn}(): not a SHA-256 digest (64 lowercase hex): ${JSON.stringify(digest)}`);
}

/**
 * The blob's chunk tree, or undefined when it has no sidecar. Throws TreeFormatError / IntegrityError
 * on a damaged or foreign sidecar, FileRefusedError on one that is not a regular file (never opened).
 */
export function loadTree(dir: string, digest: string): ChunkTree | undefined {
	checkDigest("loadTree", digest);
	let bytes: Uint8Array;
	try {
		bytes = readSmallFile(treePath(dir, digest), MAX_SIDECAR_BYTES);
	} catch (error) {
		if (error instanceof FileRefusedError && error.problem === "missing") return undefined;
		throw error;
	}
	const tree = decodeTree(bytes);
	if (tree.blobDigest !== digest) throw new IntegrityError(`sidecar of ${digest} describes ${tree.blobDigest}`, digest);
	return tree;
}

/** Outcome of verifying one blob. */
export interface VerifyBlobResult {
	ok: boolean;
	digest: string;
	size: number;
	/** "tree": chunks checked against the sidecar; "name": whole content hashed against the name. */
	method: "tree" | "name" | "tree+name";
	badChunks: number[];
	detail: string;
	/** Set when the sidecar exists but is damaged or foreign (the blob is then verified whole). */
	sidecarIssue?: string;
}

function blobTasks(
	path: string,
	size: number,
	tree: ChunkTree | undefined,
	opts: VerifyBlobOptions,
): { task: Task; first: number; bytes: number }[] {
	const engine = opts.engine ?? "auto";
	const tasks: { task: Task; first: number; bytes: number }[] = [];
	if (!tree || opts.mode === "full")
		tasks.push({
			task: { kind: "file", path, readSize: DEFAULT_READ_SIZE, size, engine: streamEngine(engine) },
			first: -1,
			bytes: size,
		});
	const per = opts.chunksPerTask ?? DEFAULT_CHUNKS_PER_TASK;
	for (let first = 0; tree && first < tree.chunkCount; first += per) {
		const offset = first * tree.chunkSize;
		const length = Math.min(per * tree.chunkSize, size - offset);
		const task: Task = {
			kind: "chunks",
			path,
			offset,
			length,
			chunkSize: tree.chunkSize,
			blobSize: size,
			engine: chunksEngine(engine),
		};
		tasks.push({ task, first, bytes: length });
	}
	return tasks;
}

/**
 * Verifies one blob of the store. With a chunk tree, its chunks are hashed across Wasm lanes on
 * `workers` threads plus the calling thread (mode "full" also re-hashes it whole against its name);
 * without one, the whole content is hashed against the name. Method "tree" trusts the sidecar: a
 * blob rewritten together with a recomputed sidecar passes it (use "full", or pin the root).
 */
export async function verifyBlob(dir: string, digest: string, options?: VerifyBlobOptions): Promise<VerifyBlobResult> {
	checkDigest("verifyBlob", digest);
	const opts = parseOptions("verifyBlob", verifyBlobShape, options);
	const path = blobPath(dir, digest);
	const { fd, size } = checkedOpen(path);
	closeSync(fd);
	let tree: ChunkTree | undefined;
	let sidecarIssue: string | undefined;
	try {
		tree = loadTree(dir, digest);
	} catch (error) {
		if (!(error instanceof TreeFormatError || error instanceof IntegrityError || error instanceof FileRefusedError))
			throw error;
		sidecarIssue = `${error.message}; blob verified whole instead`;
	}
	const result: VerifyBlobResult = {
		ok: true,
		digest,
		size,
		method: tree ? (opts.mode === "full" ? "tree+name" : "tree") : "name",
		badChunks: [],
		detail: "ok",
		...(sidecarIssue ? { sidecarIssue } : {}),
	};
	if (tree && tree.blobSize !== size) {
		const what = size < tree.blobSize ? "truncated" : "too long";
		return { ...result, ok: false, detail: `${what}: ${size} bytes, sidecar records ${tree.blobSize}` };
	}
	const tasks = blobTasks(path, size, tree, opts);
	const total = tasks.reduce((n, t) => n + t.bytes, 0);
	let done = 0;
	const pool = sharedPool(tasks.length > 1 ? (opts.workers ?? DEFAULT_WORKERS) : 0);
	await pool.runBatch(
		tasks.map((t) => t.task),
		{
			onResult: (index, r) => {
				const t = tasks[index] as (typeof tasks)[number];
				const failure = r.failures[0];
				if (failure) throw new IntegrityError(`${blobRelPath(digest)}: ${failure[1].message}`, digest);
				if (t.first < 0 && toHex(r.digests) !== digest) {
					result.ok = false;
					result.detail = `content hashes to ${toHex(r.digests)}, not its name`;
				} else if (t.first >= 0 && tree) {
					const expected = tree.digests.subarray(t.first * 32, t.first * 32 + r.digests.length);
					result.badChunks.push(...mismatchedChunks(expected, r.digests, t.first));
					if (r.bytesRead < t.bytes) result.badChunks.push(t.first);
				}
				done += t.bytes;
				opts.onProgress?.({ bytesDone: done, bytesTotal: total, blobsDone: done === total ? 1 : 0, blobsTotal: 1 });
			},
		},
	);
	if (result.badChunks.length > 0) {
		result.badChunks = [...new Set(result.badChunks)].sort((a, b) => a - b);
		result.ok = false;
		result.detail = `chunk digest mismatch in chunk(s) ${result.badChunks.join(", ")}`;
	}
	return result;
}

/** A verified byte range of a blob. `chunks` is the chunk-index range that was read and verified. */
export interface VerifiedRange {
	bytes: Uint8Array;
	start: number;
	end: number;
	size: number;
	/** [first, end) chunk indices verified, or undefined when the whole blob was verified against its name. */
	chunks: [number, number] | undefined;
}

/**
 * Hashes a whole open blob against its name in bounded reads, keeping only bytes [start, end):
 * memory stays at one read buffer plus the range, whatever the blob's size.
 */
function wholeRange(fd: number, digest: string, size: number, start: number, end: number): VerifiedRange {
	const hasher = createSha256();
	const buf = new Uint8Array(Math.min(DEFAULT_READ_SIZE, Math.max(size, 1)));
	const out = new Uint8Array(end - start);
	let position = 0;
	for (;;) {
		const n = readAt(fd, buf, buf.length, position);
		if (n === 0) break;
		const piece = buf.subarray(0, n);
		hasher.update(piece);
		const from = Math.max(start, position);
		const to = Math.min(end, position + n);
		if (from < to) out.set(piece.subarray(from - position, to - position), from - start);
		position += n;
	}
	const actual = toHex(hasher.digest());
	if (actual !== digest || position !== size)
		throw new IntegrityError(`${blobRelPath(digest)} hashes to ${actual}, not its name`, digest);
	return { bytes: out, start, end, size, chunks: undefined };
}

/**
 * Reads `[offset, offset + length)` of a blob (clamped to its size) and verifies it before returning:
 * with a chunk tree, only the chunks the range touches are read and hashed; without one, the whole
 * blob is hashed against its name (streamed, keeping only the range). Throws IntegrityError on any
 * mismatch, FileRefusedError for a blob or sidecar that is not a regular file or (with
 * `expectedSize`) not that size, before opening it.
 */
export function readVerifiedRange(
	dir: string,
	digest: string,
	offset: number,
	length: number,
	options?: ReadRangeOptions,
): VerifiedRange {
	checkDigest("readVerifiedRange", digest);
	if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0)
		throw new RangeError(`readVerifiedRange(): offset and length must be integers >= 0, got ${offset}, ${length}`);
	const opts = parseOptions("readVerifiedRange", readRangeShape, options);
	const tree = loadTree(dir, digest);
	if (opts.expectedRoot !== undefined && tree?.root !== opts.expectedRoot)
		throw new IntegrityError(
			`chunk tree of ${digest} has root ${tree?.root ?? "(none)"}, expected ${opts.expectedRoot}`,
			digest,
		);
	const { fd, size } = checkedOpen(blobPath(dir, digest), { expectedSize: opts.expectedSize });
	try {
		const start = Math.min(offset, size);
		const end = Math.min(size, start + length);
		if (!tree) return wholeRange(fd, digest, size, start, end);
		if (tree.blobSize !== size)
			throw new IntegrityError(`${blobRelPath(digest)} is ${size} bytes, its sidecar records ${tree.blobSize}`, digest);
		const first = Math.floor(start / tree.chunkSize);
		const last = end > start ? Math.ceil(end / tree.chunkSize) : first;
		const from = first * tree.chunkSize;
		const to = Math.min(size, last * tree.chunkSize);
		const buf = new Uint8Array(to - from);
		const n = readAt(fd, buf, buf.length, from);
		const actual = sha256Chunks(buf.subarray(0, n), tree.chunkSize, { engine: opts.engine });
		const bad = mismatchedChunks(tree.digests.subarray(first * 32, last * 32), actual, first);
		if (n < buf.length) bad.push(first);
		if (bad.length > 0)
			throw new IntegrityError(
				`${blobRelPath(digest)}: chunk digest mismatch in chunk(s) ${bad.join(", ")}`,
				digest,
				bad,
			);
		return { bytes: buf.slice(start - from, end - from), start, end, size, chunks: [first, last] };
	} finally {
		closeSync(fd);
	}
}
