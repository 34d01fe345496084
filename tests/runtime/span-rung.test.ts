// Cost scheduling's span rung in the runtime, driven without Pi: three long runs whose turns mostly call
// a write tool (not read-only, so no tool-batch fold takes them) at a small window. The span rung
// folds the stale conversation once the window is half the budget; every span gets a written brief
// (the summarizer is asked whatever the brief's price); a span that absorbs earlier folds is
// summarized from what the window shows (their placeholders, not their raw entries); and every
// rewrite is still one commit's.

import { describe, expect, it } from "vitest";
import type { FoldKind } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession, syntheticSession } from "../../src/simulate/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";

interface Asked {
	readonly kind: FoldKind;
	readonly leaves: number;
	readonly shown: readonly TranscriptEntry[];
}

async function run() {
	const asked: Asked[] = [];
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling: "cost" }), () => store);
	const session = new SimSession({
		model: { contextWindow: 32_000, maxTokens: 4_096 },
		writeBrief: async (leaves, kind, shown) => {
			asked.push({ kind, leaves: leaves.length, shown: shown ?? leaves });
			return { brief: `written brief of ${leaves.length} entries`, source: "model" };
		},
	});
	const messages = syntheticSession({
		seed: 7,
		prompts: 3,
		turnsPerPrompt: 80,
		writeShare: 0.9,
		resultChars: [600, 4_000],
	});
	const result = await drive(runtime, session, messages);
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	return { runtime, result, asked, snap: runtime.snapshot(host) };
}

describe("the span rung under cost scheduling", () => {
	it("folds the stale conversation into spans with written briefs, read from what the window shows", async () => {
		const { runtime, result, asked, snap } = await run();
		expect(result.stopped).toBe(false);
		expect(result.errors).toEqual([]);
		expect(runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		for (const r of result.requests) if (r.kind === "rewrite") expect(r.commitSeq).not.toBeNull();

		const spans = [...snap.state.folds.values()].filter((f) => f.kind === "span");
		expect(spans.length).toBeGreaterThan(0);
		for (const span of spans) {
			expect(span.briefSource).toBe("model");
			// The written brief, then (for a span over folds) the listing of what it holds.
			expect(span.brief.startsWith(`written brief of ${span.leafIds.length} entries`)).toBe(true);
		}
		// A span over earlier folds reads their placeholders: fewer entries than its leaves, each fold once.
		const absorbing = asked.find((a) => a.kind === "span" && a.shown.length < a.leaves);
		expect(absorbing).toBeDefined();
		const placeholders = absorbing?.shown.filter((e) => String(e.message.content).startsWith("[active-context fold f"));
		expect(placeholders?.length).toBeGreaterThan(0);
	});
});
