// An in-memory fold store for the simulator: the same contract as the on-disk FoldStore (content
// addressed by SHA-256, every read verified, bounded slices snapped to UTF-8 boundaries, search with
// each blob hashed and scanned in one pass), with no files, so a replay of hundreds of sessions
// touches no disk. Pure in-memory.

import type { SourceStore } from "../runtime/index.ts";
import { type CompiledQuery, type PoolSearchRun, type SearchTarget, searchBlobBytes } from "../store/index.ts";
import { sha256Hex, snapUtf8Range } from "../wasm/index.ts";

export class MemoryStore implements SourceStore {
	private readonly blobs = new Map<string, Uint8Array>();

	async put(source: string): Promise<{ sha256: string; bytes: number }> {
		const bytes = new TextEncoder().encode(source);
		const sha256 = sha256Hex(bytes);
		this.blobs.set(sha256, bytes);
		return { sha256, bytes: bytes.length };
	}

	has(sha256: string): boolean {
		return this.blobs.has(sha256);
	}

	private verified(sha256: string, label: string, expectedBytes: number | undefined): Uint8Array {
		const bytes = this.blobs.get(sha256);
		if (!bytes) throw new Error(`${label}: no source ${sha256.slice(0, 16)}… in the store`);
		if (expectedBytes !== undefined && bytes.length !== expectedBytes)
			throw new Error(`${label}: source ${sha256.slice(0, 16)}… is ${bytes.length} bytes, expected ${expectedBytes}`);
		const actual = sha256Hex(bytes);
		if (actual !== sha256)
			throw new Error(`${label}: source hashes to ${actual.slice(0, 16)}…, expected ${sha256.slice(0, 16)}…`);
		return bytes;
	}

	async read(sha256: string, label: string, expectedBytes?: number): Promise<string> {
		return new TextDecoder().decode(this.verified(sha256, label, expectedBytes));
	}

	async readSlice(sha256: string, offset: number, bytes: number, label: string, expectedBytes?: number) {
		const all = this.verified(sha256, label, expectedBytes);
		const { start, end } = snapUtf8Range(all, Math.min(offset, all.length), Math.max(0, bytes));
		return { text: new TextDecoder().decode(all.subarray(start, end)), start, end, totalBytes: all.length };
	}

	/** Searches in-thread with the store's own scanner (each blob hashed and scanned in one pass); no time bound. */
	async search(
		targets: readonly SearchTarget[],
		query: CompiledQuery,
		options: { maxHits: number },
	): Promise<PoolSearchRun> {
		const results = targets.map((t) => searchBlobBytes(this.blobs.get(t.sha256), t, query, options));
		return { results, stopped: null, workers: 0 };
	}

	/** Drops a stored blob (tests of the fallback to the session's entries). */
	remove(sha256: string): void {
		this.blobs.delete(sha256);
	}

	/** Replaces a stored blob's bytes (tests of tamper refusal). */
	tamper(sha256: string, text: string): void {
		this.blobs.set(sha256, new TextEncoder().encode(text));
	}
}
