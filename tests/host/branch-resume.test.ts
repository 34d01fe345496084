// Branch-relative edits and persistence (question 4 of docs/pi-host-findings.md): an edit lives on the
// branch that appended it, `/tree` navigation (AgentSession.navigateTree) and forks
// (SessionManager.createBranchedSession, what AgentSessionRuntime.fork uses) see only the edits on their
// path, and resuming a JSONL session reproduces the edited window byte for byte.

import { SessionManager, type SessionTreeEvent } from "@earendil-works/pi-coding-agent";
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

function lastRequest(h: Harness): RecordedRequest {
	const request = h.requests.at(-1);
	if (!request) throw new Error("no request recorded");
	return request;
}

function resultText(request: RecordedRequest, callId: string): string {
	return textOf(request.messages.find((m) => m.role === "toolResult" && m.toolCallId === callId));
}

/**
 * Prompt "first" runs probe a; prompt "second" runs probe b, and the turn that ran probe b folds a's
 * result into "brief a". Returns the leaf after each prompt.
 */
async function twoPromptsWithEdit(h: Harness): Promise<{ leafFirst: string; leafSecond: string }> {
	h.hooks.turnEnd = (event) => {
		if (!JSON.stringify(event.message).includes("call_b")) return undefined;
		const target = h.turns[0]?.toolResultEntryIds[0] ?? "";
		return {
			entries: [...event.entries, { type: "context_edit", targetId: target, replacement: { content: "brief a" } }],
		};
	};
	h.script([callProbes("a"), say("done a")]);
	await h.run("first");
	const leafFirst = h.session.sessionManager.getLeafId() ?? "";
	h.script([callProbes("b"), say("done b")]);
	await h.run("second");
	const leafSecond = h.session.sessionManager.getLeafId() ?? "";
	return { leafFirst, leafSecond };
}

describe("edits are branch-relative", () => {
	it("does not apply an edit from another branch after /tree navigation, and applies it again on return", async () => {
		const trees: Pick<SessionTreeEvent, "newLeafId" | "oldLeafId">[] = [];
		const h = await createHarness({
			persistent: true,
			hooks: {
				setup: (pi) =>
					pi.on("session_tree", (e) => void trees.push({ newLeafId: e.newLeafId, oldLeafId: e.oldLeafId })),
			},
		});
		const { leafFirst, leafSecond } = await twoPromptsWithEdit(h);
		const original = h.requests[1] as RecordedRequest;
		expect(resultText(lastRequest(h), "call_a")).toBe("brief a");

		await h.session.navigateTree(leafFirst);
		expect(trees).toEqual([{ newLeafId: leafFirst, oldLeafId: leafSecond }]);
		h.script([say("ok third")]);
		await h.run("third");
		const third = lastRequest(h);
		// The third branch starts from the first prompt's exact window, result a unedited.
		expect(third.messages.slice(0, original.messages.length).map(messageBytes)).toEqual(
			original.messages.map(messageBytes),
		);
		expect(JSON.stringify(third.messages)).not.toContain("second");

		await h.session.navigateTree(leafSecond);
		h.script([say("ok fourth")]);
		await h.run("fourth");
		expect(resultText(lastRequest(h), "call_a")).toBe("brief a");
	});

	it("refuses a draft whose target is not on the active branch", async () => {
		const h = await createHarness({ persistent: true });
		const { leafFirst } = await twoPromptsWithEdit(h);
		const resultB = h.turns.find((turn) => turn.toolResultEntryIds.length > 0 && turn !== h.turns[0])
			?.toolResultEntryIds[0];
		await h.session.navigateTree(leafFirst);
		h.hooks.turnEnd = (event) => ({
			entries: [...event.entries, { type: "context_edit", targetId: resultB ?? "", replacement: null }],
		});
		h.script([say("ok")]);
		// The boundary preview is built from the active branch only, so the refusal reads "not found".
		await expect(h.run("third")).rejects.toThrow(`Invalid boundary entries: Entry ${resultB} not found`);
		expect(h.session.sessionManager.getBranch().some((entry) => entry.type === "context_edit")).toBe(false);
	});
});

describe("persisted sessions", () => {
	it("reproduce the edited window byte for byte on resume", async () => {
		const h1 = await createHarness({ persistent: true });
		await twoPromptsWithEdit(h1);
		const before = lastRequest(h1);
		const file = h1.sessionFile();
		if (!file) throw new Error("no session file");
		const finalAssistant = h1.session.sessionManager.getLeafEntry();
		h1.dispose();

		const h2 = await createHarness({ openFile: file, sessionDir: h1.sessionDir });
		h2.script([say("resumed")]);
		await h2.run("third");
		const after = h2.requests[0] as RecordedRequest;
		expect(after.messages.slice(0, before.messages.length).map(messageBytes)).toEqual(
			before.messages.map(messageBytes),
		);
		expect(finalAssistant?.type === "message" && messageBytes(finalAssistant.message as never)).toBe(
			messageBytes(after.messages[before.messages.length] as never),
		);
		expect(resultText(after, "call_a")).toBe("brief a");
		// A fresh provider process has no cached prefix; in-process the append relation still holds.
		expect(relation(before, { messages: after.messages.slice(0, before.messages.length + 1) }).kind).toBe("append");
	});

	it("keep the edit in a fork taken after it and drop it in a fork taken before it", async () => {
		const h1 = await createHarness({ persistent: true });
		await twoPromptsWithEdit(h1);
		const file = h1.sessionFile();
		if (!file) throw new Error("no session file");
		const branch = h1.session.sessionManager.getBranch();
		const edit = branch.find((entry) => entry.type === "context_edit");
		const beforeEdit = edit?.parentId;
		if (!edit || !beforeEdit) throw new Error("no edit on the branch");
		const withEdit = lastRequest(h1);

		const forkAfter = SessionManager.open(file, h1.sessionDir).createBranchedSession(branch.at(-1)?.id ?? "");
		const forkBefore = SessionManager.open(file, h1.sessionDir).createBranchedSession(beforeEdit);
		if (!forkAfter || !forkBefore) throw new Error("fork did not produce a file");

		const after = await createHarness({ openFile: forkAfter, sessionDir: h1.sessionDir });
		after.script([say("forked")]);
		await after.run("third");
		expect(
			(after.requests[0] as RecordedRequest).messages.slice(0, withEdit.messages.length).map(messageBytes),
		).toEqual(withEdit.messages.map(messageBytes));

		const before = await createHarness({ openFile: forkBefore, sessionDir: h1.sessionDir });
		before.script([say("forked early")]);
		await before.run("third");
		expect(resultText(before.requests[0] as RecordedRequest, "call_a")).toMatch(/^probe a: lorem/);
	});
});
