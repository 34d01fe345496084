// Host behaviour of Pi's `context_edit` entries committed from boundary hooks (questions 1, 2 and 7 of
// docs/pi-host-findings.md): when an edit reaches the provider, that requests between edits are pure
// appends, that an edit request diverges exactly at the edited message, that restoring the original
// content is byte-identical, and that commits land between tool rounds of one agentic run.

import type { Message } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	cleanupTempDirs,
	createHarness,
	type Harness,
	messageBytes,
	type RecordedRequest,
	relation,
	roles,
	say,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

/** Index of the message whose tool call / result id is `id` (result when `role` is toolResult). */
function indexOfResult(request: RecordedRequest, callId: string): number {
	return request.messages.findIndex((m) => m.role === "toolResult" && m.toolCallId === callId);
}

function rawMessage(h: Harness, entryId: string): Message {
	const entry = h.session.sessionManager.getEntry(entryId);
	if (entry?.type !== "message") throw new Error(`entry ${entryId} is not a message`);
	return entry.message as Message;
}

/** Tokens of a request's prompt as the faux provider billed it (input is 0 under its cache). */
function promptTokens(request: RecordedRequest): number {
	const usage = request.usage;
	if (!usage) throw new Error("request has no usage");
	return usage.input + usage.cacheRead + usage.cacheWrite;
}

describe("a context_edit draft returned from turn_end", () => {
	it("reaches the very next request of the same run, which diverges exactly at the edited message", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			// At the end of turn 1 (probe b) fold the result of turn 0 (probe a).
			if (event.turnIndex !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0];
			if (!target) throw new Error("turn 0 had no tool result");
			return {
				entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief a" } }],
			};
		};
		h.script([callProbes("a"), callProbes("b"), callProbes("c"), say("done")]);
		await h.run("go");

		const [r0, r1, r2, r3] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest, RecordedRequest];
		expect(h.requests).toHaveLength(4);
		expect(relation(r0, r1)).toEqual({ kind: "append", added: 2 });
		const edited = indexOfResult(r1, "call_a");
		expect(edited).toBe(3);
		// The commit request: every message before and after the edited one is byte-identical.
		expect(relation(r1, r2)).toEqual({ kind: "rewrite", firstDivergence: edited });
		expect(r2.messages.length).toBe(r1.messages.length + 2);
		r1.messages.forEach((message, index) => {
			if (index !== edited) expect(messageBytes(r2.messages[index] as Message)).toBe(messageBytes(message));
		});
		expect(r2.messages[edited]?.content).toEqual([{ type: "text", text: "brief a" }]);
		// After the commit the window is again a pure append.
		expect(relation(r2, r3)).toEqual({ kind: "append", added: 2 });

		// The faux prefix cache agrees: appends read the whole previous prompt, the commit only the
		// part before the edited message.
		expect(r1.usage?.cacheRead).toBe(promptTokens(r0));
		expect(r2.usage?.cacheRead).toBeLessThan(promptTokens(r1));
		expect(r2.usage?.cacheRead).toBeGreaterThanOrEqual(r1.usage?.cacheRead ?? Number.POSITIVE_INFINITY);
		expect(r3.usage?.cacheRead).toBe(promptTokens(r2));

		// Raw history keeps the original; the edit is a durable entry after turn 1's results.
		expect(textOf(rawMessage(h, h.turns[0]?.toolResultEntryIds[0] ?? ""))).toMatch(/^probe a: lorem/);
		const edits = h.session.sessionManager.getEntries().filter((entry) => entry.type === "context_edit");
		expect(edits).toHaveLength(1);
		expect(edits[0]?.parentId).toBe(h.turns[1]?.toolResultEntryIds[0]);
	});

	it("omits the target from the next request when the replacement is null", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 1) return undefined;
			const turn0 = h.turns[0];
			if (!turn0) throw new Error("no turn 0");
			// Omit the whole tool batch of turn 0: the call and its result.
			const drafts = [turn0.messageEntryId, ...turn0.toolResultEntryIds].map((targetId) => ({
				type: "context_edit" as const,
				targetId,
				replacement: null,
			}));
			return { entries: [...event.entries, ...drafts] };
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");

		const [, r1, r2] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
		expect(roles(r1)).toEqual(["system", "user", "assistant", "toolResult"]);
		expect(roles(r2)).toEqual(["system", "user", "assistant", "toolResult"]);
		expect(relation(r1, r2)).toEqual({ kind: "rewrite", firstDivergence: 2 });
		expect(JSON.stringify(r2.messages)).not.toContain("call_a");
		expect(r2.messages.slice(0, 2).map(messageBytes)).toEqual(r1.messages.slice(0, 2).map(messageBytes));
	});

	it("applies an edit of a result produced in the same turn before the provider ever sees the result", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const target = event.toolResultEntryIds[0];
			if (event.turnIndex !== 0 || !target) return undefined;
			return {
				entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief" } }],
			};
		};
		h.script([callProbes("a"), say("done")]);
		await h.run("go");
		const [r0, r1] = h.requests as [RecordedRequest, RecordedRequest];
		// No rewrite at all: the first appearance of the result already carries the brief.
		expect(relation(r0, r1)).toEqual({ kind: "append", added: 2 });
		expect(textOf(r1.messages[3])).toBe("brief");
	});

	it("shows later handlers the proposals so far and a preview equal to the next request", async () => {
		const seen: { entries: number; preview: Message[] }[] = [];
		const h = await createHarness({
			hooks: {
				setup(pi) {
					// Registered after the harness's forwarding handler, so it runs second.
					pi.on("turn_end", (event) => {
						if (event.turnIndex === 1)
							seen.push({ entries: event.entries.length, preview: structuredClone(event.context.llmMessages) });
						return undefined;
					});
				},
			},
		});
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			return { entries: [...event.entries, { type: "context_edit", targetId: target, replacement: null }] };
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");
		expect(seen).toHaveLength(1);
		expect(seen[0]?.entries).toBe(1);
		const r2 = h.requests[2] as RecordedRequest;
		// The first handler's preview still had the result; the second's is rebuilt without it and
		// matches the next request byte for byte.
		expect(h.turns[1]?.preview.some((m) => m.role === "toolResult" && m.toolCallId === "call_a")).toBe(true);
		expect(seen[0]?.preview.map(messageBytes)).toEqual(r2.messages.map(messageBytes));
	});

	it("drops the whole proposal, other handlers' drafts included, when one draft is invalid", async () => {
		const errors: string[] = [];
		const h = await createHarness({
			hooks: {
				setup(pi) {
					pi.on("turn_end", (event) => {
						if (event.turnIndex !== 1) return undefined;
						return {
							entries: [...event.entries, { type: "context_edit", targetId: "no-such-entry", replacement: null }],
						};
					});
				},
			},
		});
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			return {
				entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief" } }],
			};
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await expect(h.run("go")).rejects.toThrow(/Invalid boundary entries: Entry no-such-entry not found/);
		errors.push(...h.session.sessionManager.getEntries().map((entry) => entry.type));
		expect(errors).not.toContain("context_edit");
		expect(textOf((h.requests[2] as RecordedRequest).messages[3])).toMatch(/^probe a: lorem/);
	});
});

