// The async half of safe-open.ts, for the fold store (so a FIFO can never hold a libuv thread):
// the same checks, lstat first, O_NOFOLLOW | O_NONBLOCK, the descriptor must be the checked file,
// and read calls of at most MAX_READ_CALL bytes. Kept apart so worker threads, which read
// synchronously, never load node:fs/promises. Does its own file I/O.

import { type FileHandle, lstat, open } from "node:fs/promises";
import { checkSame, checkStats, errnoRefusal, MAX_READ_CALL, OPEN_FLAGS, type OpenExpectation } from "./safe-open.ts";

/** checkedOpen, async: never blocks a libuv thread on a FIFO. Close the handle when done. */
export async function checkedOpenAsync(
	path: string,
	want: OpenExpectation = {},
): Promise<{ handle: FileHandle; size: number }> {
	let handle: FileHandle | undefined;
	try {
		const st = await lstat(path);
		checkStats(path, st, want);
		handle = await open(path, OPEN_FLAGS);
		checkSame(path, st, await handle.stat());
		return { handle, size: st.size };
	} catch (error) {
		await handle?.close();
		throw errnoRefusal(path, error);
	}
}

/** Async readAt over a FileHandle. */
export async function readAtAsync(
	handle: FileHandle,
	buf: Uint8Array,
	length: number,
	position: number,
): Promise<number> {
	let done = 0;
	while (done < length) {
		const { bytesRead } = await handle.read(buf, done, Math.min(MAX_READ_CALL, length - done), position + done);
		if (bytesRead === 0) break;
		done += bytesRead;
	}
	return done;
}
