// Reading a fold source stored as a Merkle manifest (src/verify/manifest.ts): every manifest on the
// way down is read whole and hashed against the digest its parent lists (and its sizes checked
// against the parent's), and only the leaf entries a read needs are read, each verified against the
// digest the manifest lists. A slice touches the manifests on its path and the leaves it shows; a
// whole read touches every blob once. A failure names where it was, from the root down
// ("fold f… › node 2 › entry e17"). The blob reads themselves are the store's (BlobAccess), so the
// on-disk FoldStore and the simulator's memory store read trees the same way; a search of a manifest
// fold scans its entry blobs in order (searchItemOf). No I/O of its own.

import { blobPath, decodeManifest, MANIFEST_MAX_BYTES, type Manifest, ManifestFormatError } from "../verify/index.ts";
import type { BlobSearchResult, PoolItem, SearchTarget } from "./search/index.ts";
import { SourceVerificationError } from "./source-error.ts";

/** A verified slice of a source: byte range [start, end) of totalBytes, snapped to UTF-8 boundaries. */
export interface SourceSlice {
	readonly text: string;
	readonly start: number;
	readonly end: number;
	readonly totalBytes: number;
}

/** How a tree reader reads one blob, always verified against its digest (throws naming `label`). */
export interface BlobAccess {
	/** The whole blob, refused when larger than `maxBytes` or not `expectedBytes` long. */
	wholeBytes(sha256: string, label: string, maxBytes: number, expectedBytes?: number): Promise<Uint8Array>;
	/** A slice of one blob, as FoldStore.readSlice of a single blob. */
	blobSlice(sha256: string, offset: number, bytes: number, label: string, expectedBytes: number): Promise<SourceSlice>;
}

/** A manifest that does not describe what its parent (or the fold) says it holds. */
class ManifestError extends Error {
	override name = "ManifestError";
}

/** One leaf entry of a tree, where it sits in the fold's source. */
interface PlacedLeaf {
	readonly sha256: string;
	readonly bytes: number;
	readonly id: string;
	/** Its entry's position among the fold's entries (0-based). */
	readonly index: number;
	/** Its byte offset in the fold's source. */
	readonly offset: number;
	/** Where it is, from the root, for messages. */
	readonly path: string;
}

/** Reads and parses the manifest `sha256` (verified whole, at most MANIFEST_MAX_BYTES). */
export async function readManifest(access: BlobAccess, sha256: string, label: string): Promise<Manifest> {
	const bytes = await access.wholeBytes(sha256, label, MANIFEST_MAX_BYTES);
	try {
		return decodeManifest(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
	} catch (error) {
		const why = error instanceof ManifestFormatError ? error.message : "not UTF-8";
		throw new ManifestError(`${label}: manifest ${sha256.slice(0, 16)}… is not a manifest (${why})`);
	}
}

/** The inner node a parent lists, checked to hold what the parent says. */
async function childNode(
	access: BlobAccess,
	child: { sha256: string; bytes: number; entries: number },
	label: string,
): Promise<Manifest> {
	const m = await readManifest(access, child.sha256, label);
	if (m.kind !== "node" || m.bytes !== child.bytes || m.entries !== child.entries)
		throw new ManifestError(
			`${label}: manifest ${child.sha256.slice(0, 16)}… holds ${m.bytes} bytes in ${m.entries} entries, its parent lists ${child.bytes} bytes in ${child.entries}`,
		);
	return m;
}

/** The leaves of `root` overlapping bytes [from, to) (all of them when `to` is Infinity), in order. */
async function leavesIn(
	access: BlobAccess,
	root: Manifest,
	label: string,
	from: number,
	to: number,
): Promise<PlacedLeaf[]> {
	const out: PlacedLeaf[] = [];
	const walk = async (m: Manifest, base: number, entryBase: number, path: string): Promise<void> => {
		let offset = base;
		let index = entryBase;
		for (let i = 0; i < m.children.length; i++) {
			const c = m.children[i] as Manifest["children"][number];
			const end = offset + c.bytes;
			const overlaps = end > from && offset < to;
			if (c.kind === "leaf") {
				if (overlaps) out.push({ sha256: c.sha256, bytes: c.bytes, id: c.id, index, offset, path });
				index++;
			} else {
				const here = `${path} › node ${i + 1}`;
				if (overlaps) await walk(await childNode(access, c, here), offset, index, here);
				index += c.entries;
			}
			offset = end;
		}
	};
	await walk(root, 0, 0, label);
	return out;
}

/** A leaf's label: its path and entry. */
function leafLabel(leaf: PlacedLeaf): string {
	return `${leaf.path} › entry ${leaf.id}`;
}

/**
 * The verified slice [offset, offset + bytes) of the tree's source (clamped, snapped outward to
 * UTF-8 boundaries), with the leaves it shows (for the binding check).
 */
export async function treeSlice(
	access: BlobAccess,
	root: Manifest,
	label: string,
	offset: number,
	bytes: number,
): Promise<SourceSlice & { shown: PlacedLeaf[] }> {
	const from = Math.min(offset, root.bytes);
	const to = Math.min(root.bytes, from + bytes);
	if (from === to) return { text: "", start: from, end: from, totalBytes: root.bytes, shown: [] };
	const shown = await leavesIn(access, root, label, from, to);
	const slices = await Promise.all(
		shown.map((leaf) => {
			const a = Math.max(from, leaf.offset) - leaf.offset;
			const b = Math.min(to, leaf.offset + leaf.bytes) - leaf.offset;
			return access.blobSlice(leaf.sha256, a, b - a, leafLabel(leaf), leaf.bytes);
		}),
	);
	const first = shown[0] as PlacedLeaf;
	const last = shown.at(-1) as PlacedLeaf;
	return {
		text: slices.map((s) => s.text).join(""),
		start: first.offset + (slices[0] as SourceSlice).start,
		end: last.offset + (slices.at(-1) as SourceSlice).end,
		totalBytes: root.bytes,
		shown,
	};
}

/** The tree's whole source, every leaf verified. */
export async function treeBytes(access: BlobAccess, root: Manifest, label: string): Promise<Uint8Array> {
	const leaves = await leavesIn(access, root, label, 0, Number.POSITIVE_INFINITY);
	const parts = await Promise.all(leaves.map((l) => access.wholeBytes(l.sha256, leafLabel(l), l.bytes, l.bytes)));
	const out = new Uint8Array(root.bytes);
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

/**
 * A search target as a pool item: a blob, or (a manifest) its entry blobs in order as parts, or the
 * failure to read its manifests (that source's result, none of its hits).
 */
export async function searchItemOf(
	access: BlobAccess,
	dir: string,
	target: SearchTarget,
	manifest: boolean,
): Promise<PoolItem | { failed: BlobSearchResult }> {
	const path = blobPath(dir, target.sha256);
	if (!manifest) return { path, target };
	try {
		const label = `source ${target.sha256.slice(0, 16)}…`;
		const root = await readManifest(access, target.sha256, label);
		const leaves = await leavesIn(access, root, label, 0, Number.POSITIVE_INFINITY);
		const parts = leaves.map((l) => ({ path: blobPath(dir, l.sha256), sha256: l.sha256, bytes: l.bytes }));
		return { path, target, parts };
	} catch (error) {
		const failure = error instanceof SourceVerificationError && error.reason === "missing" ? "missing" : "mismatch";
		const detail = error instanceof Error ? error.message : String(error);
		return { failed: { sha256: target.sha256, ok: false, failure, actual: null, detail, bytes: 0 } };
	}
}
