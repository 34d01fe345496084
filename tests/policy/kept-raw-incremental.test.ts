// What the agent chose to see (src/policy/kept-raw.ts keptRawUnits), answered from the last answer on
// a transcript that grew by appending, against the answer read from scratch (the same transcript as
// fresh entry objects shares nothing with the cache): on random sessions of prompts, replies, read
// batches and context-tool peeks and searches (some naming an expanded fold), with a random fold
// expanded, at every length.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FoldRecord } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import { budgetFor, buildSnapshot, keptRawUnits } from "../../src/policy/index.ts";
import { emptyState, type FoldState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { viewOf } from "../helpers/branch-view.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";
import { recordOver as fold } from "../helpers/fold-record.ts";

const BUDGET = budgetFor({ contextWindow: 64_000, maxTokens: 4_000 }, undefined);
const TOOL = resolveOptions({}).toolName;

/** A context-tool batch: one call per action (peek or search), each naming `target`. */
function contextBatch(prefix: string, actions: readonly string[], target: string): TranscriptEntry[] {
	const calls = actions.map((action, i) => ({ id: `${prefix}-c${i}`, name: TOOL, args: { action, id: target } }));
	return [toolUse(`${prefix}-use`, calls), ...calls.map((c) => toolResult(`${prefix}-r${c.id}`, c.id, TOOL, "shown"))];
}

describe("kept-raw units on a transcript that grew by appending", () => {
	it("are the units read from scratch at every length", () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 3, maxLength: 30 }),
				fc.nat(200),
				fc.nat(4),
				(shapes, at, width) => {
					const all: TranscriptEntry[] = [user("u", "go")];
					// The fold the agent expanded, over entries fixed below; some peeks name it.
					const expandedAt = 1 + (at % 8);
					const expandedId = "expanded-fold";
					shapes.forEach((k, i) => {
						if (k === 0) all.push(user(`u${i}`, "more"));
						else if (k === 1) all.push(reply(`a${i}`, "noted"));
						else if (k === 2) all.push(...readBatch(`b${i}`, [`f${i}`]));
						else if (k === 3) all.push(...contextBatch(`p${i}`, ["peek"], i % 2 ? expandedId : "other"));
						else if (k === 4) all.push(...contextBatch(`s${i}`, ["search", "peek"], "other"));
						else all.push(...contextBatch(`x${i}`, ["peek", "expand"], expandedId));
					});
					const folds = new Map<string, FoldRecord>();
					if (expandedAt + 1 + width <= all.length) {
						const f = { ...fold(all, expandedAt, expandedAt + 1 + width), id: expandedId };
						folds.set(f.id, f);
					}
					const state: FoldState = { ...emptyState(), folds, expanded: new Set(folds.keys()) };
					const known = new Map(folds);
					const lengths = Array.from({ length: all.length }, (_, i) => i + 1);
					const grown = lengths.map((n) => [
						...keptRawUnits(buildSnapshot(viewOf(all.slice(0, n)), state, known, BUDGET), TOOL),
					]);
					const fresh = lengths.map((n) => {
						const copy = all.slice(0, n).map((e) => ({ ...e }));
						return [...keptRawUnits(buildSnapshot(viewOf(copy), state, known, BUDGET), TOOL)];
					});
					lengths.forEach((n, i) => {
						expect(grown[i], `at ${n} entries`).toEqual(fresh[i]);
					});
				},
			),
			{ numRuns: 200 },
		);
	});
});
