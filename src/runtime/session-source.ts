// A fold's source rebuilt from the session's own entries, for when the fold store has no blob for it
// (the store folder was deleted, or the session file was copied without it). The fold recorded the
// SHA-256 and size of its source, the JSON lines of its leaves exactly as they were serialized when
// it was made (src/lattice `foldSource`); the same leaves, read with their original messages from
// the branch (the context's entries, or any entry of the branch a compaction took out of the context:
// `originalEntry`), give the same bytes, and the same manifest (fold-write.ts). Bytes whose digest in
// neither form (manifest root, or the old concatenated source) is the recorded one are refused by
// name, with both digests, as a damaged blob is: nothing unverified is returned. Pure.

import { type FoldRecord, foldSource } from "../lattice/index.ts";
import type { BranchView } from "../policy/index.ts";
import { manifestDigestOf } from "../policy/index.ts";
import { sha256Hex } from "../wasm/index.ts";
import { originalEntry } from "./branch-view.ts";
import { sourceDigestMatches } from "./fold-write.ts";

/** The verified source of `fold` rebuilt from `view`'s original entries; throws naming the fold. */
export function sessionSource(view: BranchView, fold: FoldRecord): string {
	const leaves = [];
	for (const id of fold.leafIds) {
		const entry = originalEntry(view, id);
		if (!entry)
			throw new Error(
				`fold ${fold.id}: its source (sha256 ${fold.sourceSha256}) is not in the store, and entry ${id} is not on this session's branch to rebuild it from`,
			);
		leaves.push(entry);
	}
	const source = foldSource(leaves);
	const bytes = new TextEncoder().encode(source);
	if (bytes.length !== fold.sourceBytes || !sourceDigestMatches(fold.id, leaves, fold.sourceSha256))
		throw new Error(
			`fold ${fold.id}: its source is not in the store, and the session's entries do not rebuild it: expected sha256 ${fold.sourceSha256} (${fold.sourceBytes} bytes), the entries give sha256 ${manifestDigestOf(fold.id, leaves)} as a manifest, ${sha256Hex(bytes)} as one blob (${bytes.length} bytes); nothing from them was returned`,
		);
	return source;
}
