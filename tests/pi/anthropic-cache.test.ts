// The stable-prefix breakpoint's pieces (src/pi/anthropic-cache.ts), on hand-made Messages bodies:
// matching Pi's messages to the wire (tool results grouped, empty messages dropped, a text that
// repeats), the block that can carry the marker, how far the breakpoint may move at a commit,
// placing it without changing anything else, and the prefix digest that tells whether the held
// block is still in the unchanged prefix. The wire test (tests/wire/anthropic.test.ts) runs it all
// against pi-ai's real client.

import { describe, expect, it } from "vitest";
import {
	advance,
	breakpointCount,
	LOOKBACK_BLOCKS,
	markableEnd,
	messageBlocks,
	prefixDigest,
	stableWireEnd,
	withBreakpoint,
} from "../../src/pi/anthropic-cache.ts";

const marker = { type: "ephemeral" };

/** A Messages body: a prompt, a two-call batch, a reply, a prompt, a one-call batch (pi-ai's marker last). */
function body() {
	return {
		model: "m",
		system: [{ type: "text", text: "sys", cache_control: marker }],
		tools: [{ name: "read", cache_control: marker }],
		messages: [
			{ role: "user", content: "go" },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "t", signature: "s" },
					{ type: "tool_use", id: "a", name: "read", input: {} },
					{ type: "tool_use", id: "b", name: "read", input: {} },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "a", content: "A" },
					{ type: "tool_result", tool_use_id: "b", content: "B" },
				],
			},
			{ role: "assistant", content: [{ type: "text", text: "done" }] },
			{ role: "user", content: "go" },
			{ role: "assistant", content: [{ type: "tool_use", id: "c", name: "read", input: {} }] },
			{ role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "C", cache_control: marker }] },
		],
	};
}

/** Pi's LLM messages for the same window (an empty assistant message pi-ai drops included). */
const pi = {
	prompt: { role: "user", content: "go" },
	calls: {
		role: "assistant",
		content: [
			{ type: "thinking", thinking: "t" },
			{ type: "toolCall", id: "a" },
			{ type: "toolCall", id: "b" },
		],
	},
	a: { role: "toolResult", toolCallId: "a", content: [{ type: "text", text: "A" }] },
	b: { role: "toolResult", toolCallId: "b", content: [{ type: "text", text: "B" }] },
	empty: { role: "assistant", content: [{ type: "text", text: "  " }] },
	done: { role: "assistant", content: [{ type: "text", text: "done" }] },
	again: { role: "user", content: "go" },
	c: { role: "assistant", content: [{ type: "toolCall", id: "c" }] },
};

describe("matching the stable prefix to the wire", () => {
	it("finds the last wire message of the stable messages (grouped results, dropped empties)", () => {
		const wire = body().messages;
		expect(stableWireEnd([pi.prompt, pi.calls, pi.a, pi.b], [pi.empty, pi.done], wire)).toBe(2);
		expect(stableWireEnd([pi.prompt, pi.calls, pi.a, pi.b, pi.empty, pi.done], [pi.again], wire)).toBe(3);
		// "go" twice: the second prompt is matched after the reply, not at the first message.
		expect(stableWireEnd([pi.prompt, pi.calls, pi.a, pi.b, pi.done, pi.again], [pi.c], wire)).toBe(4);
	});

	it("refuses what it cannot match, or a next message that shares the last stable wire message", () => {
		const wire = body().messages;
		expect(stableWireEnd([pi.prompt, { role: "user", content: "never sent" }], [], wire)).toBeNull();
		expect(stableWireEnd([pi.prompt, pi.calls, pi.a], [pi.b], wire)).toBeNull();
		expect(stableWireEnd([], [pi.prompt], wire)).toBeNull();
	});

	it("marks the last block of a message only when Anthropic accepts cache_control there", () => {
		const blocks = messageBlocks(body().messages);
		expect(markableEnd(blocks, 2)).toMatchObject({ message: 2, block: 1, flat: 5 });
		expect(markableEnd(blocks, 0)).toMatchObject({ message: 0, block: 0, flat: 0 });
		const thinkingLast = messageBlocks([{ role: "assistant", content: [{ type: "thinking", thinking: "t" }] }]);
		expect(markableEnd(thinkingLast, 0)).toBeNull();
	});
});

describe("moving the breakpoint at a commit", () => {
	const many = messageBlocks(
		Array.from({ length: 60 }, (_, i) => ({
			role: i % 2 === 0 ? "user" : "assistant",
			content: [{ type: "text", text: `m${i}` }],
		})),
	);
	const at = (flat: number) => many[flat] as (typeof many)[number];

	it("never moves back while the held block is unchanged", () => {
		expect(advance(many, at(30), at(10))).toBe(at(30));
	});

	it("moves to the target when the lookback from there still reaches the held block", () => {
		expect(advance(many, at(10), at(10 + LOOKBACK_BLOCKS - 1))).toBe(at(10 + LOOKBACK_BLOCKS - 1));
	});

	it("otherwise stops at the farthest block whose lookback still reaches it", () => {
		expect(advance(many, at(10), at(50)).flat).toBe(10 + LOOKBACK_BLOCKS - 1);
	});
});

describe("placing the breakpoint", () => {
	it("adds one marker (a string content becomes its one text block) and changes nothing else", () => {
		const original = body();
		const blocks = messageBlocks(original.messages);
		const placed = withBreakpoint(original, markableEnd(blocks, 4) as never, marker);
		expect(breakpointCount(original)).toBe(3);
		expect(breakpointCount(placed)).toBe(4);
		expect((placed.messages as { content: unknown }[])[4]?.content).toEqual([
			{ type: "text", text: "go", cache_control: marker },
		]);
		const others = (b: Record<string, unknown>) => (b.messages as unknown[]).filter((_, i) => i !== 4);
		expect(others(placed)).toEqual(others(original));
		expect({ ...placed, messages: [] }).toEqual({ ...original, messages: [] });
		expect(original.messages[4]?.content).toBe("go");
	});

	it("digests the prefix up to a block, cache_control aside, and only that prefix", () => {
		const original = body();
		const block = markableEnd(messageBlocks(original.messages), 2) as never;
		const digest = prefixDigest(original, block);
		expect(prefixDigest(withBreakpoint(original, block, marker), block)).toBe(digest);
		const later = body();
		(later.messages[6] as { content: unknown }).content = "changed after the block";
		expect(prefixDigest(later, block)).toBe(digest);
		const earlier = body();
		(earlier.messages[0] as { content: unknown }).content = "changed before the block";
		expect(prefixDigest(earlier, block)).not.toBe(digest);
	});
});
