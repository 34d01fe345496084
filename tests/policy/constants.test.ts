// Pins every number the automatic behaviour rests on (docs/policy.md lists each with its meaning
// and the behaviour tests that exercise it), plus one scheduler rule the runtime relies on: a
// LADDER mark at the very end of the window does not apply at once (only a decision of the agent
// or the human does), so nothing automatic rewrites below QUIET_OCCUPANCY.

import { describe, expect, it } from "vitest";
import {
	BRIEF_MAX_CHARS,
	BRIEF_MIN_CHARS,
	SUMMARY_INPUT_MAX_CHARS,
	SUMMARY_MAX_OUTPUT_TOKENS,
	SUMMARY_TIMEOUT_MS,
} from "../../src/briefs/index.ts";
import { DEFAULT_KEEP_RAW_TOKENS } from "../../src/options/index.ts";
import { KEEP_RAW_MAX_BUDGET_SHARE } from "../../src/policy/cost-gate.ts";
import { EXCERPT_CAP_BYTES } from "../../src/policy/excerpt-plan.ts";
import {
	COMMIT_TARGET_SHARE,
	CONSOLIDATE_MIN_FOLDS,
	CONSOLIDATE_OCCUPANCY,
	EXCERPT_MIN_TOKENS,
	EXCERPT_TOKENS_ESTIMATE,
	MAX_VISIBLE_FOLDS,
	type MarkView,
	MESSAGE_OVERHEAD_TOKENS,
	MIN_STALE_TOOL_SHARE,
	PLACEHOLDER_TOKENS_ESTIMATE,
	PRESSURE_BACKSTOP_OCCUPANCY,
	planCommit,
	QUIET_OCCUPANCY,
	RESCUE_TARGET_SHARE,
	RESCUE_TRIGGER_SHARE,
	SHOWN_READ_TURNS,
	SPAN_ALONE_MIN_OCCUPANCY,
	SPAN_MIN_OCCUPANCY,
	servingBudget,
	TAIL_IMMEDIATE_MESSAGES,
} from "../../src/policy/index.ts";
import { RECEIPT_MAX_CHARS, receiptText } from "../../src/runtime/index.ts";
import {
	FRESH_TAIL_MAX_BUDGET_SHARE,
	FRESH_TAIL_MAX_TOKENS,
	FRESH_TAIL_MIN_UNITS,
	FRESH_TAIL_UNITS,
} from "../../src/transcript/index.ts";

