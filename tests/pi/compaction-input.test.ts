// What Pi's compaction summarizer is sent of pi-fold's text, in a real in-process session whose
// faux provider records every request: after commits that folded a prompt with its answer (whose
// placeholder keeps the prompt's user role in the window) and left receipts (custom messages, which
// Pi sends as user text), a manual /compact's summary request attributes none of it to the user:
// each placeholder reads as a tool result, no receipt is there, and the user's own prompts still
// read as the user's. The requests the agent's model is sent are untouched by it.

import type { AssistantMessage, FauxResponseStep, Message } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { isSummaryRequest } from "../../bench/session/compaction-summarizer.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, type Harness, say, textOf } from "./harness.ts";

afterAll(cleanupTempDirs);

/**
 * Two prompts under a 16k window: the agent folds the first whole, from the prompt on (its
 * placeholder takes the prompt's place, a user message), then the ladder's commits leave receipts.
 */
async function foldedPrompt(): Promise<Harness> {
	const h = await createHarness({
		contextWindow: 16_000,
		compaction: { enabled: true, reserveTokens: 2_000, keepRecentTokens: 700 },
		options: { readOnlyTools: new Set<string>(), summarizer: "deterministic" },
	});
	const answer =
		(steps: AssistantMessage[]): FauxResponseStep =>
		(context) =>
			isSummaryRequest(context.messages as Message[])
				? say("Summary of the session so far.")
				: (steps.shift() ?? say("idle"));
	const first = [callProbes("big1"), callProbes("big2"), say("first part done")];
	h.script(Array.from({ length: first.length }, () => answer(first)));
	await h.run("first ask: probe the big ones");
	const prompt = h.session.sessionManager
		.getBranch()
		.find(
			(e) => e.type === "message" && e.message.role === "user" && textOf(e.message as Message).startsWith("first ask"),
		);
	if (!prompt) throw new Error("the first prompt is not on the branch");
	const second = [
		...Array.from({ length: 4 }, (_, i) => callProbes(`big${i + 3}`)),
		callTool({
			action: "fold",
			from: prompt.id,
			to: "call_big2",
			brief: "the first ask: big1 and big2 probed, filler text",
		}),
		...Array.from({ length: 6 }, (_, i) => callProbes(`big${i + 7}`)),
		say("done"),
	];
	h.script(Array.from({ length: 30 }, () => answer(second)));
	await h.run("second ask: probe the rest");
	return h;
}

/** The text of the summary requests Pi sent (its serialized conversation). */
function summaryTexts(h: Harness): string[] {
	return h.requests.filter((r) => isSummaryRequest(r.messages)).map((r) => r.messages.map((m) => textOf(m)).join("\n"));
}

describe("Pi's compaction summarizer", () => {
	it("reads pi-fold's placeholders as tool results and never reads its receipts, the user's prompts as the user's", async () => {
		const h = await foldedPrompt();
		const before = h.requests.filter((r) => !isSummaryRequest(r.messages)).map((r) => JSON.stringify(r.messages));
		// The window holds what would read as the user's words: a placeholder in a user message, and receipts.
		const window = h.requests.filter((r) => !isSummaryRequest(r.messages)).at(-1)?.messages ?? [];
		const userTexts = window.filter((m) => m.role === "user").map((m) => textOf(m));
		expect(userTexts.some((t) => t.startsWith("[active-context fold f"))).toBe(true);
		expect(userTexts.some((t) => t.startsWith("[active-context commit #"))).toBe(true);
		await h.session.compact();
		// The history's summary and, when Pi splits the last turn, the turn prefix's: both read as one here.
		const texts = summaryTexts(h);
		if (texts.length === 0) throw new Error("Pi sent no summary request");
		const sent = texts.join("\n");
		expect(texts.length).toBe(2);
		expect(sent).not.toMatch(/\[User\]: \[active-context/);
		expect(sent).not.toContain("[active-context commit #");
		expect(sent).toMatch(/\[Tool result\]: \[active-context fold f[0-9a-f]{16} · \d+ entries · /);
		expect(sent).toContain("[User]: second ask: probe the rest");
		// Only the summarizer's input changed: every request the agent's model was sent is as it was.
		const after = h.requests.filter((r) => !isSummaryRequest(r.messages)).map((r) => JSON.stringify(r.messages));
		expect(after.slice(0, before.length)).toEqual(before);
		const compaction = h.session.sessionManager.getBranch().find((e) => e.type === "compaction");
		expect(compaction).toBeDefined();
	});
});