describe("a context_edit draft returned from agent_before_settle", () => {
	it("is durable and reaches the next prompt's request, diverging at the edited message", async () => {
		const h = await createHarness();
		let settles = 0;
		h.hooks.beforeSettle = (event) => {
			settles++;
			if (settles !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			return {
				entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief a" } }],
			};
		};
		h.script([callProbes("a"), say("done")]);
		await h.run("first");
		h.script([say("ok")]);
		await h.run("second");

		expect(settles).toBe(2);
		const [, r1, r2] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
		expect(relation(r1, r2)).toEqual({ kind: "rewrite", firstDivergence: 3 });
		expect(textOf(r2.messages[3])).toBe("brief a");
		expect(roles(r2)).toEqual(["system", "user", "assistant", "toolResult", "assistant", "user"]);
		expect(r2.usage?.cacheRead).toBeLessThan(promptTokens(r1));
	});

	it("with continue: true makes one context-only request that already carries the edit", async () => {
		const h = await createHarness();
		let continued = false;
		h.hooks.beforeSettle = (event) => {
			if (continued) return undefined;
			continued = true;
			const turn0 = h.turns[0];
			if (!turn0) throw new Error("no turn 0");
			return {
				entries: [
					...event.entries,
					{ type: "context_edit", targetId: turn0.messageEntryId, replacement: null },
					{ type: "context_edit", targetId: turn0.toolResultEntryIds[0] ?? "", replacement: null },
					{ type: "custom_message", customType: "receipt", content: "folded a", display: false },
				],
				continue: true,
			};
		};
		h.script([callProbes("a"), say("done"), say("after receipt")]);
		await h.run("go");
		expect(h.requests).toHaveLength(3);
		const r2 = h.requests[2] as RecordedRequest;
		expect(roles(r2)).toEqual(["system", "user", "assistant", "user"]);
		expect(JSON.stringify(r2.messages)).not.toContain("call_a");
		expect(textOf(r2.messages.at(-1))).toBe("folded a");
	});
});
