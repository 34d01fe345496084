// Folding and expanding end to end in a real Pi session: a fold decided by the tool lands at the
// next request as a brief; the window between commits is a pure append; expanding restores the
// original messages byte for byte; calls stay paired with their results; the same span folded
// twice is one fold; peek reads without touching the window.

import type { Message } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type Harness,
	messageBytes,
	pairingProblems,
	relation,
	say,
	textOf,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];

function foldIds(h: Harness): string[] {
	return [...h.runtime.snapshot(h.host()).state.folds.keys()];
}

/** Index in a request's conversation of the assistant message that made call `callId`. */
function callIndex(messages: Message[], callId: string): number {
	return messages.findIndex(
		(m) => m.role === "assistant" && m.content.some((b) => b.type === "toolCall" && b.id === callId),
	);
}

describe("a fold decided by the tool", () => {
	it("lands at the next request as a brief, and expanding restores the original bytes", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({
				action: "fold",
				from: "call_a",
				to: "call_b",
				brief: "Probed a and b: both returned lorem ipsum filler.",
			}),
			() => callTool({ action: "expand", id: foldIds(h)[0] as string }),
			say("done"),
		]);
		await h.run("go");
		expect(h.requests).toHaveLength(10);
		const before = h.requests[7] as (typeof h.requests)[number];
		const folded = h.requests[8] as (typeof h.requests)[number];
		const restored = h.requests[9] as (typeof h.requests)[number];
		const at = callIndex(conversation(before), "call_a");
		expect(relation(before, folded)).toEqual({ kind: "rewrite", firstDivergence: at });
		const brief = conversation(folded)[at] as Message;
		expect(textOf(brief)).toContain("Probed a and b: both returned lorem ipsum filler.");
		expect(textOf(brief)).toContain(`active-context fold ${foldIds(h)[0]}`);
		// The span's other three messages are omitted; everything else is byte-identical.
		expect(conversation(folded).length).toBe(conversation(before).length - 3 + 2);
		expect(pairingProblems(folded.messages)).toEqual([]);
		// Expanding restores the original messages byte for byte, at their positions.
		const original = conversation(before).map(messageBytes);
		expect(conversation(restored).slice(0, original.length).map(messageBytes)).toEqual(original);
		expect(relation(folded, restored)).toEqual({ kind: "rewrite", firstDivergence: at });
		expect(pairingProblems(restored.messages)).toEqual([]);
		// Zero unattributed rewrites: both rewrites belong to commits.
		const counts = h.runtime.telemetry.view().counters;
		expect(counts.rewrites).toBe(2);
		expect(counts.unattributedRewrites).toBe(0);
		expect(toolTexts(h)[0]).toMatch(/^Folded f[0-9a-f]{16} \(span, 4 entries/);
		// `from` named call a's result (by its call id); the span snapped back to the whole batch.
		expect(toolTexts(h)[0]).toContain("Snapped: start moved back 1 entry to the start of a toolBatch unit");
	});

	it("is one fold when the same span is folded twice", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a" }, { action: "fold", from: "call_a", to: "call_a" }),
			say("done"),
		]);
		await h.run("go");
		expect(foldIds(h)).toHaveLength(1);
		const texts = toolTexts(h);
		expect(texts[0]).toMatch(/^Folded /);
		expect(texts[1]).toMatch(/^Already folded: f[0-9a-f]{16} covers exactly this span/);
		const decisions = h.session.sessionManager
			.getBranch()
			.filter((e) => e.type === "custom" && (e.data as { kind?: string }).kind === "fold");
		expect(decisions).toHaveLength(1);
	});

	it("folds a closed chapter, user message first, and restores it on expand", async () => {
		const h = await createHarness();
		h.script([callProbes("a"), say("first chapter done")]);
		await h.run("first question");
		const userId = h.session.sessionManager.getBranch().find((e) => e.type === "message" && e.message.role === "user")
			?.id as string;
		const replyId = h.session.sessionManager.getBranch().findLast((e) => e.type === "message")?.id as string;
		h.script([
			...["b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({
				action: "fold",
				from: userId,
				to: replyId,
				brief: "The first question was answered after one probe.",
			}),
			() => callTool({ action: "expand", id: foldIds(h)[0] as string }),
			say("done"),
		]);
		await h.run("second question");
		expect(toolTexts(h)[0]).toMatch(/^Folded f[0-9a-f]{16} \(chapter, 4 entries/);
		const folded = conversation(h.requests.at(-2) as (typeof h.requests)[number]);
		expect(folded[0]?.role).toBe("user");
		expect(textOf(folded[0])).toContain("The first question was answered after one probe.");
		expect(folded[1]?.role).toBe("user");
		const original = conversation(h.requests[1] as (typeof h.requests)[number]).map(messageBytes);
		const restored = conversation(h.requests.at(-1) as (typeof h.requests)[number]).map(messageBytes);
		expect(restored.slice(0, original.length)).toEqual(original);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});
