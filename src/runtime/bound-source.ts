// A fold's identity bound to its source: the store verifies that a blob's bytes hash to the digest a
// record names, but not that the blob is this fold's. So before a fold's source is shown (peek),
// restored (expand, a commit's restores) or trusted, the verified source is parsed and its entries'
// ids must equal the fold's leafIds, and the fold id of those entries (src/lattice `foldId`) must be
// the fold's own id. A record that points a fold at another fold's blob is refused by name. A
// fold that passed once is remembered per store (peek then reads only the slice it needs). The
// store does the reads. When the store has no blob for a fold, its source is rebuilt from the
// session's own entries (session-source.ts) and verified against the recorded digest instead, so a
// session whose store is gone is never stranded; a blob that is there but damaged is refused.

import { errorMessage } from "../common/index.ts";
import { type FoldRecord, foldId, parseFoldSource } from "../lattice/index.ts";
import type { BranchView } from "../policy/index.ts";
import type { ManifestShown } from "../store/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { snapUtf8Range } from "../wasm/index.ts";
import type { SourceStore } from "./ports.ts";
import { sessionSource } from "./session-source.ts";

const bound = new WeakMap<SourceStore, Set<string>>();

function bindingKey(fold: FoldRecord): string {
	return `${fold.id}:${fold.sourceSha256}:${fold.leafIds.length}:${fold.leafIds.join("\n")}`;
}

/** Why `entries` (a fold's parsed source) are not `fold`'s, or null when they are. */
function bindingProblem(fold: FoldRecord, entries: readonly TranscriptEntry[]): string | null {
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

/** Why a manifest slice is not `fold`'s (its root names another fold, or an entry shown is not at its place), or null. */
export function manifestBindingProblem(fold: FoldRecord, m: ManifestShown): string | null {
	const head = `fold ${fold.id}: its source (sha256 ${fold.sourceSha256.slice(0, 16)}…) is not this fold's`;
	if (m.foldId !== fold.id) return `${head}: its manifest is fold ${m.foldId ?? "none"}'s`;
	if (m.entries !== fold.leafIds.length) return `${head}: ${m.entries} entries, the fold has ${fold.leafIds.length}`;
	for (const e of m.shown)
		if (fold.leafIds[e.index] !== e.id)
			return `${head}: entry ${e.index + 1} is ${e.id}, the fold's is ${fold.leafIds[e.index] ?? "none"}`;
	return null;
}

/** Whether `error` says a blob was missing (so the session's entries may stand in). */
function missingBlob(error: unknown): boolean {
	return (error as { reason?: unknown } | null)?.reason === "missing";
}

/** Where a verified source came from: the fold store, or the session's own entries (no blob stored). */
export type SourceOrigin = "store" | "session";

/** The verified text of `fold`'s source: the store's blob, or (no blob, a view given) the session's entries. */
async function verifiedSource(
	store: SourceStore,
	fold: FoldRecord,
	view: BranchView | undefined,
): Promise<{ source: string; from: SourceOrigin }> {
	if (view && !store.has(fold.sourceSha256)) return { source: sessionSource(view, fold), from: "session" };
	try {
		return { source: await store.read(fold.sourceSha256, `fold ${fold.id}`, fold.sourceBytes), from: "store" };
	} catch (error) {
		if (view && missingBlob(error)) return { source: sessionSource(view, fold), from: "session" };
		throw error;
	}
}

/**
 * Reads, verifies and parses `fold`'s source, and requires it to be this fold's; throws naming the
 * fold. With `view`, a source the store lacks is rebuilt from the session's entries and verified.
 */
export async function readBoundSource(
	store: SourceStore,
	fold: FoldRecord,
	view?: BranchView,
): Promise<TranscriptEntry[]> {
	return (await readBoundSourceFrom(store, fold, view)).entries;
}

/** Parses a verified source and requires it to be `fold`'s; throws naming the fold. */
function boundEntries(fold: FoldRecord, source: string): TranscriptEntry[] {
	let entries: TranscriptEntry[];
	try {
		entries = parseFoldSource(source);
	} catch (error) {
		throw new Error(`fold ${fold.id}: its source is not a fold source: ${errorMessage(error)}`);
	}
	const problem = bindingProblem(fold, entries);
	if (problem) throw new Error(problem);
	return entries;
}

/** readBoundSource, also saying where the source came from. */
export async function readBoundSourceFrom(
	store: SourceStore,
	fold: FoldRecord,
	view?: BranchView,
): Promise<{ entries: TranscriptEntry[]; from: SourceOrigin }> {
	const { source, from } = await verifiedSource(store, fold, view);
	const entries = boundEntries(fold, source);
	if (from === "store") {
		const seen = bound.get(store) ?? new Set<string>();
		bound.set(store, seen);
		seen.add(bindingKey(fold));
	}
	return { entries, from };
}

/** Makes sure `fold`'s source is its own (read once per store and fold); throws naming the fold. */
async function ensureBound(store: SourceStore, fold: FoldRecord): Promise<void> {
	if (bound.get(store)?.has(bindingKey(fold))) return;
	await readBoundSource(store, fold);
}

/**
 * A verified slice of `fold`'s own source (byte range [start, end) of totalBytes, snapped to UTF-8
 * boundaries): from the store, or, when the store has no blob, from the session's entries rebuilt
 * and verified whole. Throws naming the fold.
 */
export async function readBoundSlice(
	store: SourceStore,
	fold: FoldRecord,
	view: BranchView,
	offset: number,
	bytes: number,
): Promise<{ text: string; start: number; end: number; totalBytes: number; from: SourceOrigin }> {
	const label = `fold ${fold.id}`;
	if (store.has(fold.sourceSha256)) {
		let slice: Awaited<ReturnType<SourceStore["readSlice"]>> | undefined;
		try {
			slice = await store.readSlice(fold.sourceSha256, offset, bytes, label, fold.sourceBytes);
		} catch (error) {
			if (!missingBlob(error)) throw error;
		}
		if (slice) {
			const { manifest, ...shown } = slice;
			if (manifest) {
				const problem = manifestBindingProblem(fold, manifest);
				if (problem) throw new Error(problem);
			} else await ensureBound(store, fold);
			return { ...shown, from: "store" };
		}
	}
	const source = sessionSource(view, fold);
	boundEntries(fold, source);
	const all = new TextEncoder().encode(source);
	const { start, end } = snapUtf8Range(all, Math.min(offset, all.length), Math.max(0, bytes));
	return {
		text: new TextDecoder().decode(all.subarray(start, end)),
		start,
		end,
		totalBytes: all.length,
		from: "session",
	};
}
