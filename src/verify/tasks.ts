// Units of verification work and the code that runs one: the same function serves a worker thread
// and the calling thread, so both paths compute identical results. This module does its own file
// reads (synchronous: it runs inside a worker) through safe-open.ts. The paths come from the scan's
// directory listing, whose entry types already said "regular file" without following links; each
// open never follows a symlink nor blocks on a FIFO, fstat must still show a regular file (of the
// size the sidecar records, where there is one), and reads are bounded calls; so a file swapped in
// after the scan is refused, never read, and memory stays bounded whatever a file's size.

import { closeSync } from "node:fs";
import { createSha256, type EngineName, sha256, sha256Chunks, sha256Many } from "../wasm/index.ts";
import { looksLikeManifest, MANIFEST_MAX_BYTES } from "./manifest.ts";
import { FileRefusedError, openListed, readAt } from "./safe-open.ts";

/** Digests of consecutive chunks of `[offset, offset + length)` of one file of `blobSize` bytes. */
export interface ChunksTask {
	kind: "chunks";
	path: string;
	offset: number;
	length: number;
	chunkSize: number;
	/** The whole file's size (from its sidecar); any other size is refused before reading. */
	blobSize: number;
	engine: EngineName;
}

/**
 * Whole-content digests of several small files (read whole, then digested one by one or across
 * lanes with `engine`). A file larger than `maxBuffered` is streamed instead, with `streamEngine`.
 * The files are `paths`, or, compactly, the blobs named by `digests` (32 bytes each) under
 * `prefix` (a store's `<dir>/sha256/`): `prefix + <2 hex>/<64 hex>`.
 */
export interface BatchTask {
	kind: "batch";
	paths?: string[];
	prefix?: string;
	digests?: Uint8Array;
	/** The size each file must have, when known (a file of another size is refused unread). */
	sizes?: number[];
	maxBuffered: number;
	engine: EngineName;
	streamEngine: EngineName;
	readSize: number;
	/**
	 * Return a copy of every file read whole that starts like a fold manifest (at most
	 * MANIFEST_MAX_BYTES), so the manifest walk parses the very bytes that were hashed, never
	 * reading the store a second time.
	 */
	keepManifests?: boolean;
}

/** How many files a batch names. */
export function batchCount(task: BatchTask): number {
	return task.paths ? task.paths.length : (task.digests?.length ?? 0) / 32;
}

/** The path of a batch's file `i`. */
export function batchPath(task: BatchTask, i: number): string {
	if (task.paths) return task.paths[i] as string;
	const digests = task.digests as Uint8Array;
	const hex = Buffer.from(digests.buffer, digests.byteOffset, digests.byteLength).toString("hex", i * 32, i * 32 + 32);
	return `${task.prefix ?? ""}${hex.slice(0, 2)}/${hex}`;
}

/** Whole-content digest of one file, streamed (a large blob, or "name"/"full" mode). */
export interface FileTask {
	kind: "file";
	path: string;
	readSize: number;
	/** The size the planner saw, if any; another size is refused unread. */
	size?: number;
	engine: EngineName;
}

export type Task = ChunksTask | BatchTask | FileTask;

/** Why a file could not be read: refused (not a regular file), missing, changed size, or unreadable. */
export interface FileFailure {
	reason: "refused" | "missing" | "changed" | "unreadable";
	message: string;
	/** The size found, when the failure is a size other than the expected one. */
	size?: number;
}

/** Result of a task: one digest slot per file (batch) or the chunk digests (chunks / file). */
export interface TaskResult {
	/** 32-byte digests back to back: chunk digests, or one per path in a batch (zeros where failed). */
	digests: Uint8Array;
	/** Bytes actually read (a truncated file reads fewer than planned). */
	bytesRead: number;
	/** Per-path failures of a batch (index into paths), or the failure of a chunks/file task (index 0). */
	failures: [number, FileFailure][];
	/** Batch tasks: the size of each file read (-1 where it failed). */
	sizes?: number[];
	/** Batch tasks with keepManifests: [index, bytes] of each file that starts like a manifest. */
	manifests?: [number, Uint8Array][];
}

/** Maps any error of opening or reading to a FileFailure whose message says what was wrong. */
export function failureOf(error: unknown): FileFailure {
	if (error instanceof FileRefusedError) {
		const p = error.problem;
		const reason =
			p === "missing"
				? "missing"
				: p === "symlink" || p === "not-regular"
					? "refused"
					: p === "unreadable"
						? "unreadable"
						: "changed";
		const message = p === "missing" ? "vanished during verification" : error.detail;
		const failure: FileFailure = {
			reason,
			message: p === "unreadable" && error.code ? `cannot read (${error.code})` : message,
		};
		if (error.size !== undefined) failure.size = error.size;
		return failure;
	}
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return { reason: "unreadable", message: code ? `cannot read (${code})` : message };
}

/** Reusable read buffers per thread, grown on demand (4 MiB at least). */
export class Scratch {
	private buf = new Uint8Array(0);
	private streamBuf = new Uint8Array(0);
	/** A separate buffer for streaming one file, so get()'s contents survive it. */
	stream(size: number): Uint8Array {
		if (this.streamBuf.length < size) this.streamBuf = new Uint8Array(size);
		return this.streamBuf.subarray(0, size);
	}
	/** A buffer of at least `size` bytes; the first `keep` bytes survive a reallocation. */
	get(size: number, keep = 0): Uint8Array {
		if (this.buf.length < size) {
			const next = new Uint8Array(Math.max(size, this.buf.length * 2, 4 * 1024 * 1024));
			if (keep > 0) next.set(this.buf.subarray(0, keep));
			this.buf = next;
		}
		return this.buf;
	}
}

