// The output budget after a commit (src/pi/output-budget.ts) against pi-ai's own clamp: pi-ai sizes
// `max_tokens` from the last assistant message's usage unless a message with a newer timestamp
// precedes it. A fold keeps timestamps, so the pre-fold usage is trusted and the output clamps to
// 1; raising the first message's timestamp (the leading system message's, in a real request) to
// the commit's time makes pi-ai estimate the folded prompt instead. The wire tests (tests/wire/) show the same on real request bodies.

import { clampMaxTokensToContext } from "@earendil-works/pi-ai/api/simple-options";
import { describe, expect, it } from "vitest";
import { distrustUsageBefore, latestRewriteTime } from "../../src/pi/output-budget.ts";

const model = { contextWindow: 32_000, maxTokens: 4_096 } as Parameters<typeof clampMaxTokensToContext>[0];

/** A folded window: a placeholder where ~28k tokens were, then the last turn whose usage predates the fold. */
function foldedWindow() {
	const usage = { input: 100, output: 50, cacheRead: 27_850, cacheWrite: 0, totalTokens: 28_000 };
	return [
		{ role: "system", content: "You are a coding agent.", timestamp: 500 },
		{ role: "user", content: "go", timestamp: 1_000 },
		{
			role: "assistant",
			content: [{ type: "text", text: "[fold placeholder]" }],
			timestamp: 2_000,
			usage,
			stopReason: "toolUse",
		},
		{
			role: "assistant",
			content: [{ type: "toolCall", id: "c1", name: "read", arguments: {} }],
			timestamp: 3_000,
			usage,
			stopReason: "toolUse",
		},
		{
			role: "toolResult",
			toolCallId: "c1",
			toolName: "read",
			content: [{ type: "text", text: "x".repeat(700) }],
			timestamp: 4_000,
		},
	];
}

function clamp(messages: unknown[]): number {
	return clampMaxTokensToContext(model, { messages } as never, model.maxTokens);
}

describe("the output budget after a commit", () => {
	it("pi-ai trusts the pre-fold usage of an edited window and clamps the output to 1", () => {
		expect(clamp(foldedWindow())).toBe(1);
	});

	it("once the first message is as new as the commit, pi-ai estimates the folded prompt and allows full output", () => {
		const messages = foldedWindow();
		expect(distrustUsageBefore(messages, 5_000)).toBe(true);
		expect(messages[0]?.timestamp).toBe(5_000);
		expect(clamp(messages)).toBe(model.maxTokens);
	});

	it("keeps trusting a response newer than the commit, and leaves assistant-first or newer windows alone", () => {
		const messages = foldedWindow();
		const fresh = { input: 100, output: 50, cacheRead: 24_800, cacheWrite: 0, totalTokens: 24_950 };
		Object.assign(messages[3] as object, { usage: fresh });
		distrustUsageBefore(messages, 2_500);
		// The turn at 3,000 answered after the edit at 2,500: its usage describes the prompt.
		expect(clamp(messages)).toBe(32_000 - 24_950 - 200 - 4_096);
		const assistantFirst = [{ role: "assistant", content: [], timestamp: 1 }];
		expect(distrustUsageBefore(assistantFirst, 10)).toBe(false);
		const newer = [{ role: "user", content: "x", timestamp: 20 }];
		expect(distrustUsageBefore(newer, 10)).toBe(false);
	});

	it("reads the latest context_edit or compaction on the branch", () => {
		const at = (type: string, iso: string) => ({ type, timestamp: iso }) as never;
		expect(latestRewriteTime([at("message", "2026-01-01T00:00:00Z")])).toBeNull();
		const branch = [
			at("context_edit", "2026-01-01T00:00:01Z"),
			at("compaction", "2026-01-01T00:00:02Z"),
			at("message", "2026-01-01T00:00:03Z"),
		];
		expect(latestRewriteTime(branch)).toBe(Date.parse("2026-01-01T00:00:02Z"));
	});
});
