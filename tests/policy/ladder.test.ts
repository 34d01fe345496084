import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FoldRecord, Lattice } from "../../src/lattice/index.ts";
import {
	CONSOLIDATE_OCCUPANCY,
	chapterProposals,
	consolidationProposals,
	consolidationRank,
	type LadderInput,
	MAX_VISIBLE_FOLDS,
	type Proposal,
	toolProposals,
} from "../../src/policy/index.ts";
import { nestsByScan } from "../../src/policy/nesting.ts";
import {
	DEFAULT_READ_ONLY_TOOLS,
	isReadOnlyBatch,
	type TranscriptEntry,
	toChapters,
	toUnits,
} from "../../src/transcript/index.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";
import { recordOver } from "../helpers/fold-record.ts";

const fold = recordOver;

function ladder(entries: TranscriptEntry[], folds: FoldRecord[] = [], over: Partial<LadderInput> = {}): LadderInput {
	const units = toUnits(entries);
	const lattice = Lattice.build(entries, folds);
	const collapsed = (i: number) => [...lattice.folds.values()].some((f) => f.start <= i && i < f.end);
	return {
		entries,
		units,
		chapters: toChapters(units),
		lattice,
		expanded: new Set(),
		pendingRanges: [],
		protectedEntries: new Set(),
		protectedFolds: new Set(),
		keptRaw: () => false,
		freshStartUnit: units.length - 2,
		runningTurnUnit: -1,
		toolFoldable: (u) => isReadOnlyBatch(u, DEFAULT_READ_ONLY_TOOLS),
		visibleTokens: (s, e) => {
			let t = 0;
			for (let i = s; i < e; i++) if (!collapsed(i)) t += JSON.stringify(entries[i]?.message).length / 4;
			return t + lattice.visible(new Set()).filter((v) => v.type === "fold" && v.start >= s && v.end <= e).length * 20;
		},
		placeholderTokens: () => 20,
		occupancy: 0.5,
		...over,
	};
}

const big = (p: string) => `${p}: ${"x".repeat(2_000)}`;

describe("the tool rung", () => {
	it("proposes completed read-only batches outside the fresh tail, oldest first", () => {
		const entries = [
			user("u", "go"),
			...readBatch("b0", ["a"], big),
			...readBatch("b1", ["b"], big),
			...readBatch("b2", ["c"], big),
			...readBatch("b3", ["d"], big),
		];
		const proposals = toolProposals(ladder(entries));
		expect(proposals.map((p) => entries[p.start]?.id)).toEqual(["b0-use", "b1-use"]);
		expect(proposals[0]?.freedTokens).toBeGreaterThan(400);
	});

	it("skips writes, protected entries and batches already folded", () => {
		const entries = [
			user("u", "go"),
			toolUse("w", [{ id: "wc", name: "edit" }]),
			toolResult("wr", "wc", "edit", big("w")),
			...readBatch("b1", ["b"], big),
			...readBatch("b2", ["c"], big),
			...readBatch("b3", ["d"], big),
			reply("a", "done"),
			reply("a2", "done"),
		];
		const folded = fold(entries, 5, 7);
		const proposals = toolProposals(ladder(entries, [folded], { protectedEntries: new Set(["b1-r0"]) }));
		expect(proposals.map((p) => entries[p.start]?.id)).toEqual(["b3-use"]);
	});
});

/** The tool rung as a walk over every unit asking every fold (what toolProposals skips folded history on). */
function toolProposalsByScan(input: LadderInput): Proposal[] {
	const out: Proposal[] = [];
	for (const unit of input.units) {
		if (unit.index >= input.freshStartUnit) break;
		if (!input.toolFoldable(unit) || !unit.complete) continue;
		if (input.pendingRanges.some((r) => r.start < unit.end && unit.start < r.end)) continue;
		if (!nestsByScan(input.lattice, unit.start, unit.end, (kind) => kind === "result")) continue;
		const visible = input.visibleTokens(unit.start, unit.end);
		const freedTokens = Math.max(0, visible - input.placeholderTokens(unit.start, unit.end, visible));
		if (freedTokens > 0) out.push({ rung: "tools", start: unit.start, end: unit.end, freedTokens });
	}
	return out;
}

