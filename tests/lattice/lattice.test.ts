import { describe, expect, it } from "vitest";
import {
	type FoldRecord,
	foldId,
	foldSource,
	Lattice,
	LatticeError,
	parseFoldSource,
	SpanError,
	snapSpan,
} from "../../src/lattice/index.ts";
import { type TranscriptEntry, toUnits } from "../../src/transcript/index.ts";
import { readBatch, reply, user } from "../helpers/entries.ts";

const entries: TranscriptEntry[] = [
	user("u1", "start"),
	...readBatch("b1", ["a.ts", "b.ts"]), // 1..3
	reply("a1", "read two"), // 4
	...readBatch("b2", ["c.ts"]), // 5..6
	reply("a2", "read one"), // 7
	user("u2", "next"), // 8
];

function fold(from: number, to: number, kind: FoldRecord["kind"] = "span"): FoldRecord {
	const leaves = entries.slice(from, to);
	return {
		id: foldId(leaves),
		kind,
		origin: "agent",
		leafIds: leaves.map((e) => e.id),
		sourceSha256: "0".repeat(64),
		sourceBytes: foldSource(leaves).length,
		brief: `brief ${from}-${to}`,
		briefSource: "agent",
	};
}

describe("fold ids and sources", () => {
	it("gives the same span the same id whatever the key order of its messages", () => {
		const leaves = entries.slice(1, 4);
		const reordered = leaves.map((e) => ({
			id: e.id,
			message: Object.fromEntries(Object.entries(e.message).reverse()) as TranscriptEntry["message"],
		}));
		expect(foldId(reordered)).toBe(foldId(leaves));
		expect(foldId(entries.slice(1, 3))).not.toBe(foldId(leaves));
	});

	it("round-trips a span's exact source, message bytes included", () => {
		const leaves = entries.slice(1, 8);
		const back = parseFoldSource(foldSource(leaves));
		expect(back.map((e) => JSON.stringify(e.message))).toEqual(leaves.map((e) => JSON.stringify(e.message)));
	});

	it("refuses a source line that is not an entry, naming the line", () => {
		expect(() => parseFoldSource('{"id":"x","message":{}}\n{"nope":1}\n')).toThrow(/line 2/);
	});
});

describe("the lattice", () => {
	it("nests folds and derives parents, depth and ordered children", () => {
		const inner1 = fold(1, 4, "tools");
		const inner2 = fold(5, 7, "tools");
		const outer = fold(1, 8, "chapter");
		const lattice = Lattice.build(entries, [inner2, outer, inner1]);
		expect(lattice.roots).toEqual([outer.id]);
		expect(lattice.get(inner1.id)?.parent).toBe(outer.id);
		expect(lattice.get(inner2.id)?.depth).toBe(1);
		expect(lattice.get(outer.id)?.children).toEqual([
			{ type: "fold", id: inner1.id },
			{ type: "entry", id: "a1" },
			{ type: "fold", id: inner2.id },
			{ type: "entry", id: "a2" },
		]);
	});

	it("refuses folds that partially overlap, naming both", () => {
		const a = fold(1, 5);
		const b = fold(4, 7);
		expect(() => Lattice.build(entries, [a, b])).toThrow(LatticeError);
		expect(() => Lattice.build(entries, [a, b])).toThrow(new RegExp(`${b.id}.*${a.id}`));
	});

	it("shows a collapsed fold as one item and an expanded one as its children, one level at a time", () => {
		const inner = fold(1, 4, "tools");
		const outer = fold(1, 8, "chapter");
		const lattice = Lattice.build(entries, [inner, outer]);
		expect(lattice.visible(new Set()).map((v) => (v.type === "fold" ? v.id : v.id))).toEqual(["u1", outer.id, "u2"]);
		expect(lattice.visible(new Set([outer.id])).map((v) => v.id)).toEqual([
			"u1",
			inner.id,
			"a1",
			"b2-use",
			"b2-r0",
			"a2",
			"u2",
		]);
		expect(lattice.visible(new Set([outer.id, inner.id])).map((v) => v.id)).toEqual(entries.map((e) => e.id));
	});
});

describe("span snapping", () => {
	const units = toUnits(entries);

	it("grows a span that cuts a tool batch to the whole batch and says so", () => {
		const lattice = Lattice.build(entries, []);
		const span = snapSpan(entries, units, lattice, { from: "b1-r0", to: "a1" });
		expect([span.start, span.end]).toEqual([1, 5]);
		expect(span.notes.join(" ")).toMatch(/start moved back 1 entry to the start of a toolBatch unit \(b1-use\)/);
	});

	it("grows a span that cuts a fold to contain it and names the fold", () => {
		const existing = fold(5, 8);
		const lattice = Lattice.build(entries, [existing]);
		const span = snapSpan(entries, units, lattice, { from: "b1-use", to: "b2-use" });
		expect([span.start, span.end]).toEqual([1, 8]);
		expect(span.crossedFolds).toEqual([existing.id]);
	});

	it("accepts fold ids as span ends", () => {
		const a = fold(1, 4);
		const b = fold(5, 7);
		const lattice = Lattice.build(entries, [a, b]);
		const span = snapSpan(entries, units, lattice, { from: a.id, to: b.id });
		expect([span.start, span.end]).toEqual([1, 7]);
	});

	it("refuses unknown ids and reversed spans with a message naming them", () => {
		const lattice = Lattice.build(entries, []);
		expect(() => snapSpan(entries, units, lattice, { from: "nope", to: "a1" })).toThrow(SpanError);
		expect(() => snapSpan(entries, units, lattice, { from: "nope", to: "a1" })).toThrow(/"nope"/);
		expect(() => snapSpan(entries, units, lattice, { from: "a2", to: "a1" })).toThrow(/comes after/);
	});
});
