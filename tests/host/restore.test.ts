// Restoring edited context (question 2 of docs/pi-host-findings.md): a later context_edit whose
// replacement is the target's original content brings back the original message byte for byte, the
// latest edit of a target wins, and an omitted call/result pair comes back in place.

import type { Message } from "@earendil-works/pi-ai";
import type { ContextEditableContent } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	cleanupTempDirs,
	createHarness,
	type Harness,
	messageBytes,
	type RecordedRequest,
	relation,
	say,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

/** The raw (unedited) content of a message entry, as Pi stored it. */
function originalContent(h: Harness, entryId: string): ContextEditableContent {
	const entry = h.session.sessionManager.getEntry(entryId);
	if (entry?.type !== "message") throw new Error(`entry ${entryId} is not a message`);
	const message = entry.message as Message;
	if (message.role === "system") throw new Error("system messages are not editable");
	return structuredClone(message.content);
}

describe("restoring an edited message", () => {
	it("reproduces the original message bytes when the replacement is the original content", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			if (event.turnIndex === 1)
				return {
					entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief a" } }],
				};
			if (event.turnIndex === 2) {
				const replacement = { content: originalContent(h, target) };
				return { entries: [...event.entries, { type: "context_edit", targetId: target, replacement }] };
			}
			return undefined;
		};
		h.script([callProbes("a"), callProbes("b"), callProbes("c"), say("done")]);
		await h.run("go");

		const [, r1, r2, r3] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest, RecordedRequest];
		expect(textOf(r2.messages[3])).toBe("brief a");
		// The restore is itself a rewrite at the same index...
		expect(relation(r2, r3)).toEqual({ kind: "rewrite", firstDivergence: 3 });
		// ...and r3 starts with r1's exact bytes, message by message (key order included).
		expect(r3.messages.slice(0, r1.messages.length).map(messageBytes)).toEqual(r1.messages.map(messageBytes));
		expect(r3.messages.slice(r1.messages.length, r2.messages.length).map(messageBytes)).toEqual(
			r2.messages.slice(r1.messages.length).map(messageBytes),
		);
		// Two edits of one target are kept in the log; the restore costs a second copy of the content.
		const edits = h.session.sessionManager.getEntries().filter((entry) => entry.type === "context_edit");
		const restore = edits[1];
		expect(restore?.type === "context_edit" && restore.replacement?.content).toEqual(
			originalContent(h, h.turns[0]?.toolResultEntryIds[0] ?? ""),
		);
		expect(edits.map((edit) => (edit.type === "context_edit" ? edit.targetId : ""))).toEqual([
			h.turns[0]?.toolResultEntryIds[0],
			h.turns[0]?.toolResultEntryIds[0],
		]);
	});

	it("lets the latest edit of a target win, including within one proposal", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			return {
				entries: [
					...event.entries,
					{ type: "context_edit", targetId: target, replacement: { content: "first" } },
					{ type: "context_edit", targetId: target, replacement: null },
					{ type: "context_edit", targetId: target, replacement: { content: "last" } },
				],
			};
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");
		expect(textOf((h.requests[2] as RecordedRequest).messages[3])).toBe("last");
	});

	it("brings an omitted call/result pair back in place, byte for byte", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			const turn0 = h.turns[0];
			if (!turn0) return undefined;
			const targets = [turn0.messageEntryId, ...turn0.toolResultEntryIds];
			if (event.turnIndex === 1) {
				const drafts = targets.map((targetId) => ({ type: "context_edit" as const, targetId, replacement: null }));
				return { entries: [...event.entries, ...drafts] };
			}
			if (event.turnIndex === 2) {
				const drafts = targets.map((targetId) => ({
					type: "context_edit" as const,
					targetId,
					replacement: { content: originalContent(h, targetId) },
				}));
				return { entries: [...event.entries, ...drafts] };
			}
			return undefined;
		};
		h.script([callProbes("a"), callProbes("b"), callProbes("c"), say("done")]);
		await h.run("go");

		const [, r1, r2, r3] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest, RecordedRequest];
		expect(r2.messages).toHaveLength(r1.messages.length);
		expect(JSON.stringify(r2.messages)).not.toContain("call_a");
		expect(relation(r2, r3)).toEqual({ kind: "rewrite", firstDivergence: 2 });
		expect(r3.messages.slice(0, r1.messages.length).map(messageBytes)).toEqual(r1.messages.map(messageBytes));
	});

	it("has no way to delete an edit: a restore is a new edit and the target stays edited in the log", async () => {
		const h = await createHarness();
		h.hooks.turnEnd = (event) => {
			if (event.turnIndex !== 1) return undefined;
			const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
			return {
				entries: [
					...event.entries,
					{ type: "context_edit", targetId: target, replacement: null },
					{ type: "context_edit", targetId: target, replacement: { content: originalContent(h, target) } },
				],
			};
		};
		h.script([callProbes("a"), callProbes("b"), say("done")]);
		await h.run("go");
		const [, r1, r2] = h.requests as [RecordedRequest, RecordedRequest, RecordedRequest];
		// A net no-op proposal leaves the window a pure append.
		expect(relation(r1, r2)).toEqual({ kind: "append", added: 2 });
		const projection = h.session.sessionManager.buildSessionProjection();
		const target = projection.entries.find((entry) => entry.sourceEntry.id === h.turns[0]?.toolResultEntryIds[0]);
		expect(target?.messages).toHaveLength(1);
		expect(projection.entries.filter((entry) => entry.sourceEntry.type === "context_edit")).toHaveLength(2);
	});
});
