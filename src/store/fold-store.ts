// The fold store: each fold's exact source (canonical bytes, UTF-8) stored content-addressed by
// SHA-256 with the verifier's layout (src/verify: `<dir>/sha256/<2 hex>/<64 hex>`, a `.tree` chunk
// sidecar beside blobs larger than the tree threshold, atomic tmp+fsync+rename writes, files 0444,
// directories 0700). `putFold` stores a source as a Merkle manifest over its entries (src/verify/
// manifest.ts): each entry one blob, stored once however many folds, sessions or forks hold it, the
// root written last; `put` stores one blob (the old form, still read). A kept blob's time is
// freshened on a put, as git does, so gc's grace period counts from the last write. Every read is
// verified before a byte is returned:
//
// - `read(sha, label, expectedBytes?)` reads the whole blob and hashes it against its name (a
//   manifest: every blob of its tree, tree-read.ts).
// - `readSlice(sha, offset, bytes, label, expectedBytes?)` returns the UTF-8-snapped range
//   [offset, offset+bytes) (outward snapping, so paging with offset = previous end tiles the source
//   exactly). Small blobs (no sidecar) are hashed whole, keeping only the range. Large blobs are
//   verified by the sidecar chunks the range touches only, with the sidecar's root PINNED: by `put`
//   in this process, or, the first time an unpinned large blob is sliced (after a restart), by one
//   whole-blob verification that also recomputes the root. So a consistently rewritten blob + sidecar
//   pair never passes on trust. Any chunk-level failure falls back to whole verification against the
//   name; only a blob that does not hash to its name (or is missing, or was refused) is refused. A
//   manifest fold reads the manifests on the slice's path and the entries it shows, each verified
//   against the digest its parent lists; the entry blobs are sliced as above.
//
// Every read is checked before the blob is opened (source-read.ts, src/verify/safe-open.ts): a blob
// that is not a regular file (symlink, FIFO, socket, device, folder), or whose size is not the
// `expectedBytes` the fold recorded, is refused by name unopened; opens never block; reads are
// bounded calls, and memory holds only what is returned. A sidecar that is not a regular file is
// ignored (never opened) and the name decides. Opening a store sweeps its tmp/ of files a killed
// writer left (older than a minute, writer gone: src/verify/tmp-sweep.ts).
//
// Refusals throw SourceVerificationError naming the caller's label (e.g. "fold f0123…"), both
// digests (actual null when there is no readable blob), and the path and what was wrong; nothing
// unverified is ever returned. This module does its own file I/O (async whole reads; bounded slices
// use the verifier's sync reads).

import { lstat, mkdir, rm } from "node:fs/promises";
import {
	blobPath,
	blobRelPath,
	buildFoldTree,
	chunkDigestsOf,
	DEFAULT_CHUNK_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	DIR_MODE,
	FileRefusedError,
	isDigestHex,
	loadTree,
	type Manifest,
	makeTree,
	readVerifiedRange,
	type SweepResult,
	sha256Hex,
	treePath,
	writeBlob,
} from "../verify/index.ts";
import { exists, freshen, headIsManifest, sliceOf, sweepQuietly } from "./blob-files.ts";
import { checkBytes, checkDigest, type FoldStoreOptions, type ManifestShown } from "./fold-store-options.ts";
import type { CompiledQuery, PoolItem, PoolSearchRun, SearchTarget } from "./search/index.ts";
import { sharedSearchPool } from "./search/index.ts";
import { MAX_SOURCE_TEXT_BYTES, refused, SourceVerificationError } from "./source-error.ts";
import { type Keep, readSmallChecked, readWholeChecked, SMALL_SYNC_BYTES } from "./source-read.ts";
import { type StoreUsage, storeUsage } from "./store-usage.ts";
import { type BlobAccess, readManifest, type SourceSlice, searchItemOf, treeBytes, treeSlice } from "./tree-read.ts";

/** Bytes read before/after a requested range so outward UTF-8 snapping sees whole characters. */
const SNAP_PAD_BEFORE = 3;
const SNAP_PAD_AFTER = 4;

/** A content-addressed, verified store of fold sources rooted at `dir` (created lazily, 0700). */
export class FoldStore {
	readonly dir: string;
	private readonly options: FoldStoreOptions;
	/** Chunk-tree roots known to be authentic (from put, or a whole verification in this process). */
	private readonly roots = new Map<string, string>();
	private readonly inflight = new Map<string, Promise<{ sha256: string; bytes: number }>>();
	private rootReady: Promise<void> | undefined;

	/** What the sweep of tmp/ removed when this store was opened (undefined when sweepTemp is false). */
	readonly swept: SweepResult | undefined;

