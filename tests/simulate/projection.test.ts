// The simulator's projection is Pi's: on the same entries (messages, pi-fold's custom records, a
// commit receipt, context edits that brief, omit and restore, a compaction with kept entries), the
// messages the simulator sends equal what Pi's own buildSessionProjection + convertToLlm produce,
// role and content, in order.

import { buildSessionProjection, convertToLlm } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { projectedMessages, type SimEntry, toLlm } from "../../src/simulate/index.ts";
import { asPi } from "./pi-entries.ts";

const user = (id: string, text: string): SimEntry => ({
	type: "message",
	id,
	message: { role: "user", content: text },
});
const call = (id: string, callId: string): SimEntry => ({
	type: "message",
	id,
	message: {
		role: "assistant",
		content: [
			{ type: "text", text: "reading" },
			{ type: "toolCall", id: callId, name: "read", arguments: { path: "a" } },
		],
	},
});
const result = (id: string, callId: string, text: string): SimEntry => ({
	type: "message",
	id,
	message: {
		role: "toolResult",
		toolCallId: callId,
		toolName: "read",
		content: [{ type: "text", text }],
		isError: false,
	},
});

function piMessages(entries: readonly SimEntry[]) {
	const pi = asPi(entries);
	const byId = new Map(pi.map((e) => [e.id, e]));
	return convertToLlm(buildSessionProjection(pi, pi.at(-1)?.id ?? null, byId).messages).map((m) => ({
		role: m.role,
		content: m.content,
	}));
}

function simMessages(entries: readonly SimEntry[]) {
	return toLlm(projectedMessages(entries)).map((m) => ({ role: m.role, content: m.content }));
}

describe("the simulator's projection", () => {
	const base: SimEntry[] = [
		user("u1", "first task"),
		call("a1", "c1"),
		result("r1", "c1", "file a, long text"),
		call("a2", "c2"),
		result("r2", "c2", "file b"),
		{ type: "custom", id: "d1", customType: "pi-fold:decision", data: { kind: "commit" } },
		{ type: "custom_message", id: "m1", customType: "pi-fold:receipt", content: "[commit #1]", display: false },
		user("u2", "second task"),
	];

	it("equals Pi's on messages, custom records and a custom message", () => {
		expect(simMessages(base)).toEqual(piMessages(base));
	});

	it("equals Pi's with context edits that brief, omit and restore (latest per target wins)", () => {
		const edited: SimEntry[] = [
			...base,
			{ type: "context_edit", id: "e1", targetId: "a1", replacement: { content: "brief of a1..r1" } },
			{ type: "context_edit", id: "e2", targetId: "r1", replacement: null },
			{ type: "context_edit", id: "e3", targetId: "u2", replacement: { content: "edited ask" } },
			{ type: "context_edit", id: "e4", targetId: "u2", replacement: { content: "second task" } },
		];
		expect(simMessages(edited)).toEqual(piMessages(edited));
		expect(simMessages(edited)[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "brief of a1..r1" }] });
	});

	it("equals Pi's after a compaction that keeps entries from firstKeptEntryId", () => {
		const compacted: SimEntry[] = [
			...base,
			{ type: "compaction", id: "k1", summary: "the story so far", firstKeptEntryId: "a2", tokensBefore: 500 },
			call("a3", "c3"),
			result("r3", "c3", "file c"),
		];
		expect(simMessages(compacted)).toEqual(piMessages(compacted));
		expect(simMessages(compacted)[0]?.role).toBe("user");
	});
});
