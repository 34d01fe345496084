// The chunk tree of a large blob and its sidecar file format (pure; callers do the I/O).
//
// A blob's name stays the SHA-256 of its whole content. Beside it, `<digest>.tree` records the
// SHA-256 of each fixed-size chunk (1 MiB by default; the last may be short) and a root over them,
// so verification can run chunks across Wasm lanes and worker threads, and a bounded read verifies
// only the chunks it touches. Sidecar v1, little-endian:
//
//   off  size  field
//   0    8     magic "PFTREE" 0x00 0x01 (format version 1)
//   8    4     chunkSize (u32, bytes)
//   12   8     blobSize (u64, bytes)
//   20   4     chunkCount (u32) = ceil(blobSize / chunkSize)
//   24   32    blob digest (the whole-file SHA-256, i.e. the blob's name)
//   56   32    root = SHA-256("pi-fold/chunk-tree/v1" 0x00 || bytes 8..56 || chunk digests)
//   88   32*n  chunk digests, in order
//   end  32    check = SHA-256 of every byte before it (detects a damaged sidecar)
//
// The root binds the chunk digests to the blob's name, size and chunk size; record it wherever a
// blob is referenced (a fold record) and pass it as `expectedRoot` to pin a read to that record.

import { sha256 } from "../wasm/index.ts";
import { isDigestHex, toHex } from "./layout.ts";

const MAGIC = Uint8Array.from([0x50, 0x46, 0x54, 0x52, 0x45, 0x45, 0x00, 0x01]);
const DOMAIN = Buffer.from("pi-fold/chunk-tree/v1\0", "utf8");
const HEADER = 88;

/** A decoded chunk tree. `digests` holds `chunkCount` 32-byte digests back to back. */
export interface ChunkTree {
	chunkSize: number;
	blobSize: number;
	chunkCount: number;
	/** Whole-file SHA-256 (hex): the blob's name. */
	blobDigest: string;
	/** Root over the chunk digests (hex). */
	root: string;
	digests: Uint8Array;
}

/** A sidecar that cannot be trusted: wrong magic, inconsistent sizes or a failed self-check. */
export class TreeFormatError extends Error {
	override name = "TreeFormatError";
}

/** Number of chunks of a blob of `blobSize` bytes (an empty blob has none). */
export function chunkCountOf(blobSize: number, chunkSize: number): number {
	return Math.ceil(blobSize / chunkSize);
}

function header(chunkSize: number, blobSize: number, chunkCount: number, blobDigest: string): Uint8Array {
	const out = new Uint8Array(HEADER);
	const view = new DataView(out.buffer);
	out.set(MAGIC, 0);
	view.setUint32(8, chunkSize, true);
	view.setBigUint64(12, BigInt(blobSize), true);
	view.setUint32(20, chunkCount, true);
	out.set(Buffer.from(blobDigest, "hex"), 24);
	return out;
}

/** The root over chunk digests, bound to the blob's name, size and chunk size (hex). */
export function treeRoot(blobDigest: string, chunkSize: number, blobSize: number, digests: Uint8Array): string {
	const head = header(chunkSize, blobSize, digests.length / 32, blobDigest).subarray(8, 56);
	const material = new Uint8Array(DOMAIN.length + head.length + digests.length);
	material.set(DOMAIN, 0);
	material.set(head, DOMAIN.length);
	material.set(digests, DOMAIN.length + head.length);
	return toHex(sha256(material));
}

/** Builds the tree record from the chunk digests of a blob. */
export function makeTree(blobDigest: string, chunkSize: number, blobSize: number, digests: Uint8Array): ChunkTree {
	if (!isDigestHex(blobDigest)) throw new TypeError(`makeTree(): not a digest: ${blobDigest}`);
	const chunkCount = chunkCountOf(blobSize, chunkSize);
	if (digests.length !== chunkCount * 32)
		throw new TypeError(`makeTree(): ${digests.length / 32} digests for ${chunkCount} chunks`);
	return {
		chunkSize,
		blobSize,
		chunkCount,
		blobDigest,
		root: treeRoot(blobDigest, chunkSize, blobSize, digests),
		digests,
	};
}

/** Serializes a tree to sidecar bytes. */
export function encodeTree(tree: ChunkTree): Uint8Array {
	const body = HEADER + tree.digests.length;
	const out = new Uint8Array(body + 32);
	out.set(header(tree.chunkSize, tree.blobSize, tree.chunkCount, tree.blobDigest), 0);
	out.set(Buffer.from(tree.root, "hex"), 56);
	out.set(tree.digests, HEADER);
	out.set(sha256(out.subarray(0, body)), body);
	return out;
}

/** Parses and checks sidecar bytes; throws TreeFormatError naming what is wrong. */
export function decodeTree(bytes: Uint8Array): ChunkTree {
	if (bytes.length < HEADER + 32) throw new TreeFormatError(`sidecar too short (${bytes.length} bytes)`);
	for (let i = 0; i < MAGIC.length; i++)
		if (bytes[i] !== MAGIC[i]) throw new TreeFormatError("not a pi-fold chunk-tree sidecar (bad magic or version)");
	const body = bytes.length - 32;
	if (toHex(sha256(bytes.subarray(0, body))) !== toHex(bytes.subarray(body)))
		throw new TreeFormatError("sidecar self-check failed (damaged)");
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const chunkSize = view.getUint32(8, true);
	const blobSize = Number(view.getBigUint64(12, true));
	const chunkCount = view.getUint32(20, true);
	if (chunkSize === 0 || !Number.isSafeInteger(blobSize) || chunkCount !== chunkCountOf(blobSize, chunkSize))
		throw new TreeFormatError("sidecar header is inconsistent");
	if (body - HEADER !== chunkCount * 32) throw new TreeFormatError("sidecar length does not match its chunk count");
	const blobDigest = toHex(bytes.subarray(24, 56));
	const root = toHex(bytes.subarray(56, 88));
	const digests = bytes.slice(HEADER, body);
	if (treeRoot(blobDigest, chunkSize, blobSize, digests) !== root)
		throw new TreeFormatError("sidecar root does not match its chunk digests");
	return { chunkSize, blobSize, chunkCount, blobDigest, root, digests };
}

/** Indices of chunks whose digests differ between `expected` and `actual` (same chunk numbering from `first`). */
export function mismatchedChunks(expected: Uint8Array, actual: Uint8Array, first = 0): number[] {
	const bad: number[] = [];
	const n = Math.min(expected.length, actual.length) / 32;
	for (let i = 0; i < n; i++) {
		const a = i * 32;
		for (let j = 0; j < 32; j++) {
			if (expected[a + j] !== actual[a + j]) {
				bad.push(first + i);
				break;
			}
		}
	}
	return bad;
}
