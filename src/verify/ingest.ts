// Storing a blob into a content-addressed store directory, atomically: write a temporary file under
// <dir>/tmp, fsync, chmod 0444, rename into sha256/<2 hex>/<64 hex>, fsync the folder. Blobs larger
// than the tree threshold also get a chunk-tree sidecar (written the same way, after the blob, so a
// crash leaves at worst a blob without sidecar, which still verifies whole). Directories are 0700.
// This module does its own file I/O.

import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, lstat, mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { digestChunks, digestOne } from "./engines.ts";
import { BLOBS_DIR, blobPath, TMP_DIR, toHex, treePath } from "./layout.ts";
import {
	DEFAULT_CHUNK_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	parseOptions,
	type WriteBlobOptions,
	writeBlobOptionsSchema,
} from "./options.ts";
import { type ChunkTree, encodeTree, makeTree } from "./tree.ts";

/** File mode of blobs and sidecars. */
export const BLOB_MODE = 0o444;
/** Mode of every directory the store creates. */
export const DIR_MODE = 0o700;

/** What writeBlob stored. */
export interface WrittenBlob {
	digest: string;
	path: string;
	size: number;
	/** False when an identical blob was already there (content addressing dedupes). */
	created: boolean;
	/** The chunk tree recorded beside a large blob (record `tree.root` wherever the blob is referenced). */
	tree: ChunkTree | undefined;
}

async function ensureDir(path: string): Promise<void> {
	await mkdir(path, { recursive: true, mode: DIR_MODE });
	const st = await lstat(path);
	if (!st.isDirectory()) throw new Error(`store path is not a directory: ${path}`);
}

async function fsyncDir(path: string): Promise<void> {
	const handle = await open(path, constants.O_RDONLY);
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

async function exists(path: string): Promise<boolean> {
	try {
		await lstat(path);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
}

/** Writes `bytes` to `finalPath` atomically via a temporary file in `<dir>/tmp`. */
export async function writeAtomic(dir: string, finalPath: string, bytes: Uint8Array, durable = true): Promise<void> {
	const tmpDir = join(dir, TMP_DIR);
	await ensureDir(tmpDir);
	await ensureDir(dirname(finalPath));
	const tmp = join(tmpDir, `${process.pid}-${randomBytes(8).toString("hex")}.tmp`);
	const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
	try {
		try {
			let done = 0;
			while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
			if (durable) await handle.sync();
		} finally {
			await handle.close();
		}
		await chmod(tmp, BLOB_MODE);
		await rename(tmp, finalPath);
	} catch (error) {
		await rm(tmp, { force: true });
		throw error;
	}
	if (durable) await fsyncDir(dirname(finalPath));
}

/** Chunk digests of a whole in-memory blob (in bounded slices, so Wasm memory stays small). */
export function chunkDigestsOf(bytes: Uint8Array, chunkSize: number): Uint8Array {
	const count = Math.ceil(bytes.length / chunkSize);
	const out = new Uint8Array(count * 32);
	const per = Math.max(1, Math.floor((16 * 1024 * 1024) / chunkSize));
	for (let first = 0; first < count; first += per) {
		const end = Math.min(bytes.length, (first + per) * chunkSize);
		out.set(digestChunks(bytes.subarray(first * chunkSize, end), chunkSize), first * 32);
	}
	return out;
}

/**
 * Stores `data` under its SHA-256 in the store at `dir` (created if absent, 0700). Returns the
 * digest and, for blobs larger than `treeMinBytes`, the chunk tree written beside it.
 */
export async function writeBlob(
	dir: string,
	data: Uint8Array | string,
	options?: WriteBlobOptions,
): Promise<WrittenBlob> {
	const opts = parseOptions("writeBlob", writeBlobOptionsSchema, options);
	const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
	const treeMin = opts.treeMinBytes ?? DEFAULT_TREE_MIN_BYTES;
	const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
	const digest = toHex(digestOne(bytes));
	await ensureDir(dir);
	await ensureDir(join(dir, BLOBS_DIR));
	const path = blobPath(dir, digest);
	let created = false;
	if (!(await exists(path))) {
		await writeAtomic(dir, path, bytes, opts.durable ?? true);
		created = true;
	}
	let tree: ChunkTree | undefined;
	if (bytes.length > treeMin) {
		tree = makeTree(digest, chunkSize, bytes.length, chunkDigestsOf(bytes, chunkSize));
		const sidecar = treePath(dir, digest);
		if (created || !(await exists(sidecar))) await writeAtomic(dir, sidecar, encodeTree(tree), opts.durable ?? true);
	}
	return { digest, path, size: bytes.length, created, tree };
}
