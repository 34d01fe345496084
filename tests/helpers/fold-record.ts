// A fold record over a slice of test entries, for tests that place folds without storing their
// sources: a ladder fold of `kind` (tool batch by default) with a stand-in digest and brief.

import { type FoldKind, type FoldRecord, foldId } from "../../src/lattice/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";

/** The record of a ladder fold over `entries[start, end)`. */
export function recordOver(
	entries: readonly TranscriptEntry[],
	start: number,
	end: number,
	kind: FoldKind = "tools",
): FoldRecord {
	const leaves = entries.slice(start, end);
	return {
		id: foldId(leaves),
		kind,
		origin: "ladder",
		leafIds: leaves.map((e) => e.id),
		sourceSha256: "0".repeat(64),
		sourceBytes: 1,
		brief: "b",
		briefSource: "deterministic",
	};
}
