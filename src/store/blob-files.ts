// Small file helpers of the fold store: sweeping a killed writer's tmp/ leftovers, freshening a kept
// blob's times (as git freshens an object it would have written, so gc's grace period counts from the
// last write), telling a manifest from an old-form source by its first bytes, and cutting a UTF-8
// snapped slice out of a verified window. Does its own (synchronous, bounded) file I/O.

import { closeSync, lstatSync } from "node:fs";
import { utimes } from "node:fs/promises";
import {
	checkedOpen,
	looksLikeManifest,
	MANIFEST_MAGIC_BYTES,
	readAt,
	type SweepResult,
	sweepStaleTemp,
} from "../verify/index.ts";
import { snapUtf8Range } from "../wasm/index.ts";

/** Sweeps tmp/ of a killed writer's leftovers; a store that cannot be swept is still usable. */
export function sweepQuietly(dir: string): SweepResult | undefined {
	try {
		return sweepStaleTemp(dir);
	} catch {
		return undefined;
	}
}

/** Sets a kept blob's times to now; false when it is gone (or cannot be touched) (as git freshens an object it would have written): gc's grace period counts from here. */
export async function freshen(path: string): Promise<boolean> {
	const now = new Date();
	return utimes(path, now, now).then(
		() => true,
		() => false,
	);
}

/** Whether the file at `path` starts like a manifest (a symlink, FIFO or unreadable file: no). */
export function headIsManifest(path: string): boolean {
	let opened: { fd: number; size: number };
	try {
		opened = checkedOpen(path, {});
	} catch {
		return false;
	}
	try {
		const head = new Uint8Array(Math.min(MANIFEST_MAGIC_BYTES, opened.size));
		return readAt(opened.fd, head, head.length, 0) === head.length && looksLikeManifest(head);
	} catch {
		return false;
	} finally {
		closeSync(opened.fd);
	}
}

export function exists(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch {
		return false;
	}
}

export function sliceOf(
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