	constructor(dir: string, options: FoldStoreOptions = {}) {
		this.dir = dir;
		this.options = options;
		this.swept = options.sweepTemp === false ? undefined : sweepQuietly(dir);
	}

	/** True when a blob file exists at the source's address (not a verification). */
	has(sha256: string): boolean {
		return isDigestHex(sha256) && exists(blobPath(this.dir, sha256));
	}

	/**
	 * Stores `source` (UTF-8) under its SHA-256: atomic, 0444, idempotent. An existing blob that
	 * verifies is kept; a damaged one (or a damaged sidecar) is replaced by the correct bytes.
	 */
	put(source: string): Promise<{ sha256: string; bytes: number }> {
		const data = Buffer.from(source, "utf8");
		return this.putOnce(sha256Hex(data), data);
	}

	/**
	 * Stores a fold's source as a Merkle manifest (src/verify/manifest.ts): each entry a blob of its
	 * own bytes (`data`, one JSON line), shared with every fold that holds it, then the inner nodes,
	 * the root last, so a root on disk always has its children. Returns the root's digest and the
	 * source's size (the concatenation of the entries).
	 */
	async putFold(
		foldId: string,
		leaves: readonly { id: string; data: Uint8Array }[],
	): Promise<{ sha256: string; bytes: number }> {
		const tree = buildFoldTree(foldId, leaves);
		const below = [...tree.blobs].filter(([sha]) => sha !== tree.root);
		await Promise.all(below.map(([sha, data]) => this.putOnce(sha, data)));
		await this.putOnce(tree.root, tree.blobs.get(tree.root) as Uint8Array);
		return { sha256: tree.root, bytes: tree.bytes };
	}

	/** The store's size and the share the fold sources `roots` reach through their manifests (store-usage.ts). */
	usage(roots: Iterable<string>): StoreUsage {
		return storeUsage(this.dir, roots);
	}

	/** Whether the blob at `sha256` is a manifest (its first bytes; unverified, only to choose how to read it). */
	isManifest(sha256: string): boolean {
		return isDigestHex(sha256) && headIsManifest(blobPath(this.dir, sha256));
	}

	/**
	 * The whole source, hashed against its address before it is returned (a manifest: every blob of
	 * its tree verified). With `expectedBytes` (the size the fold recorded), a blob of any other size
	 * is refused before it is opened (a manifest: a tree of any other size is refused).
	 */
	async read(sha256: string, label: string, expectedBytes?: number): Promise<string> {
		checkDigest("read", sha256);
		checkBytes("read", expectedBytes);
		if (this.isManifest(sha256)) {
			const root = await this.rootManifest(sha256, label, expectedBytes);
			const bytes = await treeBytes(this.access, root, label);
			return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
		}
		return this.blobText(sha256, label, expectedBytes);
	}

	/**
	 * The verified UTF-8 slice covering [offset, offset + bytes) of the source, snapped outward to
	 * character boundaries and clamped to its size. `start`/`end` are byte offsets; page with
	 * `offset = previous end` until `end === totalBytes`. `expectedBytes` as for read(). A manifest
	 * fold reads only the manifests on the slice's path and the entries it shows (`manifest` says which).
	 */
	async readSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<SourceSlice & { manifest?: ManifestShown }> {
		checkDigest("readSlice", sha256);
		if (!Number.isSafeInteger(offset) || offset < 0)
			throw new RangeError(`FoldStore.readSlice(): offset must be an integer >= 0, got ${offset}`);
		if (!Number.isSafeInteger(bytes) || bytes < 0)
			throw new RangeError(`FoldStore.readSlice(): bytes must be an integer >= 0, got ${bytes}`);
		checkBytes("readSlice", expectedBytes);
		if (this.isManifest(sha256)) {
			const root = await this.rootManifest(sha256, label, expectedBytes);
			const { shown, ...slice } = await treeSlice(this.access, root, label, offset, bytes);
			const entries = shown.map((l) => ({ index: l.index, id: l.id }));
			return { ...slice, manifest: { foldId: root.foldId, entries: root.entries, shown: entries } };
		}
		return this.blobSlice(sha256, offset, bytes, label, expectedBytes);
	}

	/** The root manifest of a fold, verified, of the size the fold recorded. */
	private async rootManifest(sha256: string, label: string, expectedBytes: number | undefined): Promise<Manifest> {
		const root = await readManifest(this.access, sha256, label);
		if (root.kind !== "fold")
			throw new SourceVerificationError(label, sha256, sha256, "refused", "an inner node, not a fold's manifest");
		if (expectedBytes !== undefined && root.bytes !== expectedBytes)
			throw new SourceVerificationError(
				label,
				sha256,
				sha256,
				"refused",
				`the manifest describes ${root.bytes} bytes, the fold recorded ${expectedBytes}`,
			);
		return root;
	}

