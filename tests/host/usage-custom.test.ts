// What Pi's own accounting sees of edited context, and where extension-authored entries land
// (questions 5 and 6 of docs/pi-host-findings.md): getContextUsage() and the threshold compaction
// trigger measure the edited window; `custom` entries never reach the model, even when appended from a
// tool mid-batch; `custom_message` drafts are pure appends at the tail.

import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import type { ContextUsage, SessionBeforeCompactEvent } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	cleanupTempDirs,
	createHarness,
	type Harness,
	type HarnessOptions,
	pairingProblems,
	type RecordedRequest,
	relation,
	roles,
	say,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

/** Fold a whole earlier batch (call + results) at the end of the turn after it. */
function foldPreviousBatch(h: Harness): void {
	h.hooks.turnEnd = (event) => {
		const previous = h.turns[event.turnIndex - 1];
		if (!previous || previous.toolResultEntryIds.length === 0) return undefined;
		const drafts = [previous.messageEntryId, ...previous.toolResultEntryIds].map((targetId) => ({
			type: "context_edit" as const,
			targetId,
			replacement: null,
		}));
		return { entries: [...event.entries, ...drafts] };
	};
}

/** Runs big1, big2, big3, done in one prompt and records getContextUsage() at every turn start. */
async function bigRun(fold: boolean, options: HarnessOptions = {}): Promise<{ h: Harness; usage: ContextUsage[] }> {
	const usage: ContextUsage[] = [];
	const h = await createHarness({
		...options,
		hooks: {
			setup(pi) {
				pi.on("turn_start", (_event, ctx) => {
					const current = ctx.getContextUsage();
					if (current) usage.push(current);
				});
				options.hooks?.setup?.(pi);
			},
		},
	});
	if (fold) foldPreviousBatch(h);
	h.script([callProbes("big1"), callProbes("big2"), callProbes("big3"), say("done")]);
	await h.run("go");
	return { h, usage };
}

describe("Pi's accounting of edited context", () => {
	it("getContextUsage() reports the edited (smaller) window", async () => {
		const plain = await bigRun(false);
		const folded = await bigRun(true);
		const plainEnd = plain.h.session.getContextUsage()?.tokens ?? 0;
		const foldedEnd = folded.h.session.getContextUsage()?.tokens ?? 0;
		// Every ~1,350-token batch was folded by the end (the last one at the final turn_end).
		expect(plainEnd - foldedEnd).toBeGreaterThan(2 * 1300);
		// Right after the commit (turn 2 start, before any newer usage) Pi falls back to its estimate of
		// the edited projection, which is already smaller than the unedited usage.
		const plainTurn2 = plain.usage[2]?.tokens ?? 0;
		const foldedTurn2 = folded.usage[2]?.tokens ?? Number.POSITIVE_INFINITY;
		expect(foldedTurn2).toBeLessThan(plainTurn2 - 1000);
		// And the provider really was sent less.
		const plainLast = plain.h.requests.at(-1) as RecordedRequest;
		const foldedLast = folded.h.requests.at(-1) as RecordedRequest;
		expect(JSON.stringify(foldedLast.messages).length).toBeLessThan(JSON.stringify(plainLast.messages).length - 8000);
	});

	it("the threshold compaction trigger measures the edited window", async () => {
		const compactions: SessionBeforeCompactEvent["reason"][] = [];
		const options: HarnessOptions = {
			contextWindow: 6000,
			compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 500 },
			hooks: {
				setup: (pi) =>
					pi.on("session_before_compact", (event) => {
						compactions.push(event.reason);
						return { cancel: true };
					}),
			},
		};
		await bigRun(false, options);
		expect(compactions.length).toBeGreaterThan(0);
		expect(compactions[0]).toBe("threshold");
		compactions.length = 0;
		await bigRun(true, options);
		expect(compactions).toEqual([]);
	});
});

