// An in-memory fold store for the simulator: the same contract as the on-disk FoldStore (content
// addressed by SHA-256, every read verified, bounded slices snapped to UTF-8 boundaries, search with
// each blob hashed and scanned in one pass), with no files, so a replay of hundreds of sessions
// touches no disk. Fold sources are Merkle manifests over their entries, read through the same tree
// reader as the on-disk store (src/store/tree-read.ts). Pure in-memory.

import type { SourceStore } from "../runtime/index.ts";
import {
	type BlobAccess,
	buildFoldTree,
	type CompiledQuery,
	looksLikeManifest,
	type Manifest,
	type ManifestShown,
	type PoolSearchRun,
	readManifest,
	type SearchTarget,
	searchBlobBytes,
	treeBytes,
	treeSlice,
} from "../store/index.ts";
import { sha256Hex, snapUtf8Range } from "../wasm/index.ts";

export class MemoryStore implements SourceStore {
	private readonly blobs = new Map<string, Uint8Array>();
	/** The error code every write fails with while the store is unwritable (`failWrites`), or null. */
	private failing: string | null = null;

	/** Makes every write fail with `code` (an immutable folder: EPERM; a full disk: ENOSPC), or writable again (null). */
	failWrites(code: string | null): void {
		this.failing = code;
	}

	private checkWritable(): void {
		if (this.failing === null) return;
		throw Object.assign(new Error(`${this.failing}: operation not permitted (simulated)`), { code: this.failing });
	}

	async put(source: string): Promise<{ sha256: string; bytes: number }> {
		this.checkWritable();
		const bytes = new TextEncoder().encode(source);
		const sha256 = sha256Hex(bytes);
		this.blobs.set(sha256, bytes);
		return { sha256, bytes: bytes.length };
	}

	async putFold(foldId: string, leaves: readonly { id: string; data: Uint8Array }[]) {
		this.checkWritable();
		const tree = buildFoldTree(foldId, leaves);
		for (const [sha, data] of tree.blobs) this.blobs.set(sha, data);
		return { sha256: tree.root, bytes: tree.bytes };
	}

	has(sha256: string): boolean {
		return this.blobs.has(sha256);
	}

	/** Bytes of every blob held (each once). */
	storedBytes(): number {
		let n = 0;
		for (const b of this.blobs.values()) n += b.length;
		return n;
	}

	private readonly access: BlobAccess = {
		wholeBytes: async (sha256, label, _max, expectedBytes) => this.verified(sha256, label, expectedBytes),
		blobSlice: async (sha256, offset, bytes, label, expectedBytes) =>
			this.blobSlice(sha256, offset, bytes, label, expectedBytes),
	};

	/** The root manifest of `sha256`, or undefined when the blob is in the old single-blob form. */
	private async root(sha256: string, label: string, expectedBytes?: number): Promise<Manifest | undefined> {
		const head = this.blobs.get(sha256);
		if (!head || !looksLikeManifest(head)) return undefined;
		const m = await readManifest(this.access, sha256, label);
		if (m.kind !== "fold" || (expectedBytes !== undefined && m.bytes !== expectedBytes))
			throw new Error(
				`${label}: manifest ${sha256.slice(0, 16)}… describes ${m.bytes} bytes, expected ${expectedBytes}`,
			);
		return m;
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
		const root = await this.root(sha256, label, expectedBytes);
		if (root) return new TextDecoder().decode(await treeBytes(this.access, root, label));
		return new TextDecoder().decode(this.verified(sha256, label, expectedBytes));
	}

	async readSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<{ text: string; start: number; end: number; totalBytes: number; manifest?: ManifestShown }> {
		const root = await this.root(sha256, label, expectedBytes);
		if (!root) return this.blobSlice(sha256, offset, bytes, label, expectedBytes);
		const { shown, ...slice } = await treeSlice(this.access, root, label, offset, bytes);
		const entries = shown.map((l) => ({ index: l.index, id: l.id }));
		return { ...slice, manifest: { foldId: root.foldId, entries: root.entries, shown: entries } };
	}

	private blobSlice(sha256: string, offset: number, bytes: number, label: string, expectedBytes?: number) {
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
		const results = [];
		for (const t of targets) {
			const root = await this.root(t.sha256, `source ${t.sha256.slice(0, 16)}…`).catch(() => null);
			if (root === undefined) results.push(searchBlobBytes(this.blobs.get(t.sha256), t, query, options));
			else {
				// A manifest: its entries, each verified, searched as one source (a missing entry: nothing found).
				const bytes = root ? await treeBytes(this.access, root, "search").catch(() => undefined) : undefined;
				const found = searchBlobBytes(bytes, { ...t, sha256: bytes ? sha256Hex(bytes) : t.sha256 }, query, options);
				results.push({ ...found, sha256: t.sha256 });
			}
		}
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