	/** How the tree reader reads this store's blobs. */
	private readonly access: BlobAccess = {
		wholeBytes: async (sha256, label, maxBytes, expectedBytes) => {
			const want = { expectedSize: expectedBytes, maxSize: maxBytes };
			const path = blobPath(this.dir, sha256);
			const whole =
				maxBytes <= SMALL_SYNC_BYTES
					? readSmallChecked(path, sha256, want)
					: await readWholeChecked(path, sha256, want, { all: true });
			if (!whole.ok) throw refused(label, sha256, whole);
			this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
			return whole.bytes;
		},
		blobSlice: (sha256, offset, bytes, label, expectedBytes) =>
			this.blobSlice(sha256, offset, bytes, label, expectedBytes),
	};

	/** One blob whole, hashed against its name. */
	private async blobText(sha256: string, label: string, expectedBytes?: number): Promise<string> {
		const want = { expectedSize: expectedBytes, maxSize: MAX_SOURCE_TEXT_BYTES };
		const whole = await readWholeChecked(blobPath(this.dir, sha256), sha256, want, { all: true });
		if (!whole.ok) throw refused(label, sha256, whole);
		this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
		return Buffer.from(whole.bytes.buffer, whole.bytes.byteOffset, whole.bytes.byteLength).toString("utf8");
	}

	/** A slice of one blob: by the chunks it touches against a pinned root, else by the whole blob. */
	private async blobSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<SourceSlice> {
		const tree = this.usableTree(sha256, expectedBytes);
		const pinned = this.roots.get(sha256);
		if (tree && pinned !== undefined) {
			const slice = this.pinnedSlice(sha256, tree, pinned, offset, bytes, label);
			if (slice) return slice;
		}
		if (!tree && expectedBytes !== undefined && expectedBytes <= SMALL_SYNC_BYTES) {
			// A small blob of a known size (an entry of a manifest): one synchronous read, hashed whole.
			const whole = readSmallChecked(blobPath(this.dir, sha256), sha256, { expectedSize: expectedBytes });
			if (!whole.ok) throw refused(label, sha256, whole);
			this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
			const from = Math.min(offset, whole.size);
			return sliceOf(whole.bytes, 0, from, Math.min(whole.size, from + bytes), whole.size);
		}
		return this.wholeSlice(sha256, tree, offset, bytes, label, expectedBytes);
	}

	/** The sidecar, when it is a readable, intact tree of this blob (of the expected size); else undefined. */
	private usableTree(sha256: string, expectedBytes: number | undefined): ReturnType<typeof loadTree> {
		try {
			const tree = loadTree(this.dir, sha256);
			return tree && (expectedBytes === undefined || tree.blobSize === expectedBytes) ? tree : undefined;
		} catch {
			return undefined; // damaged, foreign, or not a regular file (never opened): the name decides
		}
	}

	/** A slice verified by the chunks it touches against a pinned root; undefined to fall back to the name. */
	private pinnedSlice(
		sha256: string,
		tree: NonNullable<ReturnType<typeof loadTree>>,
		pinned: string,
		offset: number,
		bytes: number,
		label: string,
	): { text: string; start: number; end: number; totalBytes: number } | undefined {
		const size = tree.blobSize;
		const from = Math.min(offset, size);
		const to = Math.min(size, from + bytes);
		const wStart = Math.max(0, from - SNAP_PAD_BEFORE);
		const wEnd = Math.min(size, to + SNAP_PAD_AFTER);
		try {
			const range = readVerifiedRange(this.dir, sha256, wStart, wEnd - wStart, {
				expectedRoot: pinned,
				expectedSize: size,
			});
			if (range.chunks)
				this.options.onVerify?.({
					sha256,
					method: "chunks",
					bytesHashed: Math.min(size, range.chunks[1] * tree.chunkSize) - range.chunks[0] * tree.chunkSize,
					chunks: range.chunks,
				});
			return sliceOf(range.bytes, range.start, from, to, size);
		} catch (error) {
			if (error instanceof FileRefusedError && error.problem === "missing")
				throw new SourceVerificationError(label, sha256, null, "missing", blobRelPath(sha256));
			return undefined; // chunk mismatch, size mismatch, refused or a foreign root: the name decides
		}
	}

