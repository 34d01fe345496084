// What the fold store (fold-store.ts) is configured with and reports: its options, the verification
// events it emits, what a manifest slice shows for the binding check, and its argument checks. Pure.

import { isDigestHex } from "../verify/index.ts";

/** What a slice of a manifest fold shows, for the binding check: the root's claims and the entries shown. */
export interface ManifestShown {
	readonly foldId: string | undefined;
	readonly entries: number;
	readonly shown: readonly { readonly index: number; readonly id: string }[];
}

/** One verification the store performed (for status, tests and benchmarks). */
export interface VerifyEvent {
	readonly sha256: string;
	/** "chunks": only sidecar chunks [first, end) were hashed; "whole": the blob was hashed against its name. */
	readonly method: "chunks" | "whole";
	readonly bytesHashed: number;
	readonly chunks?: readonly [number, number];
}

/**
 * FoldStore options (all optional):
 * - `chunkSize` of large sources' chunk trees (default DEFAULT_CHUNK_SIZE, 1 MiB, from src/verify);
 * - `treeMinBytes`: sources larger than this get a chunk tree (default DEFAULT_TREE_MIN_BYTES, 4 MiB);
 * - `durable`: fsync files and folders on put (default true; false only for throwaway stores);
 * - `onVerify`: called after each successful verification (see VerifyEvent);
 * - `sweepTemp`: remove a killed writer's leftovers from tmp/ when the store is opened (default true).
 */
export interface FoldStoreOptions {
	readonly chunkSize?: number;
	readonly treeMinBytes?: number;
	readonly durable?: boolean;
	readonly onVerify?: (event: VerifyEvent) => void;
	readonly sweepTemp?: boolean;
}

export function checkDigest(fn: string, sha: string): void {
	if (!isDigestHex(sha)) throw new TypeError(`FoldStore.${fn}(): not a SHA-256 digest (64 lowercase hex): ${sha}`);
}

export function checkBytes(fn: string, expectedBytes: number | undefined): void {
	if (expectedBytes !== undefined && (!Number.isSafeInteger(expectedBytes) || expectedBytes < 0))
		throw new RangeError(`FoldStore.${fn}(): expectedBytes must be an integer >= 0, got ${expectedBytes}`);
}
