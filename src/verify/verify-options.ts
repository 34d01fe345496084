// The verifier's tunables: every default is a named, documented constant, and every options object
// a caller passes is checked here, so a typo is an error naming the field, never a silently ignored
// option. The checks are a few lines of plain code rather than zod: zod's bundle costs ~28 ms to load,
// a seventh of what `pi-fold verify` needs for a whole 512 MiB store. Pure; no I/O.

import { availableParallelism } from "node:os";
import type { EngineName } from "../wasm/index.ts";

export type { EngineName } from "../wasm/index.ts";

/** Size of one chunk of a blob's chunk tree: 1 MiB. Fixed per sidecar (recorded in it). */
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

/**
 * Blobs strictly larger than this get a chunk-tree sidecar at ingest (4 MiB). Smaller blobs are
 * verified whole against their name (cheap, and batched across Wasm lanes).
 */
export const DEFAULT_TREE_MIN_BYTES = 4 * 1024 * 1024;

/**
 * Worker threads used by store and blob verification, besides the calling thread (which hashes
 * too): one per core beyond the first, at most 3 (so 1 on a 2-core machine, 0 on one core): each
 * worker costs about 13 MB of resident memory, and 4 threads keep `pi-fold verify` near 100 MB.
 */
export const DEFAULT_WORKERS = Math.max(0, Math.min(availableParallelism() - 1, 3));

/**
 * A store whose work totals less than this (48 MiB) is verified on the calling thread alone:
 * starting a worker costs ~25-30 ms, about what one thread needs to hash this much with OpenSSL.
 * The work is the blobs' bytes plus FILE_COST_BYTES per blob.
 */
export const DEFAULT_MIN_PARALLEL_BYTES = 48 * 1024 * 1024;

/**
 * What opening, checking and closing one blob costs, in bytes hashed in the same time (32 KiB:
 * ~15 us against ~2 GB/s), so a store of many tiny blobs also gets workers.
 */
export const FILE_COST_BYTES = 32 * 1024;

/** Chunks of a chunk-tree blob handed to a thread as one task (8 x 1 MiB = 8 MiB read at once). */
export const DEFAULT_CHUNKS_PER_TASK = 8;

/** Small blobs are batched into tasks of up to this many bytes (4 MiB)... */
export const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;

/** ...and up to this many blobs per task. */
export const DEFAULT_BATCH_BLOBS = 256;

/** Read size of a whole-file single-stream hash inside a verification (1 MiB: it stays in L2). */
export const DEFAULT_READ_SIZE = 1024 * 1024;

/**
 * Read size of `hashFile` (4 MiB): its reads overlap hashing (two buffers, one being filled while
 * the other is hashed), so fewer, larger reads mean fewer event-loop round trips.
 */
export const HASH_FILE_READ_SIZE = 4 * 1024 * 1024;

/**
 * What `verifyStore` checks a chunk-tree blob against. "name" (default): every blob is hashed whole
 * against its name. "tree": chunk-tree blobs are checked against their sidecar only (parallel inside
 * a blob, but a blob rewritten together with a recomputed sidecar passes). "full": both.
 */
export type VerifyMode = "name" | "tree" | "full";

/** Progress of a long verification, reported after each finished unit of work and once at the start. */
export interface VerifyProgress {
	bytesDone: number;
	bytesTotal: number;
	blobsDone: number;
	blobsTotal: number;
}

/**
 * Options of `verifyStore`.
 * - `onProgress`: called with bytes/blobs done and total (default none).
 * - `workers`: worker threads besides the calling thread (default `DEFAULT_WORKERS`); 0 = this thread only.
 * - `minParallelBytes`: below this many bytes no worker is started (default `DEFAULT_MIN_PARALLEL_BYTES`).
 * - `engine`: "auto" (default) picks per shape; "node"/"wasm" force one engine everywhere.
 * - `mode`: "name" (default), "tree" or "full" (see VerifyMode).
 * - `expected`: digests referenced elsewhere (fold records, manifests); absent ones are "missing".
 * - `chunksPerTask`, `batchBytes`, `batchBlobs`: work-splitting knobs (defaults above).
 */
export interface VerifyStoreOptions {
	onProgress?: ((progress: VerifyProgress) => void) | undefined;
	workers?: number | undefined;
	minParallelBytes?: number | undefined;
	engine?: EngineName | undefined;
	mode?: VerifyMode | undefined;
	expected?: string[] | undefined;
	chunksPerTask?: number | undefined;
	batchBytes?: number | undefined;
	batchBlobs?: number | undefined;
}

