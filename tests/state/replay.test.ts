import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, foldSource } from "../../src/lattice/index.ts";
import {
	chainKeyOf,
	chainRecord,
	type DecisionBody,
	type DecisionRecord,
	emptyState,
	type FoldState,
	replay as replayWith,
} from "../../src/state/index.ts";
import { sha256Hex } from "../../src/wasm/index.ts";
import { readBatch } from "../helpers/entries.ts";

function foldOf(prefix: string): FoldRecord {
	const leaves = readBatch(prefix, [`${prefix}.ts`]);
	const source = foldSource(leaves);
	return {
		id: foldId(leaves),
		kind: "tools",
		origin: "agent",
		leafIds: leaves.map((e) => e.id),
		sourceSha256: sha256Hex(source),
		sourceBytes: Buffer.byteLength(source),
		brief: `read ${prefix}.ts: it defines the ${prefix} parser`,
		briefSource: "agent",
	};
}

const key = chainKeyOf(new Uint8Array(32).fill(7));

/** Replays with the test key (the key every record below is signed with). */
function replay(records: readonly { entryId: string; data: unknown }[]): FoldState {
	return replayWith(records, emptyState(), key);
}

/** Chains bodies into stored entries the way the adapter writes them. */
function log(bodies: DecisionBody[]): { entryId: string; data: DecisionRecord }[] {
	let prev: string | null = null;
	return bodies.map((body, i) => {
		const data = chainRecord(body, prev, key);
		prev = data.digest;
		return { entryId: `e${i}`, data };
	});
}

const a = foldOf("a");
const b = foldOf("b");

describe("replaying the decision log", () => {
	it("rebuilds folds, expansions and protections in order", () => {
		const state = replay(
			log([
				{ kind: "fold", actor: "agent", fold: a },
				{ kind: "fold", actor: "agent", fold: b },
				{ kind: "expand", actor: "agent", foldId: a.id },
				{ kind: "protect", actor: "agent", target: { entryIds: ["x1"] } },
				{ kind: "expand", actor: "agent", foldId: b.id },
				{ kind: "refold", actor: "agent", foldId: b.id },
			]),
		);
		expect([...state.folds.keys()]).toEqual([a.id, b.id]);
		expect([...state.expanded]).toEqual([a.id]);
		expect(state.protectedEntries.has("x1")).toBe(true);
		expect(state.refusals).toEqual([]);
	});

	it("keeps marks pending until a commit applies them, and drops refused ones", () => {
		const records = log([
			{ kind: "mark", actor: "agent", topUp: false, fold: a },
			{ kind: "mark", actor: "ladder", topUp: true, fold: b },
		]);
		const pending = replay(records);
		expect([...pending.pendingMarks.keys()]).toEqual([a.id, b.id]);
		expect(pending.folds.size).toBe(0);
		const committed = replay(
			log([
				{ kind: "mark", actor: "agent", topUp: false, fold: a },
				{ kind: "mark", actor: "ladder", topUp: true, fold: b },
				{
					kind: "commit",
					actor: "ladder",
					seq: 1,
					reason: "occupancy 81% with stale tool mass",
					applied: [a.id],
					agentMarks: [a.id],
					topUpMarks: [],
					refused: [{ foldId: b.id, reason: "protected" }],
					edits: [],
				},
			]),
		);
		expect([...committed.folds.keys()]).toEqual([a.id]);
		expect(committed.pendingMarks.size).toBe(0);
		expect(committed.commitSeq).toBe(1);
	});

	it("refuses an altered record by entry id and still applies the records after it", () => {
		const records = log([
			{ kind: "fold", actor: "agent", fold: a },
			{ kind: "fold", actor: "agent", fold: b },
			{ kind: "expand", actor: "agent", foldId: a.id },
		]);
		const tampered = records.map((r) =>
			r.entryId === "e1"
				? { ...r, data: { ...r.data, fold: { ...b, brief: "rewritten by hand, not by pi-fold" } } }
				: r,
		);
		const state = replay(tampered);
		expect(state.refusals).toHaveLength(1);
		expect(state.refusals[0]?.entryId).toBe("e1");
		expect(state.refusals[0]?.reason).toMatch(/fold record was altered/);
		expect(state.folds.has(b.id)).toBe(false);
		expect(state.expanded.has(a.id)).toBe(true);
	});

	it("refuses a malformed record naming the field", () => {
		const records = log([{ kind: "fold", actor: "agent", fold: a }]);
		const broken = [{ entryId: "e0", data: { ...records[0]?.data, fold: { ...a, brief: "x".repeat(1_201) } } }];
		const state = replay(broken);
		expect(state.refusals[0]?.reason).toMatch(/malformed decision record: fold\.brief/);
	});

	it("refuses a record replayed out of order", () => {
		const records = log([
			{ kind: "fold", actor: "agent", fold: a },
			{ kind: "fold", actor: "agent", fold: b },
		]);
		const state = replay([records[1] as (typeof records)[number]]);
		expect(state.refusals[0]?.reason).toMatch(/out of order/);
		expect(state.folds.size).toBe(0);
	});
});
