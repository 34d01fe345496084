// A slice of a manifest fold is bound to its fold by the manifest (src/runtime/bound-source.ts): the
// root must name the fold and hold as many entries as it has leaves, and every entry a slice shows
// must sit at its leaf id's place; otherwise the slice is refused naming what differs.

import { describe, expect, it } from "vitest";
import type { FoldRecord } from "../../src/lattice/index.ts";
import { manifestBindingProblem } from "../../src/runtime/index.ts";

const fold = {
	id: "f0123456789abcdef",
	leafIds: ["e1", "e2", "e3"],
	sourceSha256: "a".repeat(64),
} as unknown as FoldRecord;

describe("a manifest slice's binding to its fold", () => {
	it("accepts the fold's own manifest and entries at their places", () => {
		const shown = [
			{ index: 1, id: "e2" },
			{ index: 2, id: "e3" },
		];
		expect(manifestBindingProblem(fold, { foldId: fold.id, entries: 3, shown })).toBeNull();
	});

	it("refuses another fold's manifest, another entry count, or an entry out of place", () => {
		expect(manifestBindingProblem(fold, { foldId: "f999", entries: 3, shown: [] })).toMatch(
			/is not this fold's: its manifest is fold f999's/,
		);
		expect(manifestBindingProblem(fold, { foldId: fold.id, entries: 4, shown: [] })).toMatch(
			/4 entries, the fold has 3/,
		);
		expect(manifestBindingProblem(fold, { foldId: fold.id, entries: 3, shown: [{ index: 0, id: "e2" }] })).toMatch(
			/entry 1 is e2, the fold's is e1/,
		);
	});
});
