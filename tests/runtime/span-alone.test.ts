// Cost scheduling's span rung when no other rung has anything to fold, driven without Pi: one long run
// whose turns all call a write tool (like an agent that works only through its shell), so no tool
// batch is read-only and no chapter closes. The span rung then opens from a fifth of the budget
// (SPAN_ALONE_MIN_OCCUPANCY) instead of half of it, so the window peaks well under half the budget
// (28,831 of 115,904 tokens; 57,277 with the span rung held to half), and every rewrite is still one
// commit's.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { SPAN_ALONE_MIN_OCCUPANCY, SPAN_MIN_OCCUPANCY } from "../../src/policy/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession, syntheticSession } from "../../src/simulate/index.ts";

describe("the span rung with nothing else to fold", () => {
	it("folds a write-only run before the window reaches half the budget", async () => {
		const store = new MemoryStore();
		const runtime = new FoldRuntime(resolveOptions({ foldScheduling: "cost" }), () => store);
		const session = new SimSession({
			model: { contextWindow: 120_000, maxTokens: 4_096 },
			writeBrief: async (leaves) => ({ brief: `written brief of ${leaves.length} entries`, source: "model" }),
		});
		const messages = syntheticSession({
			seed: 11,
			prompts: 1,
			turnsPerPrompt: 160,
			writeShare: 1,
			resultChars: [600, 4_000],
		});
		const result = await drive(runtime, session, messages);
		expect(result.stopped).toBe(false);
		expect(result.errors).toEqual([]);
		for (const r of result.requests) if (r.kind === "rewrite") expect(r.commitSeq).not.toBeNull();
		const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
		const snap = runtime.snapshot(host);
		expect([...snap.state.folds.values()].some((f) => f.kind === "span")).toBe(true);
		const peak = Math.max(...result.requests.map((r) => r.promptTokens));
		// Without the lower threshold this run peaks just under half the budget (57,277 of 115,904 tokens).
		expect(peak).toBeLessThan(((SPAN_ALONE_MIN_OCCUPANCY + SPAN_MIN_OCCUPANCY) / 2) * snap.budget.budgetTokens);
	});
});