describe("extension-authored entries", () => {
	it("never sends custom entries to the model, whether a draft, appendEntry in a hook, or appendEntry from a tool mid-batch", async () => {
		const h = await createHarness({
			extraTools: ["mark"],
			hooks: {
				setup(pi) {
					pi.registerTool({
						name: "mark",
						label: "Mark",
						description: "Records a mark durably.",
						parameters: Type.Object({}),
						async execute() {
							pi.appendEntry("pi-fold-test", { marker: "SECRET-FROM-TOOL" });
							return { content: [{ type: "text", text: "marked" }], details: undefined };
						},
					});
				},
			},
		});
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 0) return undefined;
			return {
				entries: [...event.entries, { type: "custom", customType: "pi-fold-test", data: { marker: "SECRET-DRAFT" } }],
			};
		};
		const both = fauxAssistantMessage(
			[fauxToolCall("probe", { key: "a" }, { id: "call_a" }), fauxToolCall("mark", {}, { id: "call_m" })],
			{ stopReason: "toolUse" },
		);
		h.script([both, callProbes("b"), say("done")]);
		await h.run("go");
		const all = JSON.stringify(h.requests.map((request) => request.messages));
		expect(all).not.toContain("SECRET");
		for (let i = 1; i < h.requests.length; i++)
			expect(relation(h.requests[i - 1] as RecordedRequest, h.requests[i] as RecordedRequest).kind).toBe("append");
		for (const request of h.requests) expect(pairingProblems(request.messages)).toEqual([]);
		const entries = h.session.sessionManager.getEntries();
		const customs = entries.filter((entry) => entry.type === "custom");
		expect(customs.map((entry) => (entry.type === "custom" ? entry.data : null))).toEqual([
			{ marker: "SECRET-FROM-TOOL" },
			{ marker: "SECRET-DRAFT" },
		]);
		// The entry appended by the tool sits inside the batch: between the tool-call entry and its results.
		const fromTool = customs[0];
		const turn0 = h.turns[0];
		expect(fromTool?.parentId).toBe(turn0?.messageEntryId);
		expect(entries.find((entry) => entry.id === turn0?.toolResultEntryIds[0])?.parentId).toBe(fromTool?.id);
	});

	it("lands a custom_message draft from turn_end after that turn's results, as a user message, purely appended", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 0) return undefined;
			return {
				entries: [
					...event.entries,
					{
						type: "custom_message",
						customType: "receipt",
						content: "receipt 1",
						display: false,
						details: { x: "HIDDEN" },
					},
				],
			};
		};
		h.script([callProbes("a"), say("done")]);
		await h.run("go");
		const [r0, r1] = h.requests as [RecordedRequest, RecordedRequest];
		expect(roles(r1)).toEqual(["system", "user", "assistant", "toolResult", "user"]);
		expect(textOf(r1.messages[4])).toBe("receipt 1");
		expect(JSON.stringify(r1.messages)).not.toContain("HIDDEN");
		expect(relation(r0, r1)).toEqual({ kind: "append", added: 3 });
	});

	it("lands a custom_message draft from agent_before_settle before the next prompt's user message", async () => {
		const h = await createHarness();
		let once = false;
		h.hooks.beforeSettle = (event) => {
			if (once) return undefined;
			once = true;
			return {
				entries: [
					...event.entries,
					{ type: "custom_message", customType: "receipt", content: "receipt", display: false },
				],
			};
		};
		h.script([say("done")]);
		await h.run("first");
		h.script([say("ok")]);
		await h.run("second");
		const [r0, r1] = h.requests as [RecordedRequest, RecordedRequest];
		expect(roles(r1)).toEqual(["system", "user", "assistant", "user", "user"]);
		expect(r1.messages.slice(3).map(textOf)).toEqual(["receipt", "second"]);
		expect(relation(r0, r1).kind).toBe("append");
	});
});

describe("context_edit entries pi-fold did not write", () => {
	it("are appended by Pi itself to omit an overflowed attempt, with nothing marking their author", async () => {
		// Overflow recovery runs only with native compaction enabled; with nothing to summarise yet it
		// appends the omission and stops.
		const h = await createHarness({ compaction: { enabled: true } });
		h.script([say("hello")]);
		await h.run("first");
		h.script([
			fauxAssistantMessage([], {
				stopReason: "error",
				errorMessage: "prompt is too long: 200000 tokens > 128000 maximum",
			}),
		]);
		await h.run("second");
		const edits = h.session.sessionManager.getEntries().filter((entry) => entry.type === "context_edit");
		expect(edits).toHaveLength(1);
		const target = h.session.sessionManager.getEntry(edits[0]?.type === "context_edit" ? edits[0].targetId : "");
		expect(target?.type === "message" && target.message.role).toBe("assistant");
		expect(Object.keys(edits[0] ?? {}).sort()).toEqual([
			"id",
			"parentId",
			"replacement",
			"targetId",
			"timestamp",
			"type",
		]);
	});
});
