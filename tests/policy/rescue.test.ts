// The rescue (src/policy/rescue.ts): under pressure it folds stale units oldest first, only as far as
// the room asked for, and every stale unit when asked for all; the newest unit, the user message that
// opened the running turn, protected entries and the units a caller keeps stay raw.

import { describe, expect, it } from "vitest";
import { budgetFor, buildSnapshot, rescueProposals, type Snapshot, windowTokens } from "../../src/policy/index.ts";
import { emptyState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { toolResult, toolUse, user } from "../helpers/entries.ts";

/** One user prompt, then `n` write batches (not read-only: only the rescue may fold them). */
function session(n: number): TranscriptEntry[] {
	const out: TranscriptEntry[] = [user("u0", "do the work")];
	for (let i = 0; i < n; i++)
		out.push(
			toolUse(`a${i}`, [{ id: `c${i}`, name: "write", args: { path: `f${i}.txt` } }]),
			toolResult(`r${i}`, `c${i}`, "write", `wrote f${i}.txt: ${"x".repeat(4_000)}`),
		);
	return out;
}

function snapshot(transcript: TranscriptEntry[], protectedEntries: string[] = []): Snapshot {
	const view = {
		leafId: transcript.at(-1)?.id ?? null,
		transcript,
		records: [],
		inForce: new Map(),
		managed: new Set<string>(),
		foreign: new Set<string>(),
	};
	const state = { ...emptyState(), protectedEntries: new Set(protectedEntries) };
	return buildSnapshot(view, state, new Map(), budgetFor({ contextWindow: 200_000, maxTokens: 8_000 }, undefined));
}

describe("the rescue", () => {
	it("folds every stale unit when asked for all, keeping the newest unit and the opening prompt raw", () => {
		const snap = snapshot(session(8));
		const [span, ...rest] = rescueProposals(snap, windowTokens(snap));
		expect(rest).toEqual([]);
		// Entry 0 is the user prompt that opened the run; the last batch (2 entries) is the newest unit.
		expect(span).toMatchObject({ rung: "rescue", start: 1, end: 1 + 7 * 2 });
	});

	it("folds oldest first and stops at the first unit boundary that makes the room asked for", () => {
		const snap = snapshot(session(8));
		const tokens = windowTokens(snap);
		const perBatch = tokens.range(1, 3);
		const [span, ...rest] = rescueProposals(snap, tokens, perBatch * 2.5);
		expect(rest).toEqual([]);
		// Three batches make the room (two fall short once a placeholder replaces them): the rest stay raw.
		expect(span).toMatchObject({ start: 1, end: 1 + 3 * 2 });
		expect(span?.freedTokens).toBeGreaterThanOrEqual(perBatch * 2.5);
	});

	it("splits its spans around protected entries and the units the caller keeps", () => {
		const snap = snapshot(session(8), ["r2"]);
		const kept = (u: { start: number }) => u.start === 9;
		const spans = rescueProposals(snap, windowTokens(snap), Number.POSITIVE_INFINITY, kept);
		expect(spans.map((s) => [s.start, s.end])).toEqual([
			[1, 5],
			[7, 9],
			[11, 15],
		]);
	});
});
