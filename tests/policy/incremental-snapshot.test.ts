// A snapshot built from the last one (a transcript that grew by appending: units re-split from the
// last unit, the lattice extended, the window's tokens and the pending edit reused) is the snapshot
// built from scratch: the same transcript as fresh entry objects shares nothing with the caches (the
// tokens the edits in force show included). So are the folds a commit adds, placed beside the others.
// Also the lattice's shared positions: an older lattice never sees an id appended after it.

import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, foldSource, Lattice } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import {
	budgetFor,
	buildSnapshot,
	pendingEditFrom,
	type Snapshot,
	shownTokens,
	windowTokens,
} from "../../src/policy/index.ts";
import { emptyState, type FoldState } from "../../src/state/index.ts";
import { extendUnits, type TranscriptEntry, toUnits } from "../../src/transcript/index.ts";
import { viewOf } from "../helpers/branch-view.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";

const BUDGET = budgetFor({ contextWindow: 64_000, maxTokens: 4_000 }, undefined);
const OPTIONS = resolveOptions({});

/** A session of prompts, read batches (one left waiting for its second result) and replies. */
function session(): TranscriptEntry[] {
	const out: TranscriptEntry[] = [user("u0", "start")];
	for (let i = 0; i < 12; i++) {
		out.push(...readBatch(`b${i}`, [`f${i}.ts`], (p) => `contents of ${p} ${"x".repeat(400)}`));
		if (i % 4 === 3) out.push(reply(`a${i}`, `done ${i}`), user(`u${i}`, `next ${i}`));
	}
	out.push(
		toolUse("open-use", [
			{ id: "open-c0", name: "read" },
			{ id: "open-c1", name: "read" },
		]),
		toolResult("open-r0", "open-c0", "read", "first half"),
		toolResult("open-r1", "open-c1", "read", "second half"),
		reply("last", "all read"),
	);
	return out;
}

function fold(entries: readonly TranscriptEntry[], from: number, to: number): FoldRecord {
	const leaves = entries.slice(from, to);
	return {
		id: foldId(leaves),
		kind: "tools",
		origin: "ladder",
		leafIds: leaves.map((e) => e.id),
		sourceSha256: "0".repeat(64),
		sourceBytes: foldSource(leaves).length,
		brief: `brief ${from}-${to}`,
		briefSource: "deterministic",
	};
}

/** What a snapshot shows, as plain data. */
function picture(snap: Snapshot) {
	const tokens = windowTokens(snap);
	return {
		units: snap.units,
		visible: snap.lattice.visible(snap.state.expanded),
		folds: snap.lattice.inOrder().map((f) => [f.record.id, f.start, f.end, f.parent, f.depth, f.children]),
		positions: [...snap.lattice.position],
		size: snap.lattice.position.size,
		unplaced: snap.unplaced,
		freshUnit: snap.freshUnit,
		runningUnit: snap.runningUnit,
		tokens: [tokens.perEntry, tokens.total, tokens.range(3, 17)],
		shown: shownTokens(snap),
		pending: pendingEditFrom(snap, OPTIONS),
	};
}

const clone = (entries: readonly TranscriptEntry[]) => entries.map((e) => ({ ...e }));

