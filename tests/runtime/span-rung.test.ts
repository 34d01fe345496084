// Cost scheduling's span rung in the runtime, driven without Pi: three long runs whose turns mostly call
// a write tool (not read-only, so no tool-batch fold takes them) at a small window. The span rung
// folds the stale conversation once the window is half the budget; every span gets a written brief
// (the summarizer is asked whatever the brief's price), read from raw entries and at most the briefs
// of the folds directly inside it, never an older span's; spans sit side by side (none inside
// another), the tree stays shallow (consolidation alone adds depth); every rewrite is one commit's.

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
	it("folds the stale conversation into spans side by side, with written briefs read from raw entries", async () => {
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
		// No span holds another span or a consolidation: a brief is never written from a summary of a summary.
		const placed = [...snap.lattice.folds.values()];
		for (const span of placed.filter((f) => f.record.kind === "span"))
			for (const inner of placed)
				if (inner !== span && span.start <= inner.start && inner.end <= span.end)
					expect(inner.record.kind, `${inner.record.id} inside span ${span.record.id}`).toBe("tools");
		const writtenFrom = asked.filter((a) => a.kind === "span").flatMap((a) => a.shown);
		const shownFolds = writtenFrom.flatMap(
			(e) => /^\[active-context fold (f[0-9a-f]{16})/.exec(String(e.message.content))?.[1] ?? [],
		);
		for (const id of shownFolds) expect(snap.known.get(id)?.kind).toBe("tools");
		// Depth comes from consolidation alone: at most log2(folds) + 2 levels.
		const levels = Math.max(...placed.map((f) => f.depth + 1));
		expect(placed.length).toBeGreaterThan(4);
		expect(levels).toBeLessThanOrEqual(Math.log2(placed.length) + 2);
		expect(placed.some((f) => f.record.kind === "consolidation")).toBe(true);
	});
});