describe("the named constants", () => {
	it("hold the spec's defaults", () => {
		expect({
			QUIET_OCCUPANCY,
			CONSOLIDATE_OCCUPANCY,
			MAX_VISIBLE_FOLDS,
			CONSOLIDATE_MIN_FOLDS,
			COMMIT_TARGET_SHARE,
			MIN_STALE_TOOL_SHARE,
			PRESSURE_BACKSTOP_OCCUPANCY,
			TAIL_IMMEDIATE_MESSAGES,
			FRESH_TAIL_UNITS,
			FRESH_TAIL_MAX_BUDGET_SHARE,
			FRESH_TAIL_MAX_TOKENS,
			FRESH_TAIL_MIN_UNITS,
			BRIEF_MAX_CHARS,
			BRIEF_MIN_CHARS,
			SUMMARY_INPUT_MAX_CHARS,
			SUMMARY_MAX_OUTPUT_TOKENS,
			SUMMARY_TIMEOUT_MS,
			PLACEHOLDER_TOKENS_ESTIMATE,
			MESSAGE_OVERHEAD_TOKENS,
			RECEIPT_MAX_CHARS,
			RESCUE_TRIGGER_SHARE,
			RESCUE_TARGET_SHARE,
			SPAN_MIN_OCCUPANCY,
			SPAN_ALONE_MIN_OCCUPANCY,
			KEEP_RAW_MAX_BUDGET_SHARE,
			DEFAULT_KEEP_RAW_TOKENS,
			SHOWN_READ_TURNS,
			EXCERPT_TOKENS_ESTIMATE,
			EXCERPT_MIN_TOKENS,
			EXCERPT_CAP_BYTES,
		}).toEqual({
			QUIET_OCCUPANCY: 0.8,
			CONSOLIDATE_OCCUPANCY: 0.85,
			MAX_VISIBLE_FOLDS: 10,
			CONSOLIDATE_MIN_FOLDS: 2,
			COMMIT_TARGET_SHARE: 0.2,
			MIN_STALE_TOOL_SHARE: 0.05,
			PRESSURE_BACKSTOP_OCCUPANCY: 0.92,
			TAIL_IMMEDIATE_MESSAGES: 4,
			FRESH_TAIL_UNITS: 6,
			FRESH_TAIL_MAX_BUDGET_SHARE: 0.25,
			FRESH_TAIL_MAX_TOKENS: 20_000,
			FRESH_TAIL_MIN_UNITS: 2,
			BRIEF_MAX_CHARS: 1_200,
			BRIEF_MIN_CHARS: 12,
			SUMMARY_INPUT_MAX_CHARS: 48_000,
			SUMMARY_MAX_OUTPUT_TOKENS: 400,
			SUMMARY_TIMEOUT_MS: 30_000,
			PLACEHOLDER_TOKENS_ESTIMATE: 160,
			MESSAGE_OVERHEAD_TOKENS: 4,
			RECEIPT_MAX_CHARS: 400,
			RESCUE_TRIGGER_SHARE: 0.6,
			RESCUE_TARGET_SHARE: 0.45,
			SPAN_MIN_OCCUPANCY: 0.5,
			SPAN_ALONE_MIN_OCCUPANCY: 0.2,
			KEEP_RAW_MAX_BUDGET_SHARE: 0.25,
			DEFAULT_KEEP_RAW_TOKENS: 10_000,
			SHOWN_READ_TURNS: 4,
			EXCERPT_TOKENS_ESTIMATE: 400,
			EXCERPT_MIN_TOKENS: 800,
			EXCERPT_CAP_BYTES: 512 * 1024 * 1024,
		});
	});
});

describe("the tail-adjacent rule", () => {
	const budget = servingBudget({ descriptorWindow: 100_000, outputReservation: 0 });
	const mark = (actor: MarkView["actor"]): MarkView => ({
		id: "f0000000000000001",
		start: 96,
		end: 98,
		freedTokens: 1_000,
		actor,
		protectedBy: null,
		inFreshTail: true,
	});
	const quiet = (m: MarkView) =>
		planCommit({
			mode: "epoch",
			budget,
			occupancyTokens: 10_000,
			entryCount: 100,
			marks: [m],
			decisionsPending: false,
			expandPending: false,
			tools: [],
			chapters: [],
			consolidations: [],
			paused: false,
		});

	it("applies the agent's mark at the very end at once, even when quiet", () => {
		expect(quiet(mark("agent"))).toMatchObject({ commit: true, apply: ["f0000000000000001"] });
	});

	it("holds a ladder mark at the very end below the quiet threshold", () => {
		expect(quiet(mark("ladder")).commit).toBe(false);
	});
});

describe("the receipt", () => {
	it("stays within RECEIPT_MAX_CHARS however many folds and refusals a commit lists", () => {
		const ids = Array.from({ length: 60 }, (_, i) => `f${i.toString(16).padStart(16, "0")}`);
		const text = receiptText(
			{
				kind: "commit",
				actor: "ladder",
				seq: 7,
				reason: "occupancy 91% with stale tool mass",
				applied: ids,
				agentMarks: ids.slice(0, 3),
				topUpMarks: ids.slice(3),
				refused: ids.slice(0, 5).map((foldId) => ({ foldId, reason: `entry e-${foldId} is protected` })),
				edits: [],
			},
			"active-context",
			() => "ladder",
			12_345,
		);
		expect(text?.length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS);
		expect(text).toMatch(
			/^\[active-context commit #7, an automatic notice, not from the user; nothing to answer, carry on with the task: folded 60 \(3 agent, 57 top-up\), ~12,345 tokens freed: /,
		);
		expect(text?.endsWith("]")).toBe(true);
	});
});
