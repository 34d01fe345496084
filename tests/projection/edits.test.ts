import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, foldSource, Lattice } from "../../src/lattice/index.ts";
import { editsToCommit, impliedEdits, type Replacement, renderPlaceholder } from "../../src/projection/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { readBatch, reply, user } from "../helpers/entries.ts";

const entries: TranscriptEntry[] = [
	user("u1", "go"),
	...readBatch("b1", ["a.ts", "b.ts"]),
	reply("a1", "ok"),
	...readBatch("b2", ["c.ts"]),
	user("u2", "more"),
];
const byId = new Map(entries.map((e) => [e.id, e]));

function fold(from: number, to: number, brief: string): FoldRecord {
	const leaves = entries.slice(from, to);
	return {
		id: foldId(leaves),
		kind: "tools",
		origin: "agent",
		leafIds: leaves.map((e) => e.id),
		sourceSha256: "a".repeat(64),
		sourceBytes: foldSource(leaves).length,
		brief,
		briefSource: "agent",
	};
}

/** The replacement text of an implied brief edit. */
function contentOf(edit: { replacement: unknown } | undefined): string {
	const replacement = edit?.replacement as { content?: unknown } | null | undefined;
	return typeof replacement?.content === "string" ? replacement.content : "";
}

const names = { brandNoun: "active-context", toolName: "active_context" };
const f1 = fold(1, 4, "a.ts and b.ts define the parser");
const f2 = fold(5, 7, "c.ts holds the lexer tables");

function implied(folds: FoldRecord[], expanded: string[], managed: Map<string, string> = new Map()) {
	const lattice = Lattice.build(entries, folds);
	return impliedEdits({
		lattice,
		expanded: new Set(expanded),
		placeholder: (id) => renderPlaceholder(lattice.get(id)?.record as FoldRecord, names),
		managed,
		original: (id) => byId.get(id)?.message.content,
	});
}

describe("edits a fold state implies", () => {
	it("shows a collapsed fold's placeholder on its first leaf and omits the rest of its span", () => {
		const edits = implied([f1], []);
		expect(edits.map((e) => [e.targetId, e.action])).toEqual([
			["b1-use", "brief"],
			["b1-r0", "omit"],
			["b1-r1", "omit"],
		]);
		expect(contentOf(edits[0])).toContain(f1.brief);
	});

	it("gives each fold a placeholder that names nothing about its neighbours", () => {
		const alone = implied([f1], []);
		const withNeighbour = implied([f1, f2], []);
		expect(withNeighbour[0]).toEqual(alone[0]);
		expect(contentOf(alone[0])).not.toContain(f2.id);
	});

	it("restores an expanded fold's entries to their original content", () => {
		const managed = new Map(f1.leafIds.map((id) => [id, f1.id]));
		const edits = implied([f1], [f1.id], managed);
		expect(edits.map((e) => e.action)).toEqual(["restore", "restore", "restore"]);
		expect(edits[1]?.replacement).toEqual({ content: byId.get("b1-r0")?.message.content });
	});
});

describe("what a commit returns", () => {
	it("returns nothing when the edits are already in force", () => {
		const edits = implied([f1], []);
		const inForce = new Map<string, Replacement>(edits.map((e) => [e.targetId, e.replacement]));
		expect(editsToCommit(edits, inForce)).toEqual([]);
	});

	it("returns only the new fold's edits when a fold is added", () => {
		const before = implied([f1], []);
		const inForce = new Map<string, Replacement>(before.map((e) => [e.targetId, e.replacement]));
		const after = editsToCommit(implied([f1, f2], []), inForce);
		expect(after.map((e) => e.targetId)).toEqual(f2.leafIds);
	});

	it("drops restores of targets that were never edited", () => {
		const managed = new Map(f1.leafIds.map((id) => [id, f1.id]));
		expect(editsToCommit(implied([f1], [f1.id], managed), new Map())).toEqual([]);
	});
});
