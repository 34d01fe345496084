// The ladder's nesting check (src/policy/nesting.ts), answered from an index of the top-level folds,
// against the same question asked of every placed fold in turn: on random nested folds of random
// kinds, for every range of a small transcript and both rungs' allowances, the answers agree. Also
// the index survives a lattice extended over appended entries (the new entries are raw), and what the
// tool rung skips on holds: no range (of one entry or more, as a unit is) starting inside a top-level
// fold nests, unless it starts with it and reaches past it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FoldKind, Lattice } from "../../src/lattice/index.ts";
import { nestsByScan, nestsCleanly, topFoldEnd } from "../../src/policy/nesting.ts";
import { user } from "../helpers/entries.ts";
import { recordOver as record } from "../helpers/fold-record.ts";

const KINDS: FoldKind[] = ["tools", "result", "chapter", "span"];
const ALLOW = [(kind: string) => kind === "result", (kind: string) => kind === "tools" || kind === "result"];

/** Nested ranges: each new range kept only when it nests with those kept. */
function nested(ranges: readonly [number, number, number][], n: number): [number, number, FoldKind][] {
	const kept: [number, number, FoldKind][] = [];
	for (const [a, b, k] of ranges) {
		const start = Math.min(a, b) % n;
		const end = Math.min(n, start + 1 + (Math.max(a, b) % 6));
		const ok = kept.every(([s, e]) => e <= start || end <= s || (s <= start && end <= e) || (start <= s && e <= end));
		const same = kept.some(([s, e]) => s === start && e === end);
		if (ok && !same) kept.push([start, end, KINDS[k % KINDS.length] as FoldKind]);
	}
	return kept;
}

describe("the ladder's nesting check", () => {
	it("answers as a scan of every fold does, for every range", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.nat(40), fc.nat(40), fc.nat(3)), { maxLength: 14 }), (raw) => {
				const n = 16;
				const entries = Array.from({ length: n }, (_, i) => user(`e${i}`, `m${i}`));
				const lattice = Lattice.build(
					entries,
					nested(raw, n).map(([s, e, k]) => record(entries, s, e, k)),
				);
				const longer = lattice.extendedTo([...entries, user("x0", "new"), user("x1", "new")]) as Lattice;
				for (const allow of ALLOW)
					for (let start = 0; start <= n + 2; start++)
						for (let end = start; end <= n + 2; end++) {
							expect(nestsCleanly(lattice, start, end, allow), `[${start}, ${end})`).toBe(
								nestsByScan(lattice, start, end, allow),
							);
							expect(nestsCleanly(longer, start, end, allow), `extended [${start}, ${end})`).toBe(
								nestsByScan(longer, start, end, allow),
							);
							// What the tool rung skips on: a range starting inside a top-level fold nests
							// only when it starts where the fold does and reaches past its end.
							const top = lattice.roots
								.map((id) => lattice.get(id))
								.find((f) => f && f.start <= start && start < f.end);
							expect(topFoldEnd(lattice, start), `top fold at ${start}`).toBe(top?.end);
							if (top && start < end && (start > top.start || end <= top.end))
								expect(nestsByScan(lattice, start, end, allow), `inside a top fold [${start}, ${end})`).toBe(false);
						}
			}),
			{ numRuns: 150 },
		);
	});
});
