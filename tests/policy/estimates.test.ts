// The policy's two fixed estimates (src/policy/ladder-input.ts): a request's messages count their
// content plus a few tokens of framing each (Pi's bookkeeping fields count nothing), and a fold not
// yet in the window is priced at a placeholder's typical size, which is what a real placeholder with
// a typical brief costs; a fold frees its span less that placeholder.

import { describe, expect, it } from "vitest";
import { nameIndexRoom, nameIndexSizeBound } from "../../src/briefs/index.ts";
import type { FoldRecord } from "../../src/lattice/index.ts";
import {
	PLACEHOLDER_TOKENS_ESTIMATE,
	requestMessageTokens,
	rescueProposals,
	windowTokens,
} from "../../src/policy/index.ts";
import { renderPlaceholder } from "../../src/projection/index.ts";
import { estimateTokens } from "../../src/wasm/index.ts";
import { batchSession, snapshotOf } from "../helpers/snapshot.ts";

describe("a request's estimate", () => {
	it("adds four tokens of framing per message to its content, and nothing for Pi's bookkeeping", () => {
		const empty = Array.from({ length: 10 }, () => ({ role: "user", content: "" }));
		expect(requestMessageTokens(empty)).toBe(10 * estimateTokens("") + 40);
		const text = "a sentence of content, long enough to count for something";
		const plain = { role: "assistant", content: text };
		const billed = { ...plain, usage: { input: 123_456, output: 789 }, timestamp: 1_767_225_600_000, api: "faux" };
		expect(requestMessageTokens([plain])).toBe(estimateTokens(text) + 4);
		expect(requestMessageTokens([billed])).toBe(requestMessageTokens([plain]));
	});
});

describe("a new fold's placeholder estimate", () => {
	it("is within a third of what a real placeholder with a typical 400-character brief costs", () => {
		const fold: FoldRecord = {
			id: "f0123456789abcdef",
			kind: "tools",
			origin: "ladder",
			leafIds: ["e1", "e2", "e3"],
			sourceSha256: "a".repeat(64),
			sourceBytes: 48_213,
			brief:
				`read src/parser.ts (412 lines) and src/lexer.ts (198 lines): ${"the tokenizer and the parser agree on spans; ".repeat(8)}`.slice(
					0,
					400,
				),
			briefSource: "deterministic",
		};
		const text = renderPlaceholder(fold, { brandNoun: "active-context", toolName: "active_context" });
		const real = estimateTokens(JSON.stringify([{ type: "text", text }]));
		expect(Math.abs(real - PLACEHOLDER_TOKENS_ESTIMATE)).toBeLessThanOrEqual(real / 3);
	});

	it("is what a fold is taken to cost in the window: a span frees its tokens less the placeholder and its names", () => {
		const snap = snapshotOf(batchSession(8, "write"));
		const tokens = windowTokens(snap);
		const spans = rescueProposals(snap, tokens);
		expect(spans.length).toBeGreaterThan(0);
		for (const span of spans) {
			const shown = tokens.range(span.start, span.end);
			const leaves = snap.view.transcript.slice(span.start, span.end);
			const names = Math.ceil(nameIndexSizeBound(leaves, nameIndexRoom(shown * 4, snap.budget.budgetTokens)) / 4);
			expect(names).toBeGreaterThan(0);
			expect(span.freedTokens).toBe(shown - 160 - names);
		}
	});
});