describe("a snapshot of a transcript that grew by appending", () => {
	it("is the snapshot built from scratch at every length", () => {
		const all = session();
		const folds = [fold(all, 1, 3), fold(all, 3, 5), fold(all, 0, 1)];
		// A fold naming an entry not yet in the transcript stays unplaced until it arrives.
		const late = fold(all, all.length - 2, all.length);
		const leader = folds[0] as FoldRecord;
		const inForce = new Map([[leader.leafIds[0] as string, { content: [{ type: "text", text: leader.brief }] }]]);
		const state: FoldState = {
			...emptyState(),
			folds: new Map([...folds, late].map((f) => [f.id, f])),
			expanded: new Set([(folds[1] as FoldRecord).id]),
		};
		const known = new Map(state.folds);
		// First the session growing (each snapshot built from the last one), then each length anew.
		const lengths = Array.from({ length: all.length - 5 }, (_, i) => i + 6);
		const grown = lengths.map((n) => picture(buildSnapshot(viewOf(all.slice(0, n), inForce), state, known, BUDGET)));
		const fresh = lengths.map((n) =>
			picture(buildSnapshot(viewOf(clone(all.slice(0, n)), inForce), state, known, BUDGET)),
		);
		lengths.forEach((n, i) => {
			expect(grown[i], `at ${n} entries`).toEqual(fresh[i]);
		});
		// The fold naming the last entries is placed once they are all there.
		expect(grown.at(-1)?.unplaced).toEqual([]);
		expect(grown.at(-2)?.unplaced.map((u) => u.id)).toEqual([late.id]);
	});

	it("places folds a commit adds as the snapshot built from scratch does, on the same or a longer transcript", () => {
		const all = session();
		// Inner folds first, then one holding them, one beside, more, and last one that partially
		// overlaps (refused: built anew, it stays unplaced).
		const steps = [
			[fold(all, 1, 3)],
			[fold(all, 3, 5), fold(all, 8, 10)],
			[fold(all, 1, 7)],
			[fold(all, 12, 14)],
			[fold(all, 0, 10), fold(all, 15, 17)],
			[fold(all, 16, 19)],
		];
		const inputs: [number, FoldState][] = [];
		const records: FoldRecord[] = [];
		let n = 20;
		for (const [i, added] of steps.entries()) {
			records.push(...(added as FoldRecord[]));
			// Every other step the transcript grows too.
			if (i % 2 === 1) n += 3;
			const folds = new Map(records.map((f) => [f.id, f]));
			inputs.push([n, { ...emptyState(), folds, expanded: new Set([(records[0] as FoldRecord).id]) }]);
		}
		// First each step built from the last one, then each anew.
		const grown = inputs.map(([n, state]) =>
			picture(buildSnapshot(viewOf(all.slice(0, n), new Map()), state, new Map(state.folds), BUDGET)),
		);
		const fresh = inputs.map(([n, state]) =>
			picture(buildSnapshot(viewOf(clone(all.slice(0, n)), new Map()), state, new Map(state.folds), BUDGET)),
		);
		inputs.forEach((_, i) => {
			expect(grown[i], `step ${i}`).toEqual(fresh[i]);
		});
		const overlapping = (steps.at(-1) as FoldRecord[])[0] as FoldRecord;
		expect(grown.at(-1)?.unplaced.map((u) => u.id)).toEqual([overlapping.id]);
	});

	it("gives the same snapshot object for the same inputs", () => {
		const view = viewOf(session(), new Map());
		const state = emptyState();
		const known = new Map();
		expect(buildSnapshot(view, state, known, BUDGET)).toBe(buildSnapshot(view, state, known, { ...BUDGET }));
		expect(buildSnapshot(view, state, known, BUDGET)).not.toBe(
			buildSnapshot(view, state, known, { ...BUDGET, budgetTokens: 1_000 }),
		);
	});

	it("splits only the last unit again, which appended results may complete", () => {
		const all = session();
		for (let n = 1; n < all.length; n++)
			for (let m = n; m <= all.length; m++)
				expect(extendUnits(toUnits(all.slice(0, n)), all.slice(0, m)), `${n} then ${m}`).toEqual(
					toUnits(all.slice(0, m)),
				);
	});
});

describe("lattices extended over a grown transcript", () => {
	it("share positions without an older lattice seeing a newer id", () => {
		const all = session();
		const base = Lattice.build(all.slice(0, 10), [fold(all, 1, 3)]);
		const longer = base.extendedTo(all.slice(0, 14)) as Lattice;
		// A second transcript extending the same base (other entries) gets its own positions.
		const other = [...all.slice(0, 10), user("x1", "other"), user("x2", "branch")];
		const sibling = base.extendedTo(other) as Lattice;
		expect(base.position.get(all[12]?.id as string)).toBeUndefined();
		expect(base.position.size).toBe(10);
		expect(longer.position.get(all[12]?.id as string)).toBe(12);
		expect(longer.position.get("x1")).toBeUndefined();
		expect(sibling.position.get("x1")).toBe(10);
		expect(sibling.position.get(all[12]?.id as string)).toBeUndefined();
		expect([...longer.position]).toEqual(all.slice(0, 14).map((e, i) => [e.id, i]));
		expect(longer.visible(new Set())).toEqual(Lattice.build(all.slice(0, 14), [fold(all, 1, 3)]).visible(new Set()));
		// A repeated id cannot extend: the caller builds anew.
		expect(base.extendedTo([...all.slice(0, 10), all[0] as TranscriptEntry])).toBeNull();
	});
});
