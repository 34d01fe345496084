// The plan of a store verification: which tasks hash which blobs, against what. Blobs with a chunk
// tree (their size known from the sidecar) are streamed whole against their names, and in
// "tree"/"full" mode also (or instead) split into chunk ranges checked against the sidecar. Blobs
// without one go in batches of digests sized from the scan's sampled mean (engine chosen per batch;
// a file that turns out large is streamed by the task). Tasks are ordered largest first, batches
// last, so the threads that claim them in turn finish together. Pure: works on the scan's results.

import type { ConcreteEngine } from "../wasm/index.ts";
import type { BlobEntry, DigestList, Scan } from "./store-scan.ts";
import type { Task } from "./tasks.ts";
import {
	DEFAULT_BATCH_BLOBS,
	DEFAULT_BATCH_BYTES,
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_READ_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	type VerifyMode,
} from "./verify-options.ts";

/** Batches hashed across the Wasm lanes hold at most this many bytes (1 MiB). */
export const WASM_BATCH_BYTES = 1024 * 1024;

/**
 * A task and what it verifies: `blobs` the sidecar blobs of a file or chunks task (`first` is the
 * first chunk index of a chunks task, -1 for a whole-file task); a batch names its blobs by digest
 * (`first` is the index of its first digest in the scan's list of plain blobs). `bytes` is what the
 * task is planned to read (estimated for batches).
 */
export interface Planned {
	task: Task;
	blobs: BlobEntry[];
	first: number;
	bytes: number;
}

/** Engines per shape, resolved only when a task of that shape is planned (so no needless calibration). */
export interface PlanEngines {
	chunks(): ConcreteEngine;
	stream(): ConcreteEngine;
	many(count: number, bytes: number): ConcreteEngine;
}

export interface PlanOptions {
	chunksPerTask?: number | undefined;
	batchBytes?: number | undefined;
	batchBlobs?: number | undefined;
	engines: PlanEngines;
}

/** Chunk-range tasks of tree blobs (checked against their sidecar). */
export function planChunks(blobs: BlobEntry[], chunksPerTask: number | undefined, engine: ConcreteEngine): Planned[] {
	const per = chunksPerTask ?? DEFAULT_CHUNKS_PER_TASK;
	const out: Planned[] = [];
	for (const blob of blobs) {
		const tree = blob.tree;
		if (!tree) continue;
		for (let first = 0; first < tree.chunkCount; first += per) {
			const offset = first * tree.chunkSize;
			const length = Math.min(per * tree.chunkSize, tree.blobSize - offset);
			const task: Task = {
				kind: "chunks",
				path: blob.abs,
				offset,
				length,
				chunkSize: tree.chunkSize,
				blobSize: tree.blobSize,
				engine,
			};
			out.push({ task, blobs: [blob], first, bytes: length });
		}
	}
	return out;
}

function batches(plain: DigestList, prefix: string, mean: number, o: PlanOptions): Planned[] {
	const maxBytes = o.batchBytes ?? DEFAULT_BATCH_BYTES;
	const maxBlobs = o.batchBlobs ?? DEFAULT_BATCH_BLOBS;
	const perFor = (bytes: number) => Math.max(1, Math.min(maxBlobs, Math.floor(bytes / Math.max(mean, 1))));
	const out: Planned[] = [];
	if (plain.count === 0) return out;
	const engine = o.engines.many(perFor(maxBytes), Math.round(perFor(maxBytes) * mean));
	// The Wasm lanes copy a batch into the core's memory: smaller batches keep that memory small.
	const per = perFor(engine === "wasm" ? Math.min(maxBytes, WASM_BATCH_BYTES) : maxBytes);
	const streamEngine = o.engines.stream();
	for (let i = 0; i < plain.count; i += per) {
		const n = Math.min(per, plain.count - i);
		const task: Task = {
			kind: "batch",
			prefix,
			digests: plain.bytes.slice(i * 32, (i + n) * 32), // a copy: a posted view would carry its whole buffer
			maxBuffered: DEFAULT_TREE_MIN_BYTES,
			engine,
			streamEngine,
			readSize: DEFAULT_READ_SIZE,
			keepManifests: true,
		};
		out.push({ task, blobs: [], first: i, bytes: Math.round(n * mean) });
	}
	return out;
}

/** Plans the hashing of every scanned blob. */
export function planStore(found: Scan, mode: VerifyMode, o: PlanOptions): Planned[] {
	const big: Planned[] = [];
	const chunked: BlobEntry[] = [];
	for (const blob of found.trees) {
		const tree = blob.tree as NonNullable<BlobEntry["tree"]>;
		if (mode !== "name") chunked.push(blob);
		if (mode === "tree") continue;
		const task: Task = {
			kind: "file",
			path: blob.abs,
			readSize: DEFAULT_READ_SIZE,
			size: tree.blobSize,
			engine: o.engines.stream(),
		};
		big.push({ task, blobs: [blob], first: -1, bytes: tree.blobSize });
	}
	if (chunked.length > 0) big.push(...planChunks(chunked, o.chunksPerTask, o.engines.chunks()));
	big.sort((a, b) => b.bytes - a.bytes);
	return [...big, ...batches(found.plain, found.prefix, found.meanPlain, o)];
}
