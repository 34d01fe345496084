// Test helper: a policy Snapshot of a plain transcript (no folds, no records) at a 200k window, and
// the session of one prompt then `n` batches of a tool that is not read-only, which only the rescue
// and the span rung may fold.

import { budgetFor, buildSnapshot, type Snapshot } from "../../src/policy/index.ts";
import { emptyState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { toolResult, toolUse, user } from "./entries.ts";

/** One user prompt, then `n` batches of `tool` (ids a<i>, c<i>, r<i>), each result ~4,000 characters. */
export function batchSession(n: number, tool: string): TranscriptEntry[] {
	const out: TranscriptEntry[] = [user("u0", "do the work")];
	for (let i = 0; i < n; i++)
		out.push(
			toolUse(`a${i}`, [{ id: `c${i}`, name: tool, args: { path: `f${i}.txt` } }]),
			toolResult(`r${i}`, `c${i}`, tool, `${tool} f${i}.txt: ${"x".repeat(4_000)}`),
		);
	return out;
}

/** The snapshot of `transcript` with nothing folded, `protectedEntries` protected, at a 200k window. */
export function snapshotOf(transcript: TranscriptEntry[], protectedEntries: string[] = []): Snapshot {
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
