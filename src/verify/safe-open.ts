// Opening and reading store files so that no file can hurt the process: `lstat` first, and anything
// that is not a regular file (a symlink, FIFO, socket, device or directory), or whose size is not the
// size the caller expects, is refused by name before it is opened; the open itself never follows a
// symlink and never blocks (O_NONBLOCK: a FIFO swapped in after the check opens at once and is then
// refused, unread); the descriptor must be the very file that was checked; and every read call is at
// most MAX_READ_CALL bytes (one read of a whole >2 GiB file aborts Node). These sync variants serve
// worker threads and bounded reads; safe-open-async.ts has the async ones the fold store uses. Does
// its own file I/O; imports only node:fs, so a worker thread loads little.

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from "node:fs";

/** Largest single read call (8 MiB): reads of any size are split into calls of at most this. */
export const MAX_READ_CALL = 8 * 1024 * 1024;

/** What was wrong with a file that was refused. */
export type FileProblem = "missing" | "symlink" | "not-regular" | "size" | "too-large" | "changed" | "unreadable";

/** A store file refused before (or instead of) being read; the message names the path and what was wrong. */
export class FileRefusedError extends Error {
	override name = "FileRefusedError";
	readonly problem: FileProblem;
	readonly path: string;
	/** The errno code behind an "unreadable" or "missing" refusal, if any. */
	readonly code: string | undefined;
	/** The size found, for a "size" or "too-large" refusal. */
	readonly size: number | undefined;
	constructor(path: string, problem: FileProblem, detail: string, code?: string, size?: number) {
		super(`${path} ${detail}`);
		this.path = path;
		this.problem = problem;
		this.code = code;
		this.size = size;
	}
	/** The message without the leading path (for reports that already show the path). */
	get detail(): string {
		return this.message.slice(this.path.length + 1);
	}
}

/** What checkedOpen expects of the file: an exact size, and/or a maximum size. */
export interface OpenExpectation {
	expectedSize?: number | undefined;
	maxSize?: number | undefined;
	/**
	 * The file is append-only and other processes append to it (the evidence ledger): it may grow
	 * between the check and the open, and the size returned is the open file's (still within maxSize).
	 */
	appendOnly?: boolean | undefined;
}

export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** "a FIFO", "a directory", ...: what a non-regular file is, for messages. */
export function kindOf(st: Stats): string {
	if (st.isSymbolicLink()) return "a symlink";
	if (st.isDirectory()) return "a directory";
	if (st.isFIFO()) return "a FIFO";
	if (st.isSocket()) return "a socket";
	if (st.isCharacterDevice()) return "a character device";
	if (st.isBlockDevice()) return "a block device";
	return st.isFile() ? "a regular file" : "not a regular file";
}

/** Throws FileRefusedError when `st` (from lstat) is not an acceptable regular file. */
export function checkStats(path: string, st: Stats, want: OpenExpectation = {}): void {
	if (st.isSymbolicLink()) throw new FileRefusedError(path, "symlink", "is a symlink (not followed)");
	if (!st.isFile())
		throw new FileRefusedError(path, "not-regular", `is ${kindOf(st)}, not a regular file (not opened)`);
	if (want.expectedSize !== undefined && st.size !== want.expectedSize)
		throw new FileRefusedError(
			path,
			"size",
			`is ${st.size} bytes, expected ${want.expectedSize} (not read)`,
			undefined,
			st.size,
		);
	if (want.maxSize !== undefined && st.size > want.maxSize)
		throw new FileRefusedError(
			path,
			"too-large",
			`is ${st.size} bytes, more than the ${want.maxSize} allowed (not read)`,
			undefined,
			st.size,
		);
}

export function errnoRefusal(path: string, error: unknown): FileRefusedError {
	if (error instanceof FileRefusedError) return error;
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === "ENOENT" || code === "ENOTDIR") return new FileRefusedError(path, "missing", "does not exist", code);
	if (code === "ELOOP" || code === "EMLINK")
		return new FileRefusedError(path, "symlink", "is a symlink (not followed)");
	const why = code ?? (error instanceof Error ? error.message : String(error));
	return new FileRefusedError(path, "unreadable", `cannot be read (${why})`, code);
}

/** The descriptor must be the file lstat saw: regular, same device and inode, same size (an append-only file's at least). */
export function checkSame(path: string, before: Stats, after: Stats, appendOnly = false): void {
	const sized = appendOnly ? after.size >= before.size : after.size === before.size;
	if (!after.isFile() || after.ino !== before.ino || after.dev !== before.dev || !sized)
		throw new FileRefusedError(path, "changed", "changed between its check and its open (not read)");
}

/** Opens a regular file after checking it (see the module comment). Close the fd when done. */
export function checkedOpen(path: string, want: OpenExpectation = {}): { fd: number; size: number } {
	let fd = -1;
	try {
		const st = lstatSync(path);
		checkStats(path, st, want);
		fd = openSync(path, OPEN_FLAGS);
		const opened = fstatSync(fd);
		checkSame(path, st, opened, want.appendOnly);
		if (want.appendOnly) checkStats(path, opened, { maxSize: want.maxSize });
		return { fd, size: want.appendOnly ? opened.size : st.size };
	} catch (error) {
		if (fd >= 0) closeSync(fd);
		throw errnoRefusal(path, error);
	}
}

/**
 * Opens a file that a directory listing already showed as a regular file (its d_type is lstat's
 * answer, without following links), skipping a second lstat: the open never follows a symlink nor
 * blocks, and fstat must still show a regular file of the expected size. Close the fd when done.
 */
export function openListed(path: string, want: OpenExpectation = {}): { fd: number; size: number } {
	let fd = -1;
	try {
		fd = openSync(path, OPEN_FLAGS);
		const st = fstatSync(fd);
		checkStats(path, st, want);
		return { fd, size: st.size };
	} catch (error) {
		if (fd >= 0) closeSync(fd);
		throw errnoRefusal(path, error);
	}
}

/** Reads up to `length` bytes at `position` into `buf` (from 0) in calls of at most MAX_READ_CALL; short at EOF. */
export function readAt(fd: number, buf: Uint8Array, length: number, position: number): number {
	let done = 0;
	while (done < length) {
		const n = readSync(fd, buf, done, Math.min(MAX_READ_CALL, length - done), position + done);
		if (n === 0) break;
		done += n;
	}
	return done;
}

/** A whole small file (at most `maxSize` bytes), checked and read in bounded calls. */
export function readSmallFile(path: string, maxSize: number): Uint8Array {
	const { fd, size } = checkedOpen(path, { maxSize });
	try {
		const bytes = new Uint8Array(size);
		const n = readAt(fd, bytes, size, 0);
		return bytes.subarray(0, n);
	} finally {
		closeSync(fd);
	}
}
