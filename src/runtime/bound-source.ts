// A fold's identity bound to its source: the store verifies that a blob's bytes hash to the digest a
// record names, but not that the blob is this fold's. So before a fold's source is shown (peek),
// restored (expand, a commit's restores) or trusted, the verified source is parsed and its entries'
// ids must equal the fold's leafIds, and the fold id of those entries (src/lattice `foldId`) must be
// the fold's own id. A record that points a fold at another fold's blob is refused by name. A
// fold that passed once is remembered per store (peek then reads only the slice it needs). The
// store does the reads.

import { errorMessage } from "../common/index.ts";
import { type FoldRecord, foldId, parseFoldSource } from "../lattice/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import type { SourceStore } from "./ports.ts";

const bound = new WeakMap<SourceStore, Set<string>>();

function bindingKey(fold: FoldRecord): string {
	return `${fold.id}:${fold.sourceSha256}:${fold.leafIds.length}:${fold.leafIds.join("\n")}`;
}

/** Why `entries` (a fold's parsed source) are not `fold`'s, or null when they are. */
export function bindingProblem(fold: FoldRecord, entries: readonly TranscriptEntry[]): string | null {
	const ids = entries.map((e) => e.id);
	const want = fold.leafIds;
	if (ids.length !== want.length || ids.some((id, i) => id !== want[i])) {
		const at = ids.findIndex((id, i) => id !== want[i]);
		const where =
			at < 0
				? `${ids.length} entries, the fold has ${want.length}`
				: `entry ${at + 1} is ${ids[at] ?? "missing"}, the fold's is ${want[at] ?? "none"}`;
		return `fold ${fold.id}: its source (sha256 ${fold.sourceSha256.slice(0, 16)}…) is not this fold's: ${where}`;
	}
	const actual = foldId(entries);
	if (actual !== fold.id)
		return `fold ${fold.id}: its source (sha256 ${fold.sourceSha256.slice(0, 16)}…) is the source of fold ${actual}, not of this fold`;
	return null;
}

/** Reads, verifies and parses `fold`'s source, and requires it to be this fold's; throws naming the fold. */
export async function readBoundSource(store: SourceStore, fold: FoldRecord): Promise<TranscriptEntry[]> {
	const source = await store.read(fold.sourceSha256, `fold ${fold.id}`, fold.sourceBytes);
	let entries: TranscriptEntry[];
	try {
		entries = parseFoldSource(source);
	} catch (error) {
		throw new Error(`fold ${fold.id}: its source is not a fold source: ${errorMessage(error)}`);
	}
	const problem = bindingProblem(fold, entries);
	if (problem) throw new Error(problem);
	const seen = bound.get(store) ?? new Set<string>();
	bound.set(store, seen);
	seen.add(bindingKey(fold));
	return entries;
}

/** Makes sure `fold`'s source is its own (read once per store and fold); throws naming the fold. */
export async function ensureBound(store: SourceStore, fold: FoldRecord): Promise<void> {
	if (bound.get(store)?.has(bindingKey(fold))) return;
	await readBoundSource(store, fold);
}
