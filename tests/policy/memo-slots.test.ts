// The decision core's memos around a forecast (src/policy memo-slots.ts): a snapshot built on the
// branch with a message the host has not appended yet, inside `keepingMemos`, leaves every memo as
// it was: the branch as it was gives back the very snapshot built before, and the branch once the
// host appended its own entry is built from it by appending, the same as a snapshot built anew.

import { describe, expect, it } from "vitest";
import { keepingMemos, memoCount } from "../../src/common/index.ts";
import { Positions } from "../../src/lattice/positions.ts";
import { resolveOptions } from "../../src/options/index.ts";
import {
	budgetFor,
	buildSnapshot,
	pendingEditFrom,
	type Snapshot,
	shownTokens,
	windowTokens,
} from "../../src/policy/index.ts";
import { emptyState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { viewOf } from "../helpers/branch-view.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";

const BUDGET = budgetFor({ contextWindow: 64_000, maxTokens: 4_000 }, undefined);
const OPTIONS = resolveOptions({});

function picture(snap: Snapshot) {
	const tokens = windowTokens(snap);
	return {
		// Where each unit starts and ends and what it is (its entry ids aside: a forecast's stand-in has its own).
		units: snap.units.map(({ entryIds: _ids, ...unit }) => unit),
		freshUnit: snap.freshUnit,
		runningUnit: snap.runningUnit,
		tokens: [tokens.perEntry, tokens.total],
		shown: shownTokens(snap),
		pending: pendingEditFrom(snap, OPTIONS),
	};
}

describe("a forecast between two snapshots", () => {
	it("leaves the memos as they were: the same snapshot back, and the next one built by appending", () => {
		expect(memoCount()).toBeGreaterThanOrEqual(7);
		const entries: TranscriptEntry[] = [user("u0", "start")];
		for (let i = 0; i < 6; i++) entries.push(...readBatch(`b${i}`, [`f${i}.ts`], (p) => `contents of ${p}`));
		entries.push(toolUse("open-use", [{ id: "open-c0", name: "read" }]));
		const result = toolResult("open-r0", "open-c0", "read", "the result the host holds");
		const state = emptyState();
		const known = new Map();
		const view = viewOf(entries);
		const before = buildSnapshot(view, state, known, BUDGET);
		const forecast = keepingMemos(() => {
			const pending = { id: "(not yet appended) 0", message: result.message };
			return picture(buildSnapshot(viewOf([...entries, pending]), state, known, BUDGET));
		});
		expect(buildSnapshot(view, state, known, BUDGET)).toBe(before);
		const after = [...entries, result, reply("last", "done")];
		const grown = picture(buildSnapshot(viewOf(after.slice(0, -1)), state, known, BUDGET));
		const anew = picture(buildSnapshot(viewOf(after.slice(0, -1).map((e) => ({ ...e }))), state, known, BUDGET));
		expect(grown).toEqual(anew);
		expect(forecast.units).toEqual(grown.units);
		expect(forecast.tokens).toEqual(grown.tokens);
	});
});

describe("a lattice's positions extended inside a forecast", () => {
	it("are taken back when it ends: the real transcript after it extends the same map, not a copy", () => {
		const base = Positions.of(["a", "b", "c"]);
		const shared = (p: Positions) => (p as unknown as { shared: { map: Map<string, number> } }).shared.map;
		const seen = keepingMemos(() => base.extended(["(not yet appended) 0"])?.get("(not yet appended) 0"));
		expect(seen).toBe(3);
		const real = base.extended(["d"]) as Positions;
		expect(real.get("d")).toBe(3);
		expect(real.has("(not yet appended) 0")).toBe(false);
		expect(shared(real)).toBe(shared(base));
		// Outside a forecast nothing is taken back: a second extension from the same length copies.
		const other = base.extended(["e"]) as Positions;
		expect(shared(other)).not.toBe(shared(base));
		expect([...other.keys()]).toEqual(["a", "b", "c", "e"]);
		expect(real.get("d")).toBe(3);
	});
});
