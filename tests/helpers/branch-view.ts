// Test helper: a policy `BranchView` over a test transcript, as a host would read it with no
// records, the given edits in force (pi-fold's own: managed) and none of anyone else's.

import type { BranchView } from "../../src/policy/index.ts";
import type { Replacement } from "../../src/projection/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";

export function viewOf(
	transcript: readonly TranscriptEntry[],
	inForce: ReadonlyMap<string, Replacement> = new Map(),
): BranchView {
	return {
		leafId: transcript.at(-1)?.id ?? null,
		transcript,
		records: [],
		inForce,
		managed: new Set(inForce.keys()),
		foreign: new Set(),
	};
}
