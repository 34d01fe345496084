// The content-addressed layout of a store directory, as names and paths only (pure; no I/O):
//
//   <dir>/sha256/<first 2 hex>/<64 hex>        a blob, named by the SHA-256 of its whole content
//   <dir>/sha256/<first 2 hex>/<64 hex>.tree   its chunk-tree sidecar (blobs > DEFAULT_TREE_MIN_BYTES)
//   <dir>/tmp/                                 writeBlob's temporary files (renamed into place)
//
// Anything else under sha256/ is stray; other top-level entries belong to other layers and are left alone.

import { join } from "node:path";

/** The folder under a store directory that holds blobs. */
export const BLOBS_DIR = "sha256";
/** The folder under a store directory that holds in-flight temporary files. */
export const TMP_DIR = "tmp";
/** File-name suffix of a chunk-tree sidecar. */
export const TREE_SUFFIX = ".tree";

const DIGEST_RE = /^[0-9a-f]{64}$/;
const FANOUT_RE = /^[0-9a-f]{2}$/;

/** True for a lowercase 64-hex SHA-256 digest. */
export function isDigestHex(name: string): boolean {
	return DIGEST_RE.test(name);
}

/** True for a lowercase 2-hex fan-out folder name. */
export function isFanoutName(name: string): boolean {
	return FANOUT_RE.test(name);
}

function checkDigest(digest: string): void {
	if (!isDigestHex(digest)) throw new TypeError(`not a SHA-256 digest (64 lowercase hex): ${JSON.stringify(digest)}`);
}

/** Path of a blob relative to the store directory: `sha256/ab/ab...`. */
export function blobRelPath(digest: string): string {
	checkDigest(digest);
	return `${BLOBS_DIR}/${digest.slice(0, 2)}/${digest}`;
}

/** Absolute (or `dir`-relative) path of a blob. */
export function blobPath(dir: string, digest: string): string {
	return join(dir, blobRelPath(digest));
}

/** Path of a blob's chunk-tree sidecar. */
export function treePath(dir: string, digest: string): string {
	return `${blobPath(dir, digest)}${TREE_SUFFIX}`;
}

/** What a file name inside a fan-out folder means. */
export type EntryName =
	| { kind: "blob"; digest: string }
	| { kind: "tree"; digest: string }
	| { kind: "misplaced"; digest: string; isTree: boolean }
	| { kind: "invalid" };

/** Classifies the name of a file found at `sha256/<fanout>/<name>`. */
export function classifyEntryName(fanout: string, name: string): EntryName {
	const isTree = name.endsWith(TREE_SUFFIX);
	const base = isTree ? name.slice(0, -TREE_SUFFIX.length) : name;
	if (!isDigestHex(base)) return { kind: "invalid" };
	if (base.slice(0, 2) !== fanout) return { kind: "misplaced", digest: base, isTree };
	return isTree ? { kind: "tree", digest: base } : { kind: "blob", digest: base };
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
