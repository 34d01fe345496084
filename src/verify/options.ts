// The verifier's tunables: every default is a named, documented constant, and every options object
// a caller passes is validated here (zod) so a typo is an error naming the valid fields, never a
// silently ignored option. Pure; no I/O.

import { z } from "zod";

/** Size of one chunk of a blob's chunk tree: 1 MiB. Fixed per sidecar (recorded in it). */
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

/**
 * Blobs strictly larger than this get a chunk-tree sidecar at ingest (4 MiB). Smaller blobs are
 * verified whole against their name (cheap, and batched across Wasm lanes).
 */
export const DEFAULT_TREE_MIN_BYTES = 4 * 1024 * 1024;

/** Worker threads used by store and blob verification (2: the measured sweet spot on 2 cores). */
export const DEFAULT_WORKERS = 2;

/** Chunks of a chunk-tree blob handed to a worker as one task (16 x 1 MiB = 16 MiB read at once). */
export const DEFAULT_CHUNKS_PER_TASK = 16;

/** Small blobs are batched into tasks of up to this many bytes (8 MiB)... */
export const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024;

/** ...and up to this many blobs per task. */
export const DEFAULT_BATCH_BLOBS = 4096;

/** Read size of a whole-file single-stream hash (1 MiB). */
export const DEFAULT_READ_SIZE = 1024 * 1024;

/** Which SHA-256 implementation serves a shape of work; "auto" is the measured choice (docs/verifier.md). */
export type EngineName = "auto" | "wasm" | "node";
export const engineSchema = z.enum(["auto", "wasm", "node"]);

/** Progress of a long verification, reported after each finished unit of work and once at the end. */
export interface VerifyProgress {
	bytesDone: number;
	bytesTotal: number;
	blobsDone: number;
	blobsTotal: number;
}

const progressFn = z.custom<(progress: VerifyProgress) => void>((v) => v === undefined || typeof v === "function", {
	message: "onProgress must be a function",
});

const positiveInt = z.number().int().positive();

/**
 * Options of `verifyStore`.
 * - `onProgress`: called with bytes/blobs done and total (default none).
 * - `workers`: worker threads, 0 = hash on the calling thread (default `DEFAULT_WORKERS`).
 * - `engine`: "auto" (default) picks per shape; "node"/"wasm" force one engine everywhere.
 * - `mode`: "tree" (default) verifies chunk-tree blobs against their sidecar across lanes and
 *   threads; "full" also hashes every blob whole against its name (single stream, slower).
 * - `expected`: digests referenced elsewhere (fold records, manifests); absent ones are "missing".
 * - `chunksPerTask`, `batchBytes`, `batchBlobs`: work-splitting knobs (defaults above).
 */
export const verifyStoreOptionsSchema = z
	.object({
		onProgress: progressFn.optional(),
		workers: z.number().int().min(0).max(64).optional(),
		engine: engineSchema.optional(),
		mode: z.enum(["tree", "full"]).optional(),
		expected: z.array(z.string()).optional(),
		chunksPerTask: positiveInt.optional(),
		batchBytes: positiveInt.optional(),
		batchBlobs: positiveInt.optional(),
	})
	.strict();
export type VerifyStoreOptions = z.input<typeof verifyStoreOptionsSchema>;

/** Options of `hashFile`: `onProgress(bytesDone, bytesTotal)` after each read; `readSize` (default 1 MiB). */
export const hashFileOptionsSchema = z
	.object({
		onProgress: z
			.custom<(bytesDone: number, bytesTotal: number) => void>((v) => v === undefined || typeof v === "function", {
				message: "onProgress must be a function",
			})
			.optional(),
		readSize: positiveInt.optional(),
	})
	.strict();
export type HashFileOptions = z.input<typeof hashFileOptionsSchema>;

/**
 * Options of `writeBlob`: `chunkSize` of the chunk tree (default `DEFAULT_CHUNK_SIZE`),
 * `treeMinBytes` (default `DEFAULT_TREE_MIN_BYTES`): blobs larger than it get a sidecar, and
 * `durable` (default true): fsync file and folder; false only for throwaway stores (benchmarks).
 */
export const writeBlobOptionsSchema = z
	.object({
		chunkSize: positiveInt.optional(),
		treeMinBytes: z.number().int().min(0).optional(),
		durable: z.boolean().optional(),
	})
	.strict();
export type WriteBlobOptions = z.input<typeof writeBlobOptionsSchema>;

/** Options of `verifyBlob`: `workers`, `engine`, `mode`, `chunksPerTask`, `onProgress` as for `verifyStore`. */
export const verifyBlobOptionsSchema = verifyStoreOptionsSchema.omit({
	expected: true,
	batchBytes: true,
	batchBlobs: true,
});
export type VerifyBlobOptions = z.input<typeof verifyBlobOptionsSchema>;

/**
 * Options of `readVerifiedRange`: `expectedRoot` (hex) pins the chunk tree to a root recorded
 * elsewhere (a fold record), so a consistently rewritten blob + sidecar pair is still refused.
 */
export const readRangeOptionsSchema = z
	.object({
		expectedRoot: z
			.string()
			.regex(/^[0-9a-f]{64}$/)
			.optional(),
		engine: engineSchema.optional(),
	})
	.strict();
export type ReadRangeOptions = z.input<typeof readRangeOptionsSchema>;

/** Validates `options` against `schema`; throws one line naming the function and the bad field. */
export function parseOptions<T extends z.ZodType>(fn: string, schema: T, options: unknown): z.output<T> {
	const result = schema.safeParse(options ?? {});
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const where = issue && issue.path.length > 0 ? issue.path.join(".") : "options";
	const detail =
		issue?.code === "unrecognized_keys"
			? `unknown option(s) ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`
			: (issue?.message ?? "invalid");
	throw new TypeError(`${fn}(): invalid ${where}: ${detail}`);
}
