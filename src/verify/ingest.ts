// Storing a blob into a content-addressed store directory, atomically: write a temporary file under
// <dir>/tmp (named <pid>-<random>.tmp, so a sweep can tell a dead writer's leftovers: tmp-sweep.ts),
// fsync, chmod 0444, rename into sha256/<2 hex>/<64 hex>, fsync the folder. Blobs larger than the
// tree threshold also get a chunk-tree sidecar (written the same way, after the blob, so a crash
// leaves at worst a blob without sidecar, which still verifies whole). Directories are 0700.
// writeBlob takes the bytes; writeBlobStream takes them piece by piece (memory stays at one piece,
// whatever the blob's size). This module does its own file I/O.

import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, type FileHandle, lstat, mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createSha256, type Sha256Hasher, sha256, sha256Chunks } from "../wasm/index.ts";
import { BLOBS_DIR, blobPath, TMP_DIR, toHex, treePath } from "./layout.ts";
import { type ChunkTree, encodeTree, makeTree } from "./tree.ts";
import {
	DEFAULT_CHUNK_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	parseOptions,
	type WriteBlobOptions,
	writeBlobShape,
} from "./verify-options.ts";

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

/** Opens a fresh temporary file in `<dir>/tmp` (O_EXCL, 0600); the caller writes, then commits or discards it. */
async function openTemp(dir: string): Promise<{ handle: FileHandle; tmp: string }> {
	const tmpDir = join(dir, TMP_DIR);
	await ensureDir(tmpDir);
	const tmp = join(tmpDir, `${process.pid}-${randomBytes(8).toString("hex")}.tmp`);
	const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
	return { handle, tmp };
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
	let done = 0;
	while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
}

/** Makes a written temporary file read-only and renames it to `finalPath` (then fsyncs the folder). */
async function commitTemp(tmp: string, finalPath: string, durable: boolean): Promise<void> {
	try {
		await ensureDir(dirname(finalPath));
		await chmod(tmp, BLOB_MODE);
		await rename(tmp, finalPath);
	} catch (error) {
		await rm(tmp, { force: true });
		throw error;
	}
	if (durable) await fsyncDir(dirname(finalPath));
}

/**
 * A temporary file in `<dir>/tmp` filled by `fill` (then synced when `durable`) and closed; on any
 * failure it is removed and the error rethrown. Returns its path, to commit or discard.
 */
async function writeTemp(dir: string, durable: boolean, fill: (handle: FileHandle) => Promise<void>): Promise<string> {
	const { handle, tmp } = await openTemp(dir);
	try {
		try {
			await fill(handle);
			if (durable) await handle.sync();
		} finally {
			await handle.close();
		}
	} catch (error) {
		await rm(tmp, { force: true });
		throw error;
	}
	return tmp;
}

/** Writes `bytes` to `finalPath` atomically via a temporary file in `<dir>/tmp`. */
export async function writeAtomic(dir: string, finalPath: string, bytes: Uint8Array, durable = true): Promise<void> {
	const tmp = await writeTemp(dir, durable, (handle) => writeAll(handle, bytes));
	await commitTemp(tmp, finalPath, durable);
}

/** Chunk digests of a whole in-memory blob (in bounded slices, so Wasm memory stays small). */
export function chunkDigestsOf(bytes: Uint8Array, chunkSize: number): Uint8Array {
	const count = Math.ceil(bytes.length / chunkSize);
	const out = new Uint8Array(count * 32);
	const per = Math.max(1, Math.floor((16 * 1024 * 1024) / chunkSize));
	for (let first = 0; first < count; first += per) {
		const end = Math.min(bytes.length, (first + per) * chunkSize);
		out.set(sha256Chunks(bytes.subarray(first * chunkSize, end), chunkSize), first * 32);
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
	const opts = parseOptions("writeBlob", writeBlobShape, options);
	const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
	const treeMin = opts.treeMinBytes ?? DEFAULT_TREE_MIN_BYTES;
	const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
	const digest = toHex(sha256(bytes));
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

/** Digests of consecutive fixed-size chunks of a stream fed in pieces of any size. */
class ChunkDigester {
	private readonly digests: Uint8Array[] = [];
	private hash: Sha256Hasher = createSha256();
	private filled = 0;
	private readonly chunkSize: number;
	constructor(chunkSize: number) {
		this.chunkSize = chunkSize;
	}
	update(piece: Uint8Array): void {
		let at = 0;
		while (at < piece.length) {
			const take = Math.min(this.chunkSize - this.filled, piece.length - at);
			this.hash.update(piece.subarray(at, at + take));
			this.filled += take;
			at += take;
			if (this.filled === this.chunkSize) this.cut();
		}
	}
	private cut(): void {
		this.digests.push(this.hash.digest());
		this.hash = createSha256();
		this.filled = 0;
	}
	finish(): Uint8Array {
		if (this.filled > 0) this.cut();
		const out = new Uint8Array(this.digests.length * 32);
		this.digests.forEach((d, i) => {
			out.set(d, i * 32);
		});
		return out;
	}
}

/**
 * Stores a blob given as pieces (any iterable or async iterable of byte arrays) under its SHA-256,
 * like writeBlob but holding only one piece in memory: the pieces are written to a temporary file
 * while its whole-content and chunk digests are computed, then it is renamed into place (or dropped
 * when an identical blob is already there).
 */
export async function writeBlobStream(
	dir: string,
	pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
	options?: WriteBlobOptions,
): Promise<WrittenBlob> {
	const opts = parseOptions("writeBlobStream", writeBlobShape, options);
	const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
	const durable = opts.durable ?? true;
	await ensureDir(dir);
	await ensureDir(join(dir, BLOBS_DIR));
	const whole = createSha256();
	const chunks = new ChunkDigester(chunkSize);
	let size = 0;
	const tmp = await writeTemp(dir, durable, async (handle) => {
		for await (const piece of pieces) {
			whole.update(piece);
			chunks.update(piece);
			size += piece.length;
			await writeAll(handle, piece);
		}
	});
	const digest = toHex(whole.digest());
	const path = blobPath(dir, digest);
	const created = !(await exists(path));
	if (created) await commitTemp(tmp, path, durable);
	else await rm(tmp, { force: true });
	let tree: ChunkTree | undefined;
	if (size > (opts.treeMinBytes ?? DEFAULT_TREE_MIN_BYTES)) {
		tree = makeTree(digest, chunkSize, size, chunks.finish());
		const sidecar = treePath(dir, digest);
		if (created || !(await exists(sidecar))) await writeAtomic(dir, sidecar, encodeTree(tree), durable);
	}
	return { digest, path, size, created, tree };
}