describe("the tool rung over folded history", () => {
	it("proposes what a walk over every unit asking every fold proposes", () => {
		const KINDS: FoldRecord["kind"][] = ["tools", "result", "chapter", "span", "consolidation"];
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 12 }),
				fc.array(fc.tuple(fc.nat(60), fc.nat(8), fc.nat(4)), { maxLength: 12 }),
				(shapes, ranges) => {
					// Read batches of one to three results, a write now and then, replies and prompts.
					const entries: TranscriptEntry[] = [user("u0", "go")];
					shapes.forEach((k, i) => {
						if (k === 0) entries.push(reply(`a${i}`, "noted"), user(`u${i + 1}`, "more"));
						else if (k === 3)
							entries.push(
								toolUse(`w${i}`, [{ id: `wc${i}`, name: "edit" }]),
								toolResult(`wr${i}`, `wc${i}`, "edit", big("w")),
							);
						else
							entries.push(
								...readBatch(
									`b${i}`,
									Array.from({ length: k }, (_, j) => `f${i}-${j}`),
									big,
								),
							);
					});
					// Random folds kept when they nest with those kept (a result fold may start a batch's results).
					const folds: FoldRecord[] = [];
					for (const [at, length, kind] of ranges) {
						const start = at % entries.length;
						const candidate = fold(entries, start, Math.min(entries.length, start + 1 + length), KINDS[kind]);
						try {
							Lattice.build(entries, [...folds, candidate]);
							folds.push(candidate);
						} catch {}
					}
					const input = ladder(entries, folds);
					expect(toolProposals(input)).toEqual(toolProposalsByScan(input));
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("the chapter rung", () => {
	it("folds a closed chapter after the user message that opened it, absorbing the tool folds inside it but not crossing other folds", () => {
		const entries = [
			user("u1", "first"),
			...readBatch("b0", ["a"], big),
			reply("a1", "read a"),
			user("u2", "second"),
			...readBatch("b1", ["b"], big),
			reply("a2", "ok"),
			user("u3", "third"),
			reply("a3", "ok"),
		];
		const inner = fold(entries, 1, 3);
		const proposals = chapterProposals(ladder(entries, [inner], { freshStartUnit: 7 }));
		// The user's own words (entries 0 and 4) stay raw: each fold holds the work that answered them.
		expect(proposals.map((p) => [p.start, p.end])).toEqual([
			[1, 4],
			[5, 8],
		]);
		const agentSpan = fold(entries, 3, 6, "span");
		expect(chapterProposals(ladder(entries, [agentSpan], { freshStartUnit: 7 })).map((p) => p.start)).toEqual([]);
	});
});

describe("the consolidation rung", () => {
	const entries = [user("u", "go"), ...Array.from({ length: 14 }, (_, i) => readBatch(`b${i}`, [`f${i}`], big)).flat()];
	const folds = Array.from({ length: 13 }, (_, i) => fold(entries, 1 + i * 2, 3 + i * 2));

	it("stays idle with at most ten visible folds and low occupancy", () => {
		expect(consolidationProposals(ladder(entries, folds.slice(0, MAX_VISIBLE_FOLDS), { freshStartUnit: 14 }))).toEqual(
			[],
		);
	});

	it("past ten visible folds merges adjacent pairs of equal rank, just enough to come back under it", () => {
		const proposals = consolidationProposals(ladder(entries, folds, { freshStartUnit: 14 }));
		expect(proposals.every((p) => p.rung === "consolidation")).toBe(true);
		expect(proposals.map((p) => [p.start, p.end])).toEqual([
			[1, 5],
			[5, 9],
			[9, 13],
		]);
	});

	it("at high occupancy merges every disjoint pair of equal rank", () => {
		const proposals = consolidationProposals(
			ladder(entries, folds.slice(0, 5), { freshStartUnit: 14, occupancy: CONSOLIDATE_OCCUPANCY }),
		);
		expect(proposals.map((p) => [p.start, p.end])).toEqual([
			[1, 5],
			[5, 9],
		]);
	});

	it("merges the lowest equal ranks first and never folds of different ranks (no chains)", () => {
		// Visible: C2 (rank 2 over 4 tool folds), C1 (rank 1 over 2), then 9 tool folds (rank 0): 11 folds.
		const low = folds.slice(0, 4);
		const c1a = consolidation(entries, [low[0], low[1]] as FoldRecord[]);
		const c1b = consolidation(entries, [low[2], low[3]] as FoldRecord[]);
		const c2 = consolidation(entries, [c1a, c1b]);
		const mid = consolidation(entries, [folds[4], folds[5]] as FoldRecord[]);
		const records = [...low, c1a, c1b, c2, folds[4], folds[5], mid, ...folds.slice(6, 13)] as FoldRecord[];
		const input = ladder(entries, records, { freshStartUnit: 14 });
		expect([c2, mid, folds[6]].map((f) => consolidationRank(input.lattice, (f as FoldRecord).id))).toEqual([2, 1, 0]);
		// 9 visible: under the limit. At high occupancy only the rank-0 pairs merge, never C2+C1 or C1+f.
		const squeezed = consolidationProposals({ ...input, occupancy: CONSOLIDATE_OCCUPANCY });
		expect(squeezed.map((p) => [p.start, p.end])).toEqual([
			[13, 17],
			[17, 21],
			[21, 25],
		]);
	});
});

describe("the consolidation rung over 1,000 folds arriving one at a time", () => {
	it("keeps the tree logarithmically deep and the visible folds near the limit (no chain of consolidations)", () => {
		const n = 1_000;
		const entries = [user("u", "go"), ...Array.from({ length: n + 8 }, (_, i) => readBatch(`b${i}`, [`f${i}`])).flat()];
		const records: FoldRecord[] = [];
		let visible = 0;
		for (let i = 0; i < n; i++) {
			records.push(fold(entries, 1 + i * 2, 3 + i * 2));
			const input = ladder(entries, records, { freshStartUnit: n + 6 });
			for (const p of consolidationProposals(input)) records.push(fold(entries, p.start, p.end, "consolidation"));
			visible = Lattice.build(entries, records)
				.visible(new Set())
				.filter((v) => v.type === "fold").length;
			expect(visible).toBeLessThanOrEqual(MAX_VISIBLE_FOLDS + 2);
		}
		const lattice = Lattice.build(entries, records);
		const depth = Math.max(...[...lattice.folds.values()].map((f) => f.depth));
		expect(depth).toBeLessThanOrEqual(Math.log2(n) + 2);
		expect(depth).toBeGreaterThanOrEqual(Math.floor(Math.log2(n)) - 1);
	});
});

function consolidation(entries: TranscriptEntry[], children: FoldRecord[]): FoldRecord {
	const first = entries.findIndex((e) => e.id === children[0]?.leafIds[0]);
	const last = entries.findIndex((e) => e.id === children.at(-1)?.leafIds.at(-1));
	return fold(entries, first, last + 1, "consolidation");
}
