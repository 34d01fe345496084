// The digest a fold record carries, computed without writing anything: a Merkle manifest over the
// fold's entries (each entry one blob of its JSON line, src/lattice `foldSource` of that entry
// alone), or, for entries whose ids are too long for a manifest, the SHA-256 of the concatenated
// source. The decision core names a new fold's source by it; the runtime's write (fold-write.ts)
// stores the same blobs and checks the store returns the same digest. Pure.

import { foldSource } from "../lattice/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { buildFoldTree, MANIFEST_MAX_ID_CHARS, sha256Hex } from "../verify/index.ts";

const encoder = new TextEncoder();

/** Each entry's exact bytes (its line of the fold source). */
export function leafBlobs(leaves: readonly TranscriptEntry[]): { id: string; data: Uint8Array }[] {
	return leaves.map((leaf) => ({ id: leaf.id, data: encoder.encode(foldSource([leaf])) }));
}

/** Whether these entries can be written as a manifest (every id short enough for one). */
export function manifestable(leaves: readonly TranscriptEntry[]): boolean {
	return leaves.every((leaf) => leaf.id.length <= MANIFEST_MAX_ID_CHARS);
}

/** The digest and size a new fold `id` over `leaves` records, as the store's write returns them. */
export function foldSourceDigest(id: string, leaves: readonly TranscriptEntry[]): { sha256: string; bytes: number } {
	if (manifestable(leaves)) {
		const tree = buildFoldTree(id, leafBlobs(leaves));
		return { sha256: tree.root, bytes: tree.bytes };
	}
	const source = foldSource(leaves);
	return { sha256: sha256Hex(source), bytes: encoder.encode(source).length };
}

/** The digest a new fold over `leaves` records (its manifest's root), without writing anything. */
export function manifestDigestOf(id: string, leaves: readonly TranscriptEntry[]): string {
	return foldSourceDigest(id, leaves).sha256;
}
