// Whether a file on disk still holds the text a folded read returned: the file is stat'ed, and read
// and hashed only when its stat (mtime, ctime, size, inode) differs from the last look, so asking
// again costs one stat. A whole-file read is compared with the whole file's text; a ranged read
// with the same lines of the file. Text is decoded as UTF-8 the way Pi's read tool decodes it (a
// byte order mark kept, invalid bytes replaced), and hashed with SHA-256. Paths are resolved like
// Pi's tools resolve them (a leading "@" dropped, "~" for the home folder, relative to the working
// directory). Does its own file I/O (synchronous stat and read).

import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { sha256Hex } from "../verify/index.ts";

/** What a check found: the same text, different text, no file, or a file it would not read. */
export type FileState = "current" | "changed" | "gone" | "unchecked";

/** A file larger than this is not read to compare (16 MiB); it checks as "unchecked". */
const FILE_CHECK_MAX_BYTES = 16 * 1024 * 1024;

/** The digest a read recorded and, for a ranged read, the lines it showed. */
interface ReadStamp {
	readonly sha256: string;
	readonly lines?: readonly [number, number];
}

/** The last stat of a file and the digests computed from it (whole text, or a range of lines). */
interface Seen {
	readonly key: string;
	readonly digests: Map<string, string>;
}

/** Resolves a path as Pi's tools do, against `cwd`. */
export function resolveReadPath(path: string, cwd: string): string {
	const bare = path.startsWith("@") ? path.slice(1) : path;
	if (bare === "~") return homedir();
	if (bare.startsWith("~/")) return join(homedir(), bare.slice(2));
	return isAbsolute(bare) ? bare : resolve(cwd, bare);
}

export class FileChecker {
	private readonly seen = new Map<string, Seen>();
	/** Files read and hashed so far (a repeated check of an unchanged file reads nothing). */
	reads = 0;

	/** Compares the file at `absolutePath` with what a read recorded. */
	check(absolutePath: string, stamp: ReadStamp): FileState {
		let key: string;
		let size: number;
		try {
			const st = statSync(absolutePath);
			if (!st.isFile()) return "gone";
			size = st.size;
			key = `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			return code === "ENOENT" || code === "ENOTDIR" ? "gone" : "unchecked";
		}
		let seen = this.seen.get(absolutePath);
		if (!seen || seen.key !== key) {
			seen = { key, digests: new Map() };
			this.seen.set(absolutePath, seen);
		}
		const which = stamp.lines ? `${stamp.lines[0]}:${stamp.lines[1]}` : "whole";
		let digest = seen.digests.get(which);
		if (digest === undefined) {
			if (size > FILE_CHECK_MAX_BYTES) return "unchecked";
			let text: string;
			try {
				text = readFileSync(absolutePath, "utf8");
				this.reads++;
			} catch {
				return "unchecked";
			}
			digest = sha256Hex(stamp.lines ? linesOf(text, stamp.lines) : text);
			seen.digests.set(which, digest);
		}
		return digest === stamp.sha256 ? "current" : "changed";
	}
}

/** Lines [from, from + count) of `text` (1-based), joined as Pi's read joins them. */
function linesOf(text: string, [from, count]: readonly [number, number]): string {
	return text
		.split("\n")
		.slice(from - 1, from - 1 + count)
		.join("\n");
}
