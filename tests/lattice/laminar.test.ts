// The nesting check a commit asks of every proposal and mark (src/lattice/laminar.ts) against the
// lattice itself: on random nested folds over a small transcript, for random candidate folds (any
// range, some with a leaf off the transcript, out of order, or a repeated id), `fits` says yes
// exactly when `Lattice.build` over the set and the candidate places them, and after `add` the set
// answers for the next candidate as a lattice over all of them does. Also `rebuiltWith` places folds
// as `build` does over the same transcript (same folds, parents, children and roots, or the same
// refusal), and `withAdded` places new folds beside a lattice's as `build` over all of them does.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, Lattice, NestingSet } from "../../src/lattice/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { user } from "../helpers/entries.ts";

const N = 14;
const entries = Array.from({ length: N }, (_, i) => user(`e${i}`, `m${i}`));

function record(
	leafIds: readonly string[],
	id = foldId(leafIds.map((l) => ({ id: l }) as TranscriptEntry)),
): FoldRecord {
	return {
		id,
		kind: "span",
		origin: "ladder",
		leafIds: [...leafIds],
		sourceSha256: "0".repeat(64),
		sourceBytes: 1,
		brief: "b",
		briefSource: "deterministic",
	};
}

/** A candidate: a range of the transcript, at times with a foreign leaf, two leaves swapped or another fold's id. */
const candidate = fc.record({
	start: fc.nat(N - 1),
	length: fc.integer({ min: 0, max: 7 }),
	twist: fc.constantFrom("none", "none", "none", "foreign", "swap", "repeat-id"),
	pick: fc.nat(20),
});

function candidateRecord(
	c: { start: number; length: number; twist: string; pick: number },
	known: FoldRecord[],
): FoldRecord {
	const ids = entries.slice(c.start, Math.min(N, c.start + c.length)).map((e) => e.id);
	if (c.twist === "foreign") ids.splice(c.pick % (ids.length + 1), 0, "elsewhere");
	if (c.twist === "swap" && ids.length >= 2) [ids[0], ids[1]] = [ids[1] as string, ids[0] as string];
	const other = known[c.pick % Math.max(1, known.length)];
	return c.twist === "repeat-id" && other ? record(ids, other.id) : record(ids);
}

function places(records: readonly FoldRecord[]): boolean {
	try {
		Lattice.build(entries, records);
		return true;
	} catch {
		return false;
	}
}

function shape(lattice: Lattice): unknown {
	return { folds: [...lattice.folds.entries()], roots: lattice.roots, position: [...lattice.position] };
}

describe("the nesting set", () => {
	it("fits exactly when the lattice places the set and the candidate, fold after fold", () => {
		fc.assert(
			fc.property(
				fc.array(candidate, { maxLength: 12 }),
				fc.array(candidate, { minLength: 1, maxLength: 10 }),
				(base, more) => {
					// A set that nests: the base candidates the lattice places one after another.
					const placed: FoldRecord[] = [];
					for (const c of base) {
						const r = candidateRecord(c, placed);
						if (places([...placed, r])) placed.push(r);
					}
					const set = new NestingSet(Lattice.build(entries, placed));
					const landing = [...Lattice.build(entries, placed).folds.values()].map((f) => f.record);
					for (const c of more) {
						const r = candidateRecord(c, landing);
						const expected = places([...landing, r]);
						expect(set.fits(r), `${r.leafIds.join(",")} as ${r.id.slice(0, 8)}`).toBe(expected);
						if (expected) {
							set.add(r);
							landing.push(r);
						}
					}
				},
			),
			{ numRuns: 400 },
		);
	});

	it("withAdded places folds beside the placed ones as build does over all of them", () => {
		fc.assert(
			fc.property(fc.array(candidate, { maxLength: 10 }), fc.array(candidate, { maxLength: 6 }), (first, second) => {
				const a: FoldRecord[] = [];
				for (const c of first) {
					const r = candidateRecord(c, a);
					if (places([...a, r])) a.push(r);
				}
				const base = Lattice.build(entries, a);
				const b = second.map((c) => candidateRecord(c, a));
				const added = base.withAdded(b);
				const repeats = new Set([...a, ...b].map((r) => r.id)).size < a.length + b.length;
				if (!places([...a, ...b])) expect(added).toBeNull();
				else if (!repeats) {
					expect(added).not.toBeNull();
					expect(shape(added as Lattice)).toEqual(shape(Lattice.build(entries, [...a, ...b])));
					expect((added as Lattice).visible(new Set())).toEqual(
						Lattice.build(entries, [...a, ...b]).visible(new Set()),
					);
				}
			}),
			{ numRuns: 500 },
		);
	});

	it("rebuiltWith places folds as build does on the same transcript", () => {
		fc.assert(
			fc.property(fc.array(candidate, { maxLength: 10 }), fc.array(candidate, { maxLength: 10 }), (first, second) => {
				const a: FoldRecord[] = [];
				for (const c of first) {
					const r = candidateRecord(c, a);
					if (places([...a, r])) a.push(r);
				}
				const base = Lattice.build(entries, a).extendedTo([...entries]) as Lattice;
				const b = second.map((c) => candidateRecord(c, a));
				let built: unknown;
				let rebuilt: unknown;
				try {
					built = shape(Lattice.build(entries, b));
				} catch (error) {
					built = (error as Error).message;
				}
				try {
					rebuilt = shape(base.rebuiltWith(b));
				} catch (error) {
					rebuilt = (error as Error).message;
				}
				expect(rebuilt).toEqual(built);
			}),
			{ numRuns: 300 },
		);
	});
});
