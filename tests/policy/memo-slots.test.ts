// The decision core's memos around a forecast (src/policy memo-slots.ts): a snapshot built on the
// branch with a message the host has not appended yet, inside `keepingMemos`, leaves every memo as
// it was: the branch as it was gives back the very snapshot built before, and the branch once the
// host appended its own entry is built from it by appending, the same as a snapshot built anew.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import {
	type BranchView,
	budgetFor,
	buildSnapshot,
	keepingMemos,
	memoCount,
	pendingEditFrom,
	type Snapshot,
	shownTokens,
	windowTokens,
} from "../../src/policy/index.ts";
import { emptyState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";

const BUDGET = budgetFor({ contextWindow: 64_000, maxTokens: 4_000 }, undefined);
const OPTIONS = resolveOptions({});

function viewOf(transcript: readonly TranscriptEntry[]): BranchView {
	return {
		leafId: transcript.at(-1)?.id ?? null,
		transcript,
		records: [],
		inForce: new Map(),
		managed: new Set(),
		foreign: new Set(),
	};
}

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
