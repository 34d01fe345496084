// How a fold's exact source is written and recognised: as a Merkle manifest over its entries (each
// entry one blob of its JSON line, src/lattice `foldSource` of that entry alone, so an entry held by
// many folds, sessions or forks is stored once, and an excerpt's entry is the same blob as the tool
// fold's), and the digests a fold record may carry for given entries: the manifest's root, or (a fold
// written before manifests) the SHA-256 of the concatenated source. The store does the I/O.

import { foldId, foldSource } from "../lattice/index.ts";
import { leafBlobs, manifestable } from "../policy/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { buildFoldTree, sha256Hex } from "../verify/index.ts";
import type { SourceStore } from "./ports.ts";

/** Writes the source of the fold over `leaves` (a manifest; the old single blob for ids too long for one). */
export function writeFoldSource(
	store: SourceStore,
	leaves: readonly TranscriptEntry[],
): Promise<{ sha256: string; bytes: number }> {
	if (!manifestable(leaves)) return store.put(foldSource(leaves));
	return store.putFold(foldId(leaves), leafBlobs(leaves));
}

/**
 * Whether `sha256` is the digest of the source of fold `id` over `leaves` in either form: the root
 * of their manifest, or the SHA-256 of their concatenated source (a fold written before manifests).
 */
export function sourceDigestMatches(id: string, leaves: readonly TranscriptEntry[], sha256: string): boolean {
	if (sha256Hex(foldSource(leaves)) === sha256) return true;
	return manifestable(leaves) && buildFoldTree(id, leafBlobs(leaves)).root === sha256;
}
