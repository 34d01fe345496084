// Which original content a commit restores, read from the VERIFIED fold store: for every visible
// entry pi-fold edited before, its exact original message content, from a source that is the fold's
// own (bound-source.ts; a source the store has no blob of is rebuilt from the session's entries and
// verified against the fold's digest). An entry whose source fails verification or binding is not restored: every expanded fold around it stays collapsed (so a tool call and
// its result never separate) and the fold is listed as refused, naming why. A tool result whose
// call a compaction took away stays omitted. Async only for reads.

import { errorMessage } from "../../common/index.ts";
import type { FoldRecord } from "../../lattice/index.ts";
import type { Snapshot } from "../../policy/index.ts";
import type { Replacement } from "../../projection/index.ts";
import { readBoundSource } from "../bound-source.ts";
import type { SourceStore } from "../ports.ts";

/** Restores must converge in this many rounds (each round collapses at least one fold). */
const MAX_ROUNDS = 64;

export interface Restores {
	/** Folds shown expanded after unverifiable ones were collapsed again. */
	readonly expanded: Set<string>;
	/** Original content per visible managed entry. */
	readonly originals: Map<string, unknown>;
	/** Managed entries left as they are (their source failed and no expanded fold could close over them). */
	readonly skipped: Set<string>;
	readonly refused: { foldId: string; reason: string }[];
}

function sameContent(a: Replacement | undefined, content: unknown): boolean {
	return a !== undefined && a !== null && JSON.stringify(a.content) === JSON.stringify(content);
}

/** Reads (once per fold) one fold's verified, bound source as entry id -> content, or the error. */
async function sourceOf(
	fold: FoldRecord,
	store: SourceStore,
	view: Snapshot["view"],
	cache: Map<string, Map<string, unknown> | Error>,
): Promise<Map<string, unknown> | Error> {
	const cached = cache.get(fold.id);
	if (cached) return cached;
	let source: Map<string, unknown> | Error;
	try {
		const parsed = await readBoundSource(store, fold, view);
		source = new Map(parsed.map((e) => [e.id, e.message.content]));
	} catch (error) {
		source = new Error(errorMessage(error));
	}
	cache.set(fold.id, source);
	return source;
}

/** Collapses every expanded fold around `entryId` (refusing each once); false when none was expanded. */
function collapseAround(snap: Snapshot, out: Restores, entryId: string, why: string, seen: Set<string>): boolean {
	const around = snap.lattice.innermostAt(snap.lattice.position.get(entryId) ?? -1);
	const chain = around ? [around, ...snap.lattice.ancestors(around.record.id)] : [];
	const opened = chain.filter((f) => out.expanded.has(f.record.id));
	for (const f of opened) {
		out.expanded.delete(f.record.id);
		if (!seen.has(f.record.id)) out.refused.push({ foldId: f.record.id, reason: why });
		seen.add(f.record.id);
	}
	return opened.length > 0;
}

/** Resolves the original of every visible managed entry, collapsing folds whose source fails. */
export async function resolveRestores(
	snap: Snapshot,
	store: SourceStore,
	managed: ReadonlyMap<string, string>,
): Promise<Restores> {
	const { view, lattice } = snap;
	const out: Restores = {
		expanded: new Set(snap.state.expanded),
		originals: new Map(),
		skipped: new Set(),
		refused: [],
	};
	const cache = new Map<string, Map<string, unknown> | Error>();
	const bad = new Set<string>();
	const raw = new Map(view.transcript.map((e) => [e.id, e.message.content]));
	for (let round = 0; round < MAX_ROUNDS; round++) {
		let failed = false;
		for (const item of lattice.visible(out.expanded)) {
			if (item.type !== "entry" || !managed.has(item.id) || out.skipped.has(item.id)) continue;
			if (!view.inForce.has(item.id) || sameContent(view.inForce.get(item.id), raw.get(item.id))) {
				out.originals.set(item.id, raw.get(item.id));
				continue;
			}
			if (out.originals.has(item.id)) continue;
			const fold = snap.known.get(managed.get(item.id) ?? "");
			const source = fold
				? await sourceOf(fold, store, view, cache)
				: new Error(`no fold source holds entry ${item.id}`);
			if (source instanceof Map && source.has(item.id)) {
				out.originals.set(item.id, source.get(item.id));
				continue;
			}
			failed = true;
			const why = source instanceof Error ? source.message : `its source does not hold entry ${item.id}`;
			if (collapseAround(snap, out, item.id, why, bad)) continue;
			out.skipped.add(item.id);
			if (fold && !bad.has(fold.id)) out.refused.push({ foldId: fold.id, reason: why });
			if (fold) bad.add(fold.id);
		}
		if (!failed) break;
	}
	return out;
}
