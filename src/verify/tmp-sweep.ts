// Crash leftovers: a process killed while writing a blob leaves its half-written temporary file in
// the store's tmp/ folder (writeBlob names them <pid>-<16 hex>.tmp). sweepStaleTemp removes those
// that are older than a minute and whose writer is gone (no live process has that pid), so a live
// writer's file is never touched; anything else in tmp/ (other names, folders, symlinks) is left
// alone. Stores call it when they open. Does its own file I/O (synchronous: one small folder).

import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TMP_DIR } from "./layout.ts";

/** Temporary files younger than this (60 s) are never swept, whoever wrote them. */
export const DEFAULT_TEMP_MAX_AGE_MS = 60_000;

const TEMP_NAME = /^(\d{1,10})-[0-9a-f]{16}\.tmp$/;

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
	if (pid === process.pid) return true;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** What a sweep removed and kept. */
export interface SweepResult {
	removed: string[];
	kept: number;
}

/**
 * Removes `<storeDir>/tmp/<pid>-<hex>.tmp` files older than `maxAgeMs` whose writer (pid) is no
 * longer running. A missing or non-directory tmp/ is not an error; failures to remove are skipped.
 */
export function sweepStaleTemp(storeDir: string, maxAgeMs = DEFAULT_TEMP_MAX_AGE_MS, now = Date.now()): SweepResult {
	const out: SweepResult = { removed: [], kept: 0 };
	const dir = join(storeDir, TMP_DIR);
	const st = lstatSync(dir, { throwIfNoEntry: false });
	if (!st?.isDirectory()) return out;
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return out;
	}
	for (const name of names) {
		const match = TEMP_NAME.exec(name);
		const path = join(dir, name);
		const file = match ? lstatSync(path, { throwIfNoEntry: false }) : undefined;
		if (!match || !file?.isFile() || now - file.mtimeMs < maxAgeMs || processAlive(Number(match[1]))) {
			out.kept++;
			continue;
		}
		try {
			rmSync(path, { force: true });
			out.removed.push(name);
		} catch {
			out.kept++;
		}
	}
	return out;
}
