// One blob of a store: verify it whole (chunk tree across lanes and worker threads, or its name),
// and read a bounded byte range verified by only the chunks it touches (what `peek` of a large fold
// uses). Does its own reads, never following a symlink.

import { closeSync } from "node:fs";
import { chunksEngine, digestChunks, digestOne, streamEngine } from "./engines.ts";
import { blobPath, blobRelPath, isDigestHex, toHex, treePath } from "./layout.ts";
import {
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_READ_SIZE,
	DEFAULT_WORKERS,
	parseOptions,
	type ReadRangeOptions,
	readRangeOptionsSchema,
	type VerifyBlobOptions,
	verifyBlobOptionsSchema,
} from "./options.ts";
import { sharedPool } from "./pool.ts";
import { openRegular, readFully, type Task } from "./tasks.ts";
import { type ChunkTree, decodeTree, mismatchedChunks, TreeFormatError } from "./tree.ts";

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

/** Reads a whole small file without following symlinks. */
function readAll(path: string): Uint8Array {
	const { fd, size } = openRegular(path);
	try {
		const bytes = new Uint8Array(size);
		const n = readFully(fd, bytes, size, 0);
		return bytes.subarray(0, n);
	} finally {
		closeSync(fd);
	}
}

/** The blob's chunk tree, or undefined when it has no sidecar. Throws on a damaged or foreign sidecar. */
export function loadTree(dir: string, digest: string): ChunkTree | undefined {
	checkDigest("loadTree", digest);
	let bytes: Uint8Array;
	try {
		bytes = readAll(treePath(dir, digest));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
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

/**
 * Verifies one blob of the store. With a chunk tree, its chunks are hashed across Wasm lanes on
 * `workers` threads (mode "full" also re-hashes it whole against its name); without one, the
 * whole content is hashed against the name.
 */
export async function verifyBlob(dir: string, digest: string, options?: VerifyBlobOptions): Promise<VerifyBlobResult> {
	checkDigest("verifyBlob", digest);
	const opts = parseOptions("verifyBlob", verifyBlobOptionsSchema, options);
	const engine = opts.engine ?? "auto";
	const path = blobPath(dir, digest);
	const { fd, size } = openRegular(path);
	closeSync(fd);
	let tree: ChunkTree | undefined;
	let sidecarIssue: string | undefined;
	try {
		tree = loadTree(dir, digest);
	} catch (error) {
		if (!(error instanceof TreeFormatError || error instanceof IntegrityError)) throw error;
		sidecarIssue = `${error.message}; blob verified whole instead`;
	}
	const result: VerifyBlobResult = {
		ok: true,
		digest,
		size,
		method: tree ? "tree" : "name",
		badChunks: [],
		detail: "ok",
		...(sidecarIssue ? { sidecarIssue } : {}),
	};
	if (tree && tree.blobSize !== size) {
		return {
			...result,
			ok: false,
			detail: `${size < tree.blobSize ? "truncated" : "too long"}: ${size} bytes, sidecar records ${tree.blobSize}`,
		};
	}
	const tasks: { task: Task; first: number; bytes: number }[] = [];
	if (tree) {
		const per = opts.chunksPerTask ?? DEFAULT_CHUNKS_PER_TASK;
		for (let first = 0; first < tree.chunkCount; first += per) {
			const length = Math.min(per * tree.chunkSize, size - first * tree.chunkSize);
			tasks.push({
				task: {
					kind: "chunks",
					path,
					offset: first * tree.chunkSize,
					length,
					chunkSize: tree.chunkSize,
					engine: chunksEngine(engine),
				},
				first,
				bytes: length,
			});
		}
	}
	if (!tree || opts.mode === "full") {
		tasks.unshift({
			task: { kind: "file", path, readSize: DEFAULT_READ_SIZE, engine: streamEngine(engine) },
			first: -1,
			bytes: size,
		});
		if (tree) result.method = "tree+name";
	}
	const total = tasks.reduce((n, t) => n + t.bytes, 0);
	let done = 0;
	const pool = sharedPool(tasks.length > 1 ? (opts.workers ?? DEFAULT_WORKERS) : 0);
	await Promise.all(
		tasks.map(async (t) => {
			const r = await pool.run(t.task);
			const failure = r.failures[0];
			if (failure) throw new IntegrityError(`${blobRelPath(digest)}: ${failure[1].message}`, digest);
			if (t.first < 0) {
				if (toHex(r.digests) !== digest) {
					result.ok = false;
					result.detail = `content hashes to ${toHex(r.digests)}, not its name`;
				}
			} else {
				const t2 = tree as ChunkTree;
				const bad = mismatchedChunks(
					t2.digests.subarray(t.first * 32, t.first * 32 + r.digests.length),
					r.digests,
					t.first,
				);
				if (r.bytesRead < t.bytes) bad.push(t.first);
				result.badChunks.push(...bad);
			}
			done += t.bytes;
			opts.onProgress?.({ bytesDone: done, bytesTotal: total, blobsDone: done === total ? 1 : 0, blobsTotal: 1 });
		}),
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
 * Reads `[offset, offset + length)` of a blob (clamped to its size) and verifies it before returning:
 * with a chunk tree, only the chunks the range touches are read and hashed; without one, the whole
 * blob is hashed against its name. Throws IntegrityError on any mismatch.
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
	const opts = parseOptions("readVerifiedRange", readRangeOptionsSchema, options);
	const tree = loadTree(dir, digest);
	if (opts.expectedRoot !== undefined && tree?.root !== opts.expectedRoot)
		throw new IntegrityError(
			`chunk tree of ${digest} has root ${tree?.root ?? "(none)"}, expected ${opts.expectedRoot}`,
			digest,
		);
	const { fd, size } = openRegular(blobPath(dir, digest));
	try {
		const start = Math.min(offset, size);
		const end = Math.min(size, start + length);
		if (!tree) {
			const all = new Uint8Array(size);
			readFully(fd, all, size, 0);
			const actual = toHex(digestOne(all));
			if (actual !== digest)
				throw new IntegrityError(`${blobRelPath(digest)} hashes to ${actual}, not its name`, digest);
			return { bytes: all.slice(start, end), start, end, size, chunks: undefined };
		}
		if (tree.blobSize !== size)
			throw new IntegrityError(`${blobRelPath(digest)} is ${size} bytes, its sidecar records ${tree.blobSize}`, digest);
		const first = Math.floor(start / tree.chunkSize);
		const last = end > start ? Math.ceil(end / tree.chunkSize) : first;
		const from = first * tree.chunkSize;
		const to = Math.min(size, last * tree.chunkSize);
		const buf = new Uint8Array(to - from);
		const n = readFully(fd, buf, buf.length, from);
		const actual = digestChunks(buf.subarray(0, n), tree.chunkSize, opts.engine);
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