function failed(error: unknown): TaskResult {
	return { digests: new Uint8Array(0), bytesRead: 0, failures: [[0, failureOf(error)]] };
}

/** The result of a task that threw instead of answering (the pool's answer for it; nothing was verified). */
export function taskFailure(message: string): TaskResult {
	return { digests: new Uint8Array(0), bytesRead: 0, failures: [[0, { reason: "unreadable", message }]] };
}

/**
 * Chunks are read and hashed a few at a time (1 for node:crypto, 4 for the Wasm lanes) so the bytes
 * are still in cache when hashed; a whole-task read would stream them through memory twice.
 */
function runChunks(task: ChunksTask, scratch: Scratch): TaskResult {
	let fd = -1;
	try {
		fd = openListed(task.path, { expectedSize: task.blobSize }).fd;
		const group = (task.engine === "node" ? 1 : 4) * task.chunkSize;
		const buf = scratch.get(Math.min(group, task.length));
		const digests = new Uint8Array(Math.ceil(task.length / task.chunkSize) * 32);
		let done = 0;
		while (done < task.length) {
			const want = Math.min(group, task.length - done);
			const n = readAt(fd, buf, want, task.offset + done);
			if (n > 0)
				digests.set(
					sha256Chunks(buf.subarray(0, n), task.chunkSize, { engine: task.engine }),
					(done / task.chunkSize) * 32,
				);
			done += n;
			if (n < want) break; // truncated: the caller sees bytesRead < length
		}
		return { digests, bytesRead: done, failures: [] };
	} catch (error) {
		return failed(error);
	} finally {
		if (fd >= 0) closeSync(fd);
	}
}

/** Streams the open file `fd` of `size` bytes through a hasher; returns its digest and the bytes read. */
function streamFd(
	fd: number,
	engine: EngineName,
	readSize: number,
	scratch: Scratch,
): { digest: Uint8Array; read: number } {
	const hasher = createSha256({ engine });
	const buf = scratch.stream(readSize);
	let position = 0;
	for (;;) {
		const n = readAt(fd, buf, buf.length, position);
		if (n === 0) break;
		hasher.update(buf.subarray(0, n));
		position += n;
	}
	return { digest: hasher.digest(), read: position };
}

/**
 * Small files: node:crypto hashes each right after reading it; Wasm reads them all, then one call.
 * A file larger than maxBuffered is streamed on its own, so memory stays bounded.
 */
function runBatch(task: BatchTask, scratch: Scratch): TaskResult {
	const failures: [number, FileFailure][] = [];
	const pending: { index: number; start: number; length: number }[] = [];
	const count = batchCount(task);
	const digests = new Uint8Array(count * 32);
	const sizes = new Array<number>(count).fill(-1);
	const manifests: [number, Uint8Array][] = [];
	const eager = task.engine === "node";
	let used = 0;
	let total = 0;
	for (let i = 0; i < count; i++) {
		let fd = -1;
		try {
			const opened = openListed(batchPath(task, i), { expectedSize: task.sizes?.[i] });
			fd = opened.fd;
			if (opened.size > task.maxBuffered) {
				const streamed = streamFd(fd, task.streamEngine, task.readSize, scratch);
				digests.set(streamed.digest, i * 32);
				sizes[i] = streamed.read;
				total += streamed.read;
				continue;
			}
			const at = eager ? 0 : used;
			const buf = scratch.get(at + opened.size, at);
			const n = readAt(fd, buf.subarray(at), opened.size, 0);
			if (task.keepManifests && n <= MANIFEST_MAX_BYTES && looksLikeManifest(buf.subarray(at, at + n)))
				manifests.push([i, buf.slice(at, at + n)]);
			if (eager) digests.set(sha256(buf.subarray(0, n), { engine: "node" }), i * 32);
			else pending.push({ index: i, start: used, length: n });
			if (!eager) used += n;
			sizes[i] = n;
			total += n;
		} catch (error) {
			failures.push([i, failureOf(error)]);
		} finally {
			if (fd >= 0) closeSync(fd);
		}
	}
	if (pending.length > 0) {
		const buf = scratch.get(used);
		const computed = sha256Many(
			pending.map((p) => buf.subarray(p.start, p.start + p.length)),
			{ engine: task.engine },
		);
		pending.forEach((p, k) => {
			digests.set(computed[k] as Uint8Array, p.index * 32);
		});
	}
	const result: TaskResult = { digests, bytesRead: total, failures, sizes };
	if (manifests.length > 0) result.manifests = manifests;
	return result;
}

function runFile(task: FileTask, scratch: Scratch): TaskResult {
	let fd = -1;
	try {
		fd = openListed(task.path, { expectedSize: task.size }).fd;
		const { digest, read } = streamFd(fd, task.engine, task.readSize, scratch);
		return { digests: digest, bytesRead: read, failures: [] };
	} catch (error) {
		return failed(error);
	} finally {
		if (fd >= 0) closeSync(fd);
	}
}

/** Runs one task on the current thread. */
export function runTask(task: Task, scratch: Scratch): TaskResult {
	switch (task.kind) {
		case "chunks":
			return runChunks(task, scratch);
		case "batch":
			return runBatch(task, scratch);
		case "file":
			return runFile(task, scratch);
	}
}
