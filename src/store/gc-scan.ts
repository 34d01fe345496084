// What gc (gc.ts) reads: the blobs of a store (`sha256/<2 hex>/<64 hex>`, each with its size, time
// and chunk-tree sidecar; symlinks and other odd entries are listed as skipped, never followed or
// removed), and the digests the session files under a sessions folder mention (every 64-hex run in
// every `*.jsonl` file, read in bounded pieces: a fold record names its source's digest, so what a
// session mentions is what it may read; like git, anything named counts as referenced). Does its
// own (synchronous) file I/O.

import { closeSync, lstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { BLOBS_DIR, isDigestHex, TREE_SUFFIX } from "../verify/index.ts";

/** One blob of the store. */
export interface StoredBlob {
	readonly digest: string;
	readonly path: string;
	readonly bytes: number;
	readonly mtimeMs: number;
	/** Its chunk-tree sidecar, when it has one. */
	readonly tree: string | undefined;
}

function entries(dir: string): import("node:fs").Dirent[] {
	try {
		return readdirSync(dir, { withFileTypes: true });
	} catch {
		return [];
	}
}

/** The store's blobs (regular files only; anything else under sha256/ is left alone). */
export function listBlobs(storeDir: string): StoredBlob[] {
	const out: StoredBlob[] = [];
	const root = join(storeDir, BLOBS_DIR);
	for (const fan of entries(root)) {
		if (!fan.isDirectory() || !/^[0-9a-f]{2}$/.test(fan.name)) continue;
		const names = entries(join(root, fan.name));
		const trees = new Set(names.filter((n) => n.isFile() && n.name.endsWith(TREE_SUFFIX)).map((n) => n.name));
		for (const file of names) {
			if (!file.isFile() || !isDigestHex(file.name) || !file.name.startsWith(fan.name)) continue;
			const path = join(root, fan.name, file.name);
			try {
				const st = lstatSync(path);
				const tree = trees.has(`${file.name}${TREE_SUFFIX}`) ? `${path}${TREE_SUFFIX}` : undefined;
				out.push({ digest: file.name, path, bytes: st.size, mtimeMs: st.mtimeMs, tree });
			} catch {
				// gone since the listing: nothing to collect
			}
		}
	}
	return out;
}

/** The session files under `dir` (`*.jsonl`, any depth; the store folder and symlinks skipped). */
export function sessionFiles(dir: string, storeDirName: string): string[] {
	const out: string[] = [];
	const walk = (at: string, depth: number) => {
		for (const e of entries(at)) {
			const path = join(at, e.name);
			if (e.isDirectory() && depth < 8 && !(depth === 0 && e.name === storeDirName)) walk(path, depth + 1);
			else if (e.isFile() && e.name.endsWith(".jsonl")) out.push(path);
		}
	};
	walk(dir, 0);
	return out.sort();
}

const HEX64 = /[0-9a-f]{64}/g;
const READ_BYTES = 4 * 1024 * 1024;

/** Adds every 64-hex run in the file at `path` to `into` (read in bounded pieces). */
export function digestsIn(path: string, into: Set<string>): void {
	const fd = openSync(path, "r");
	try {
		const buf = Buffer.alloc(READ_BYTES);
		let carry = "";
		let position = 0;
		for (;;) {
			const n = readSync(fd, buf, 0, buf.length, position);
			if (n === 0) break;
			position += n;
			const text = carry + buf.toString("latin1", 0, n);
			for (const m of text.matchAll(HEX64)) into.add(m[0]);
			carry = text.slice(-63);
		}
	} finally {
		closeSync(fd);
	}
}