/** Options of `verifyBlob`: `workers`, `engine`, `chunksPerTask`, `onProgress` as for `verifyStore`; `mode` "tree" (default) or "full". */
export interface VerifyBlobOptions {
	onProgress?: ((progress: VerifyProgress) => void) | undefined;
	workers?: number | undefined;
	engine?: EngineName | undefined;
	mode?: "tree" | "full" | undefined;
	chunksPerTask?: number | undefined;
}

/** Options of `hashFile`: `onProgress(bytesDone, bytesTotal)` after each read; `readSize` (default `HASH_FILE_READ_SIZE`, at most 64 MiB). */
export interface HashFileOptions {
	onProgress?: ((bytesDone: number, bytesTotal: number) => void) | undefined;
	readSize?: number | undefined;
}

/**
 * Options of `writeBlob`: `chunkSize` of the chunk tree (default `DEFAULT_CHUNK_SIZE`),
 * `treeMinBytes` (default `DEFAULT_TREE_MIN_BYTES`): blobs larger than it get a sidecar, and
 * `durable` (default true): fsync file and folder; false only for throwaway stores (benchmarks).
 */
export interface WriteBlobOptions {
	chunkSize?: number | undefined;
	treeMinBytes?: number | undefined;
	durable?: boolean | undefined;
}

/**
 * Options of `readVerifiedRange`: `expectedRoot` (hex) pins the chunk tree to a root recorded
 * elsewhere (a fold record), so a consistently rewritten blob + sidecar pair is still refused;
 * `expectedSize` refuses a blob of another size before it is opened; `engine` as above.
 */
export interface ReadRangeOptions {
	expectedRoot?: string | undefined;
	expectedSize?: number | undefined;
	engine?: EngineName | undefined;
}

/** A field check: returns what is wrong with `value`, or undefined when it is acceptable. */
type Check = (value: unknown) => string | undefined;
type Shape<T> = { [K in keyof T]-?: Check };

const int =
	(min: number, max = Number.MAX_SAFE_INTEGER): Check =>
	(v) =>
		Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max
			? undefined
			: `must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}, got ${String(v)}`;
const oneOf =
	(...values: string[]): Check =>
	(v) =>
		values.includes(v as string) ? undefined : `must be one of ${values.join(", ")}, got ${JSON.stringify(v)}`;
const fn: Check = (v) => (typeof v === "function" ? undefined : "must be a function");
const bool: Check = (v) => (typeof v === "boolean" ? undefined : "must be true or false");
const hex64: Check = (v) =>
	typeof v === "string" && /^[0-9a-f]{64}$/.test(v) ? undefined : "must be 64 lowercase hex";
const strings: Check = (v) =>
	Array.isArray(v) && v.every((s) => typeof s === "string") ? undefined : "must be an array of strings";
const engine = oneOf("auto", "wasm", "node");

export const verifyStoreShape: Shape<VerifyStoreOptions> = {
	onProgress: fn,
	workers: int(0, 64),
	minParallelBytes: int(0),
	engine,
	mode: oneOf("name", "tree", "full"),
	expected: strings,
	chunksPerTask: int(1),
	batchBytes: int(1),
	batchBlobs: int(1),
};
export const verifyBlobShape: Shape<VerifyBlobOptions> = {
	onProgress: fn,
	workers: int(0, 64),
	engine,
	mode: oneOf("tree", "full"),
	chunksPerTask: int(1),
};
export const hashFileShape: Shape<HashFileOptions> = { onProgress: fn, readSize: int(1, 64 * 1024 * 1024) };
export const writeBlobShape: Shape<WriteBlobOptions> = {
	chunkSize: int(1, 2 ** 30),
	treeMinBytes: int(0),
	durable: bool,
};
export const readRangeShape: Shape<ReadRangeOptions> = { expectedRoot: hex64, expectedSize: int(0), engine };

/** Checks `options` against `shape`; throws one TypeError naming the function and the bad field. */
export function parseOptions<T extends object>(fnName: string, shape: Shape<T>, options: T | undefined): T {
	if (options === undefined || options === null) return {} as T;
	if (typeof options !== "object") throw new TypeError(`${fnName}(): invalid options: must be an object`);
	const unknown = Object.keys(options).filter((k) => !Object.hasOwn(shape, k));
	if (unknown.length > 0)
		throw new TypeError(
			`${fnName}(): invalid options: unknown option(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}`,
		);
	for (const [key, check] of Object.entries(shape) as [string, Check][]) {
		const value = (options as Record<string, unknown>)[key];
		const problem = value === undefined ? undefined : check(value);
		if (problem) throw new TypeError(`${fnName}(): invalid ${key}: ${problem}`);
	}
	return options;
}
