// The chunk-tree sidecar and ranged reads: the sidecar's encoding, whole-file and per-chunk
// verification, and readVerifiedRange (only the chunks a range touches are read and verified, and a
// damaged one is refused, naming it).

import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import {
	blobPath,
	blobRelPath,
	decodeTree,
	encodeTree,
	IntegrityError,
	loadTree,
	readVerifiedRange,
	TreeFormatError,
	treePath,
	verifyBlob,
	verifyStore,
	writeBlob,
} from "../../src/verify/index.ts";
import { bytes, flipByte, SMALL_TREE, tempDir } from "./helpers.ts";

afterAll(() => closeSharedPools());

/** What `fn` throws; undefined when it returns. */
function thrown(fn: () => unknown): unknown {
	try {
		fn();
	} catch (error) {
		return error;
	}
	return undefined;
}

const CHUNKS = 13;
const SIZE = CHUNKS * 1024 - 300; // 13 chunks, the last one short

async function treeBlob(): Promise<{ dir: string; digest: string; data: Uint8Array; root: string }> {
	const dir = tempDir();
	const data = bytes(SIZE, 7);
	const written = await writeBlob(dir, data, SMALL_TREE);
	if (!written.tree) throw new Error("expected a chunk tree");
	return { dir, digest: written.digest, data, root: written.tree.root };
}

describe("the chunk-tree sidecar", () => {
	it("round-trips through encode/decode and binds the blob's name, size and chunk size", async () => {
		const { dir, digest, root } = await treeBlob();
		const tree = loadTree(dir, digest);
		expect(tree).toMatchObject({ chunkSize: 1024, blobSize: SIZE, chunkCount: CHUNKS, blobDigest: digest, root });
		expect(decodeTree(encodeTree(tree as never))).toEqual(tree);
	});

	it("refuses a damaged sidecar by name", async () => {
		const { dir, digest } = await treeBlob();
		const path = treePath(dir, digest);
		const raw = readFileSync(path);
		expect(() => decodeTree(raw.subarray(0, 50))).toThrow(TreeFormatError);
		for (const offset of [0, 9, 30, 100, raw.length - 1]) {
			const copy = Uint8Array.from(raw);
			copy[offset] = (copy[offset] ?? 0) ^ 0x80;
			expect(() => decodeTree(copy)).toThrow(TreeFormatError);
		}
	});

	it("a damaged sidecar is reported and its blob is still verified whole", async () => {
		const { dir, digest } = await treeBlob();
		flipByte(treePath(dir, digest), 120);
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([expect.objectContaining({ kind: "corrupt", path: `${blobRelPath(digest)}.tree` })]);
		expect(result.issues[0]?.detail).toMatch(/self-check failed.*verified whole instead/);
		const blob = await verifyBlob(dir, digest, { workers: 0 });
		expect(blob).toMatchObject({ ok: true, method: "name" });
		expect(blob.sidecarIssue).toMatch(/self-check failed/);
	});
});

describe("chunk-tree and whole-file verification", () => {
	it("agree on a clean blob", async () => {
		const { dir, digest } = await treeBlob();
		const tree = await verifyBlob(dir, digest, { workers: 0 });
		const full = await verifyBlob(dir, digest, { workers: 0, mode: "full" });
		expect(tree).toMatchObject({ ok: true, method: "tree", badChunks: [] });
		expect(full).toMatchObject({ ok: true, method: "tree+name", badChunks: [] });
	});

	it("both catch a flipped byte in every chunk, and the tree names the chunk", async () => {
		for (let chunk = 0; chunk < CHUNKS; chunk++) {
			const { dir, digest } = await treeBlob();
			const offset = Math.min(SIZE - 1, chunk * 1024 + ((chunk * 131) % 1024));
			flipByte(blobPath(dir, digest), offset);
			const tree = await verifyBlob(dir, digest, { workers: 0, chunksPerTask: 3 });
			expect(tree).toMatchObject({ ok: false, badChunks: [chunk] });
			const full = await verifyBlob(dir, digest, { workers: 0, mode: "full" });
			expect(full.ok).toBe(false);
			expect(full.detail).toMatch(/chunk/);
			const store = await verifyStore(dir, { workers: 0 });
			expect(store.issues).toEqual([expect.objectContaining({ kind: "corrupt", badChunks: [chunk] })]);
		}
	});

	it("run the same on worker threads as on the calling thread", async () => {
		const { dir, digest } = await treeBlob();
		flipByte(blobPath(dir, digest), 5 * 1024);
		flipByte(blobPath(dir, digest), 11 * 1024 + 1);
		const inThread = await verifyBlob(dir, digest, { workers: 0, chunksPerTask: 2 });
		const pooled = await verifyBlob(dir, digest, { workers: 2, chunksPerTask: 2 });
		expect(pooled).toEqual(inThread);
		expect(inThread.badChunks).toEqual([5, 11]);
	});
});

describe("readVerifiedRange", () => {
	it("returns exactly the requested bytes and reads only the chunks the range touches", async () => {
		const { dir, digest, data } = await treeBlob();
		const r = readVerifiedRange(dir, digest, 2000, 1500);
		expect(r).toMatchObject({ start: 2000, end: 3500, size: SIZE, chunks: [1, 4] });
		expect(Buffer.from(r.bytes).equals(Buffer.from(data.subarray(2000, 3500)))).toBe(true);
		expect(readVerifiedRange(dir, digest, 4096, 1024).chunks).toEqual([4, 5]);
	});

	it("verifies only the touched chunks: damage elsewhere passes, damage inside is refused", async () => {
		const { dir, digest } = await treeBlob();
		flipByte(blobPath(dir, digest), 9 * 1024 + 10);
		expect(readVerifiedRange(dir, digest, 100, 3000).bytes.length).toBe(3000);
		for (const [offset, length] of [
			[8 * 1024, 2048],
			[9 * 1024 + 5, 10],
		] as const) {
			const error = thrown(() => readVerifiedRange(dir, digest, offset, length));
			expect(error).toBeInstanceOf(IntegrityError);
			expect((error as IntegrityError).badChunks).toEqual([9]);
		}
	});

	it("clamps a range past the end and refuses negative offsets", async () => {
		const { dir, digest } = await treeBlob();
		expect(readVerifiedRange(dir, digest, SIZE - 10, 100)).toMatchObject({ start: SIZE - 10, end: SIZE });
		expect(readVerifiedRange(dir, digest, SIZE + 5, 100).bytes.length).toBe(0);
		expect(() => readVerifiedRange(dir, digest, -1, 10)).toThrow(RangeError);
	});

	it("pins the tree to a root recorded elsewhere", async () => {
		const { dir, digest, root } = await treeBlob();
		expect(readVerifiedRange(dir, digest, 0, 10, { expectedRoot: root }).bytes.length).toBe(10);
		expect(() => readVerifiedRange(dir, digest, 0, 10, { expectedRoot: "0".repeat(64) })).toThrow(/expected 0{64}/);
	});

	it("verifies a blob without a tree whole against its name", async () => {
		const dir = tempDir();
		const data = bytes(3000, 3);
		const { digest } = await writeBlob(dir, data);
		expect(readVerifiedRange(dir, digest, 10, 20)).toMatchObject({ start: 10, end: 30, chunks: undefined });
		const path = blobPath(dir, digest);
		chmodSync(path, 0o644);
		const raw = readFileSync(path);
		raw[2999] = (raw[2999] ?? 0) ^ 1;
		writeFileSync(path, raw);
		expect(() => readVerifiedRange(dir, digest, 10, 20)).toThrow(/not its name/);
	});
});