	/** Verifies the whole blob against its name in one bounded pass, keeping only the window it returns (and pinning the tree's root). */
	private async wholeSlice(
		sha256: string,
		tree: ReturnType<typeof loadTree>,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes: number | undefined,
	): Promise<{ text: string; start: number; end: number; totalBytes: number }> {
		const keep: Keep = {
			window: (size) => {
				const from = Math.min(offset, size);
				return [Math.max(0, from - SNAP_PAD_BEFORE), Math.min(size, from + bytes + SNAP_PAD_AFTER)];
			},
		};
		const path = blobPath(this.dir, sha256);
		const whole = await readWholeChecked(path, sha256, { expectedSize: expectedBytes }, keep, tree?.chunkSize);
		if (!whole.ok) throw refused(label, sha256, whole);
		if (tree && whole.chunkDigests)
			this.roots.set(sha256, makeTree(sha256, tree.chunkSize, whole.size, whole.chunkDigests).root);
		this.options.onVerify?.({ sha256, method: "whole", bytesHashed: whole.size });
		const from = Math.min(offset, whole.size);
		return sliceOf(whole.bytes, whole.start, from, Math.min(whole.size, from + bytes), whole.size);
	}

	/**
	 * Searches the sources of `targets` on the shared search pool: each blob read once, hashed against
	 * its name and scanned from the same bytes (a source that fails keeps none of its hits). A manifest
	 * fold is searched as its entries in order, each verified against the digest its manifest lists; a
	 * manifest that cannot be read is reported as that source's failure. Results are index-aligned with
	 * `targets`; the search stops at `timeLimitMs`.
	 */
	async search(
		targets: readonly SearchTarget[],
		query: CompiledQuery,
		options: { maxHits: number; timeLimitMs: number },
	): Promise<PoolSearchRun> {
		for (const t of targets) checkDigest("search", t.sha256);
		const planned = await Promise.all(
			targets.map((t) => searchItemOf(this.access, this.dir, t, this.isManifest(t.sha256))),
		);
		const items = planned.filter((p): p is PoolItem => "path" in p);
		const run = await sharedSearchPool().search(items, query, options);
		let next = 0;
		const results = planned.map((p) => ("path" in p ? run.results[next++] : p.failed));
		return { ...run, results };
	}

	/** Writes one blob unless it is there and intact (then freshens its time, so gc's grace keeps it). */
	private putOnce(sha: string, data: Uint8Array): Promise<{ sha256: string; bytes: number }> {
		const running = this.inflight.get(sha);
		if (running) return running;
		const job = this.putBytes(sha, data).finally(() => this.inflight.delete(sha));
		this.inflight.set(sha, job);
		return job;
	}

	private async putBytes(sha: string, data: Uint8Array): Promise<{ sha256: string; bytes: number }> {
		await this.ensureRoot();
		const path = blobPath(this.dir, sha);
		if (exists(path)) {
			const existing = await readWholeChecked(path, sha, { expectedSize: data.length }, undefined);
			if (!existing.ok) {
				await rm(path, { force: true });
				await rm(treePath(this.dir, sha), { force: true });
			} else if (data.length <= this.treeMin()) {
				// Freshened, so gc's grace period keeps it; gone since (gc took it): written anew below.
				if (await freshen(path)) return { sha256: sha, bytes: data.length };
			} else {
				const root = this.authenticRoot(sha, data);
				if (root !== undefined && (await freshen(path))) {
					this.roots.set(sha, root);
					return { sha256: sha, bytes: data.length };
				}
				await rm(treePath(this.dir, sha), { force: true }); // writeBlob rewrites a missing sidecar
			}
		}
		const written = await writeBlob(this.dir, data, {
			chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK_SIZE,
			treeMinBytes: this.treeMin(),
			durable: this.options.durable ?? true,
		});
		if (written.tree) this.roots.set(sha, written.tree.root);
		return { sha256: sha, bytes: data.length };
	}

	/** The on-disk sidecar's root when it matches `data` (the authentic bytes), else undefined. */
	private authenticRoot(sha: string, data: Uint8Array): string | undefined {
		try {
			const tree = loadTree(this.dir, sha);
			if (!tree) return undefined;
			const root = makeTree(sha, tree.chunkSize, data.length, chunkDigestsOf(data, tree.chunkSize)).root;
			return tree.root === root ? root : undefined;
		} catch {
			return undefined;
		}
	}

	private treeMin(): number {
		return this.options.treeMinBytes ?? DEFAULT_TREE_MIN_BYTES;
	}

	/** Creates the root (0700) once and refuses a root that is a symlink or owned by someone else. */
	private ensureRoot(): Promise<void> {
		this.rootReady ??= (async () => {
			await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
			const st = await lstat(this.dir);
			if (!st.isDirectory()) throw new Error(`fold store path is not a directory: ${this.dir}`);
			const uid = process.getuid?.();
			if (uid !== undefined && st.uid !== uid)
				throw new Error(`fold store ${this.dir} is owned by uid ${st.uid}, not this user (${uid}); refusing it`);
		})().catch((error) => {
			this.rootReady = undefined;
			throw error;
		});
		return this.rootReady;
	}
}
