// Reading a stored source whole and checking it against its name, without letting the file hurt the
// process: the blob is checked before it is opened (a regular file, not a symlink, FIFO, socket,
// device or folder; of the size the fold recorded when the caller knows it; no larger than the
// caller allows), opened without blocking, and read in bounded calls (safe-open.ts in src/verify).
// Memory is bounded by what the caller asks to keep: everything (read), a byte window (a slice of a
// large source), or nothing (checking an existing blob before a put). Chunk digests can be computed
// in the same pass (to pin a chunk tree's root). A small blob (a manifest, an entry) can be read in
// one synchronous call instead (readSmallChecked), which costs a few system calls instead of a
// thread-pool round trip each. Does its own file I/O.

import { closeSync } from "node:fs";
import {
	blobRelPath,
	checkedOpen,
	checkedOpenAsync,
	chunkDigestsOf,
	FileRefusedError,
	type OpenExpectation,
	readAt,
	readAtAsync,
} from "../verify/index.ts";
import { createSha256, sha256Hex } from "../wasm/index.ts";

/** What to keep while hashing: every byte, the bytes of a window [start, end) chosen once the size is known, or none. */
export type Keep = { all: true } | { window: (size: number) => readonly [number, number] } | undefined;

/** A whole blob that hashed to its name. */
interface WholeOk {
	ok: true;
	size: number;
	/** The kept bytes: the whole blob, the window, or empty. */
	bytes: Uint8Array;
	/** Where the kept bytes start in the blob. */
	start: number;
	/** Chunk digests, when a chunk size was given. */
	chunkDigests: Uint8Array | undefined;
}

/** Why a whole blob was not accepted: missing, refused unopened, unreadable, or not its name. */
export interface WholeFail {
	ok: false;
	reason: "missing" | "refused" | "unreadable" | "mismatch";
	/** The SHA-256 of what was read, for a mismatch. */
	actual: string | null;
	detail: string;
}

/** Bytes per read: whole chunks, about 4 MiB. */
function readLength(chunkSize: number | undefined): number {
	const target = 4 * 1024 * 1024;
	if (!chunkSize) return target;
	return chunkSize >= target ? chunkSize : Math.floor(target / chunkSize) * chunkSize;
}

function refusal(sha: string, error: unknown): WholeFail {
	const rel = blobRelPath(sha);
	if (error instanceof FileRefusedError) {
		const reason = error.problem === "missing" ? "missing" : error.problem === "unreadable" ? "unreadable" : "refused";
		return { ok: false, reason, actual: null, detail: `${rel} ${error.detail}` };
	}
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return { ok: false, reason: "unreadable", actual: null, detail: `${rel} cannot be read (${code ?? String(error)})` };
}

/**
 * Hashes the blob at `path` whole against `sha` in bounded reads, keeping what `keep` asks for and
 * computing chunk digests of `chunkSize` when given. Never throws for a file problem.
 */
export async function readWholeChecked(
	path: string,
	sha: string,
	want: OpenExpectation,
	keep: Keep,
	chunkSize?: number,
): Promise<WholeOk | WholeFail> {
	let opened: Awaited<ReturnType<typeof checkedOpenAsync>>;
	try {
		opened = await checkedOpenAsync(path, want);
	} catch (error) {
		return refusal(sha, error);
	}
	const { handle, size } = opened;
	try {
		const all = keep && "all" in keep ? new Uint8Array(size) : undefined;
		const [wantFrom, wantTo] = keep && "window" in keep ? keep.window(size) : [0, 0];
		const from = Math.min(Math.max(0, wantFrom), size);
		const to = Math.min(Math.max(from, wantTo), size);
		const window = new Uint8Array(to - from);
		const step = readLength(chunkSize);
		const buf = all ? undefined : new Uint8Array(Math.min(step, Math.max(size, 1)));
		const hash = createSha256();
		const chunks: Uint8Array[] = [];
		let position = 0;
		for (;;) {
			const target = all ? all.subarray(position, position + step) : (buf as Uint8Array);
			const n = await readAtAsync(handle, target, Math.min(target.length, size - position), position);
			if (n === 0) break;
			const piece = target.subarray(0, n);
			hash.update(piece);
			if (chunkSize) chunks.push(chunkDigestsOf(piece, chunkSize));
			const a = Math.max(from, position);
			const b = Math.min(to, position + n);
			if (a < b) window.set(piece.subarray(a - position, b - position), a - from);
			position += n;
			if (position >= size) break;
		}
		const actual = hash.digestHex();
		if (actual !== sha || position !== size)
			return { ok: false, reason: "mismatch", actual, detail: `${blobRelPath(sha)} was altered` };
		const chunkDigests = chunkSize ? Buffer.concat(chunks) : undefined;
		return { ok: true, size, bytes: all ?? window, start: all ? 0 : from, chunkDigests };
	} catch (error) {
		return refusal(sha, error);
	} finally {
		await handle.close();
	}
}

/** Blobs up to this size are read in one synchronous call when whole (manifests, most entries): 1 MiB. */
export const SMALL_SYNC_BYTES = 1024 * 1024;

/**
 * readWholeChecked for a small blob (at most `want.maxSize`, which must be <= SMALL_SYNC_BYTES),
 * synchronously, keeping every byte. Never throws for a file problem.
 */
export function readSmallChecked(path: string, sha: string, want: OpenExpectation): WholeOk | WholeFail {
	let opened: { fd: number; size: number };
	try {
		opened = checkedOpen(path, { ...want, maxSize: Math.min(want.maxSize ?? SMALL_SYNC_BYTES, SMALL_SYNC_BYTES) });
	} catch (error) {
		return refusal(sha, error);
	}
	try {
		const bytes = new Uint8Array(opened.size);
		const n = readAt(opened.fd, bytes, opened.size, 0);
		const actual = sha256Hex(bytes.subarray(0, n));
		if (actual !== sha || n !== opened.size)
			return { ok: false, reason: "mismatch", actual, detail: `${blobRelPath(sha)} was altered` };
		return { ok: true, size: n, bytes, start: 0, chunkDigests: undefined };
	} catch (error) {
		return refusal(sha, error);
	} finally {
		closeSync(opened.fd);
	}
}
