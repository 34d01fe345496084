// Model text is checked before it stands in the window, in a real in-process session whose faux
// model answers pi-fold's brief requests: a brief request shows the span as a readable transcript
// (never entry JSON); a brief that echoes its request (as a scripted model does: "(faux) You said:
// ...") is refused and the fold keeps pi-fold's own brief; and the commit's line, drawn at 80
// columns as Pi's TUI draws it, says so in plain words.

import type { AssistantMessage, FauxResponseStep, Message } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { callProbes, cleanupTempDirs, createHarness, type Harness, say, textOf } from "./harness.ts";
import { drawn, FOLD_IDS } from "./screen.ts";

afterAll(cleanupTempDirs);

const SUMMARY_MARK = "You write the brief for a folded span";

/** A chapter fold's run (tests/pi/ladder.test.ts's chapterRun) whose brief requests `answer` answers. */
async function chapterRun(answer: (request: Message[]) => AssistantMessage): Promise<{ h: Harness; asked: string[] }> {
	const h = await createHarness({ ui: "tui", contextWindow: 16_000, options: { readOnlyTools: new Set<string>() } });
	const plan: AssistantMessage[] = [
		callProbes("big1"),
		callProbes("big2"),
		say("first part done"),
		...Array.from({ length: 10 }, (_, i) => callProbes(`big${i + 3}`)),
		say("done"),
	];
	const asked: string[] = [];
	let next = 0;
	const router: FauxResponseStep = (context) => {
		if (!JSON.stringify(context.messages).includes(SUMMARY_MARK)) return plan[next++] ?? say("idle");
		asked.push(context.messages.map((m) => textOf(m as Message)).join("\n"));
		return answer(context.messages as Message[]);
	};
	h.faux.appendResponses(Array.from({ length: 40 }, () => router));
	await h.run("first");
	await h.run("second");
	return { h, asked };
}

function chapters(h: Harness) {
	return [...h.runtime.snapshot(h.host()).state.folds.values()].filter((f) => f.kind === "chapter");
}

describe("a model-written brief", () => {
	it("is asked for over a readable transcript, and refused when it echoes its request; the commit line says so", async () => {
		// The scripted model's echo: its request's own text, as the faux provider answers by default.
		const { h, asked } = await chapterRun((messages) =>
			say(`(faux) You said: ${textOf(messages.at(-1)).slice(0, 600)}`),
		);
		expect(asked.length).toBeGreaterThan(0);
		const request = asked[0] as string;
		// The span as a person would read it: labelled messages in their own words, no entry JSON or ids.
		expect(request).toMatch(/^Assistant:\nfirst part done$/m);
		expect(request).toMatch(/^Assistant ran probe\(key="big1"\)$/m);
		expect(request).toMatch(/^Tool result \(probe\):\nprobe big1: /m);
		expect(request).not.toMatch(/"type":"text"|"toolCall"|--- user /);
		const [chapter] = chapters(h);
		expect(chapter?.briefSource).toBe("deterministic");
		expect(chapter?.brief).not.toContain("You said");
		expect(h.runtime.telemetry.view().briefFallback).toBe(
			"summarizer brief refused: it repeated its request instead of summarizing it",
		);
		const line = h.ui.notices.map((n) => n.message).find((m) => m.includes("not used"));
		if (!line)
			throw new Error(`no commit line says the brief was refused: ${h.ui.notices.map((n) => n.message).join(" | ")}`);
		const screen = drawn(line, [FOLD_IDS]).join("\n");
		// Every brief request of the run was answered with an echo and refused: the commit lines count each once.
		const counted = h.ui.notices
			.map((x) => /the model's briefs? for (\d+) folds? (?:was|were) not used/.exec(x.message)?.[1])
			.reduce((sum, c) => sum + Number(c ?? 0), 0);
		expect(counted).toBe(asked.length);
		expect(screen.split("\n")[0]).toMatch(
			/^ pi-fold folded 1 prompt with its answer and 1 run of messages, ~[\d,]+ tokens$/,
		);
		expect(screen.replace(/\s+/g, " ")).toContain(
			"the model's briefs for 2 folds were not used (refused: it repeated its request instead of summarizing it), so pi-fold wrote those briefs from the span itself. /context lists the folds.",
		);
		expect(screen).not.toMatch(/summarizer|fallback|deterministic/);
	});

	it("that summarizes is used as written, and the commit line says nothing of briefs", async () => {
		const { h } = await chapterRun(() =>
			say("Chapter one probed big1 and big2; both returned lorem ipsum filler text."),
		);
		const [chapter] = chapters(h);
		expect(chapter?.briefSource).toBe("model");
		expect(h.ui.notices.some((n) => n.message.startsWith("pi-fold folded"))).toBe(true);
		expect(h.ui.notices.some((n) => n.message.includes("not used"))).toBe(false);
	});
});
