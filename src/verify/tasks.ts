// Units of verification work and the code that runs one: the same function serves a worker thread
// and the calling thread (workers: 0), so both paths compute identical results. This module does its
// own file reads (synchronous: it runs inside a worker), always with O_NOFOLLOW, so a symlink that
// appeared after the scan is refused, never followed.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { createStreamHasher, digestChunks, digestMany, digestOne } from "./engines.ts";
import type { EngineName } from "./options.ts";

/** Digests of consecutive chunks of `[offset, offset + length)` of one file. */
export interface ChunksTask {
	kind: "chunks";
	path: string;
	offset: number;
	length: number;
	chunkSize: number;
	engine: EngineName;
}

/** Whole-content digests of several small files (read whole, digested together across lanes). */
export interface BatchTask {
	kind: "batch";
	paths: string[];
	engine: EngineName;
}

/** Whole-content digest of one file, streamed (a large blob without a tree, or "full" mode). */
export interface FileTask {
	kind: "file";
	path: string;
	readSize: number;
	engine: EngineName;
}

export type Task = ChunksTask | BatchTask | FileTask;

/** Why a file could not be read: refused (a symlink / not a regular file), vanished, or unreadable. */
export interface FileFailure {
	reason: "refused" | "missing" | "unreadable";
	message: string;
}

/** Result of a task: one digest slot per file (batch) or the chunk digests (chunks / file). */
export interface TaskResult {
	/** 32-byte digests back to back: chunk digests, or one per path in a batch (zeros where failed). */
	digests: Uint8Array;
	/** Bytes actually read (a truncated file reads fewer than planned). */
	bytesRead: number;
	/** Per-path failures of a batch (index into paths), or the failure of a chunks/file task (index 0). */
	failures: [number, FileFailure][];
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function failureOf(error: unknown): FileFailure {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	if (code === "ELOOP" || code === "EMLINK") return { reason: "refused", message: "is a symlink (not followed)" };
	if (code === "ENOENT") return { reason: "missing", message: "vanished during verification" };
	return { reason: "unreadable", message: code ? `cannot read (${code})` : message };
}

/** Opens a regular file without following symlinks; throws a coded error otherwise. */
export function openRegular(path: string): { fd: number; size: number } {
	const fd = openSync(path, OPEN_FLAGS);
	const st = fstatSync(fd);
	if (!st.isFile()) {
		closeSync(fd);
		throw Object.assign(new Error("not a regular file"), { code: "ELOOP" });
	}
	return { fd, size: st.size };
}

/** Reads up to `length` bytes at `position` into `buf` (from 0); returns the count read (short at EOF). */
export function readFully(fd: number, buf: Uint8Array, length: number, position: number): number {
	let done = 0;
	while (done < length) {
		const n = readSync(fd, buf, done, length - done, position + done);
		if (n === 0) break;
		done += n;
	}
	return done;
}

/** Reusable read buffer per thread, grown on demand. */
export class Scratch {
	private buf = new Uint8Array(0);
	/** A buffer of at least `size` bytes; the first `keep` bytes survive a reallocation. */
	get(size: number, keep = 0): Uint8Array {
		if (this.buf.length < size) {
			const next = new Uint8Array(Math.max(size, this.buf.length * 2, 8 * 1024 * 1024));
			if (keep > 0) next.set(this.buf.subarray(0, keep));
			this.buf = next;
		}
		return this.buf;
	}
}

/**
 * Chunks are read and hashed a few at a time (1 for node:crypto, 4 for the Wasm lanes) so the bytes
 * are still in cache when hashed; a whole-task read would stream them through memory twice.
 */
function runChunks(task: ChunksTask, scratch: Scratch): TaskResult {
	let fd = -1;
	try {
		fd = openRegular(task.path).fd;
		const group = (task.engine === "node" ? 1 : 4) * task.chunkSize;
		const buf = scratch.get(Math.min(group, task.length));
		const digests = new Uint8Array(Math.ceil(task.length / task.chunkSize) * 32);
		let done = 0;
		while (done < task.length) {
			const want = Math.min(group, task.length - done);
			const n = readFully(fd, buf, want, task.offset + done);
			if (n > 0)
				digests.set(digestChunks(buf.subarray(0, n), task.chunkSize, task.engine), (done / task.chunkSize) * 32);
			done += n;
			if (n < want) break; // truncated: the caller sees bytesRead < length
		}
		return { digests, bytesRead: done, failures: [] };
	} catch (error) {
		return { digests: new Uint8Array(0), bytesRead: 0, failures: [[0, failureOf(error)]] };
	} finally {
		if (fd >= 0) closeSync(fd);
	}
}

/** Small files: node:crypto hashes each right after reading it; Wasm reads them all, then one call. */
function runBatch(task: BatchTask, scratch: Scratch): TaskResult {
	const failures: [number, FileFailure][] = [];
	const pending: { index: number; start: number; length: number }[] = [];
	const digests = new Uint8Array(task.paths.length * 32);
	const eager = task.engine === "node";
	let used = 0;
	for (let i = 0; i < task.paths.length; i++) {
		let fd = -1;
		try {
			const opened = openRegular(task.paths[i] as string);
			fd = opened.fd;
			const at = eager ? 0 : used;
			const buf = scratch.get(at + opened.size, at);
			const n = readFully(fd, buf.subarray(at), opened.size, 0);
			if (eager) digests.set(digestOne(buf.subarray(0, n)), i * 32);
			else pending.push({ index: i, start: used, length: n });
			used += n;
		} catch (error) {
			failures.push([i, failureOf(error)]);
		} finally {
			if (fd >= 0) closeSync(fd);
		}
	}
	if (pending.length > 0) {
		const buf = scratch.get(used);
		const computed = digestMany(
			pending.map((p) => buf.subarray(p.start, p.start + p.length)),
			task.engine,
		);
		pending.forEach((p, k) => {
			digests.set(computed[k] as Uint8Array, p.index * 32);
		});
	}
	return { digests, bytesRead: used, failures };
}

function runFile(task: FileTask, scratch: Scratch): TaskResult {
	let fd = -1;
	try {
		fd = openRegular(task.path).fd;
		const hasher = createStreamHasher(task.engine === "auto" ? "auto" : task.engine);
		const buf = scratch.get(task.readSize).subarray(0, task.readSize);
		let position = 0;
		for (;;) {
			const n = readSync(fd, buf, 0, buf.length, position);
			if (n === 0) break;
			hasher.update(buf.subarray(0, n));
			position += n;
		}
		return { digests: hasher.digest(), bytesRead: position, failures: [] };
	} catch (error) {
		return { digests: new Uint8Array(0), bytesRead: 0, failures: [[0, failureOf(error)]] };
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
