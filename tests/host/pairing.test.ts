// Tool call / result pairing under context edits (question 3 of docs/pi-host-findings.md). The faux
// provider records the transcript before any provider-specific conversion; `transformMessages` is the
// step every real pi-ai provider (openai-completions, anthropic, ...) runs on it before serialising, so
// applying it here shows what a real provider would be sent.

import type { Message } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	cleanupTempDirs,
	createHarness,
	type Harness,
	pairingProblems,
	type RecordedRequest,
	roles,
	say,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

type Side = "call" | "result" | "both";

/** Run probe a, probe b, done; at the end of turn 1 omit the chosen side(s) of turn 0's batch. */
async function omitAtTurnOne(side: Side): Promise<{ h: Harness; request: RecordedRequest }> {
	const h = await createHarness();
	h.hooks.turnEnd = (event) => {
		const turn0 = h.turns[0];
		if (event.turnIndex !== 1 || !turn0) return undefined;
		const targets = [
			...(side === "result" ? [] : [turn0.messageEntryId]),
			...(side === "call" ? [] : turn0.toolResultEntryIds),
		];
		const drafts = targets.map((targetId) => ({ type: "context_edit" as const, targetId, replacement: null }));
		return { entries: [...event.entries, ...drafts] };
	};
	h.script([callProbes("a"), callProbes("b"), say("done")]);
	await h.run("go");
	return { h, request: h.requests[2] as RecordedRequest };
}

function realProviderView(h: Harness, messages: Message[]): Message[] {
	return transformMessages(messages, h.faux.getModel());
}

describe("omitting tool batches", () => {
	it("keeps the request valid when the call and its results are omitted together", async () => {
		const { h, request } = await omitAtTurnOne("both");
		expect(pairingProblems(request.messages)).toEqual([]);
		expect(realProviderView(h, request.messages)).toEqual(request.messages);
	});

	it("sends an orphan tool result when only the call is omitted; Pi neither drops nor repairs it", async () => {
		const { h, request } = await omitAtTurnOne("call");
		expect(roles(request)).toEqual(["system", "user", "toolResult", "assistant", "toolResult"]);
		expect(pairingProblems(request.messages)).toEqual(["result call_a has no call"]);
		// What a real provider would be sent still carries the orphan (OpenAI and Anthropic reject it).
		expect(pairingProblems(realProviderView(h, request.messages))).toEqual(["result call_a has no call"]);
	});

	it("sends a call without its result when only the result is omitted; providers get a synthetic error result", async () => {
		const { h, request } = await omitAtTurnOne("result");
		expect(roles(request)).toEqual(["system", "user", "assistant", "assistant", "toolResult"]);
		expect(pairingProblems(request.messages)).toEqual(["call call_a has no result"]);
		const repaired = realProviderView(h, request.messages);
		expect(pairingProblems(repaired)).toEqual([]);
		const synthetic = repaired.find((m) => m.role === "toolResult" && m.toolCallId === "call_a");
		expect(synthetic).toMatchObject({ isError: true, content: [{ type: "text", text: "No result provided" }] });
		// The synthetic result carries Date.now(): the repaired bytes differ on every request.
		expect(synthetic && "timestamp" in synthetic).toBe(true);
	});
});

describe("replacing tool batch content", () => {
	it("turns a tool-call message into text while keeping role and metadata (stopReason stays toolUse)", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const turn0 = h.turns[0];
			if (event.turnIndex !== 1 || !turn0) return undefined;
			return {
				entries: [
					...event.entries,
					{ type: "context_edit", targetId: turn0.messageEntryId, replacement: { content: "brief of batch a" } },
					...turn0.toolResultEntryIds.map((targetId) => ({
						type: "context_edit" as const,
						targetId,
						replacement: null,
					})),
				],
			};
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");
		const [, r1, r2] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
		const before = r1.messages[2];
		const after = r2.messages[2];
		if (before?.role !== "assistant" || after?.role !== "assistant") throw new Error("expected assistant messages");
		expect(after.content).toEqual([{ type: "text", text: "brief of batch a" }]);
		const { content: _a, ...metaBefore } = before;
		const { content: _b, ...metaAfter } = after;
		expect(metaAfter).toEqual(metaBefore);
		expect(after.stopReason).toBe("toolUse");
		// Valid pairing, but two assistant messages now follow each other.
		expect(roles(r2)).toEqual(["system", "user", "assistant", "assistant", "toolResult"]);
		expect(pairingProblems(r2.messages)).toEqual([]);
		expect(pairingProblems(realProviderView(h, r2.messages))).toEqual([]);
	});

	it("replaces a tool result's content only: a string becomes one text block, call id, name and flags stay", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const target = h.turns[0]?.toolResultEntryIds[0];
			if (event.turnIndex !== 1 || !target) return undefined;
			return {
				entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief" } }],
			};
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");
		const [, r1, r2] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
		const before = r1.messages[3];
		const after = r2.messages[3];
		if (before?.role !== "toolResult" || after?.role !== "toolResult") throw new Error("expected tool results");
		expect(after.content).toEqual([{ type: "text", text: "brief" }]);
		const { content: _a, ...metaBefore } = before;
		const { content: _b, ...metaAfter } = after;
		expect(metaAfter).toEqual(metaBefore);
		expect(metaAfter).toMatchObject({ toolCallId: "call_a", toolName: "probe", isError: false });
		// The stored edit entry holds the normalized array form.
		const edit = h.session.sessionManager.getEntries().find((entry) => entry.type === "context_edit");
		expect(edit).toMatchObject({ replacement: { content: [{ type: "text", text: "brief" }] } });
	});

	it("reports parallel calls of one batch in call order and folds them pairwise", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const turn0 = h.turns[0];
			if (event.turnIndex !== 1 || !turn0) return undefined;
			const drafts = turn0.toolResultEntryIds.map((targetId, index) => ({
				type: "context_edit" as const,
				targetId,
				replacement: { content: index === 0 ? "brief of a, b, c" : "(folded with a)" },
			}));
			return { entries: [...event.entries, ...drafts] };
		};
		h.script([callProbes("a", "b", "c"), callProbes("d"), say("done")]);
		await h.run("go");
		expect(h.turns[0]?.toolResultEntryIds).toHaveLength(3);
		const r2 = h.requests[2] as RecordedRequest;
		const results = r2.messages.filter((m) => m.role === "toolResult");
		expect(results.map((m) => (m.role === "toolResult" ? m.toolCallId : ""))).toEqual([
			"call_a",
			"call_b",
			"call_c",
			"call_d",
		]);
		expect(results.slice(0, 3).map(textOf)).toEqual(["brief of a, b, c", "(folded with a)", "(folded with a)"]);
		expect(pairingProblems(r2.messages)).toEqual([]);
	});
});
