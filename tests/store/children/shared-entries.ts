// The entries the gc race test's writers share (tests/store/gc-race.test.ts): deterministic, so the
// parent seeds exactly the blobs the children reuse.

import type { TranscriptEntry } from "../../../src/transcript/index.ts";

export function sharedEntries(count: number): TranscriptEntry[] {
	return Array.from({ length: count }, (_, i) => ({
		id: `shared-${i}`,
		message: { role: "toolResult", content: `shared entry ${i} `.repeat(12) } as never,
	}));
}
