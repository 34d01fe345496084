// Which transcript entries pi-fold manages on a branch (the targets of its context edits, each with
// the smallest known fold holding its source), and the form a brief takes as a replacement's
// content. Read by the decision core (the edits the recorded decisions imply) and by the runtime's
// restores. Pure.

import type { FoldRecord } from "../lattice/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import type { Snapshot } from "./snapshot.ts";

/**
 * For each entry, the smallest known fold whose leaves include it (the cheapest verified source of
 * its content): one pass over every fold's leaves, the first smallest fold winning a tie, as a
 * fold-by-fold search in insertion order would choose.
 */
function smallestFoldByEntry(known: ReadonlyMap<string, FoldRecord>): Map<string, FoldRecord> {
	const best = new Map<string, FoldRecord>();
	for (const fold of known.values())
		for (const leaf of fold.leafIds) {
			const current = best.get(leaf);
			if (!current || fold.leafIds.length < current.leafIds.length) best.set(leaf, fold);
		}
	return best;
}

/**
 * Targets pi-fold edited on this branch, with the fold holding each source. Left out: targets whose
 * latest edit is someone else's, and orphan tool results (a compaction kept an omitted result but
 * not its call: restoring it would put a result without its call in the window).
 */
export function managedTargets(snap: Snapshot): Map<string, string> {
	const managed = new Map<string, string>();
	const smallest = smallestFoldByEntry(snap.known);
	const orphans = new Set(snap.units.flatMap((u) => (u.kind === "orphan" ? u.entryIds : [])));
	for (const target of snap.view.managed) {
		if (snap.view.foreign.has(target) || orphans.has(target)) continue;
		managed.set(target, smallest.get(target)?.id ?? "");
	}
	return managed;
}

/** Content of a brief replacement in the form Pi stores it, so an unchanged brief compares equal. */
export function briefContent(message: TranscriptEntry["message"] | undefined, text: string): unknown {
	return message?.role === "assistant" || message?.role === "toolResult" ? [{ type: "text", text }] : text;
}
