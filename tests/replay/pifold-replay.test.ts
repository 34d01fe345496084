// `pi-fold replay` of a session that ran pi-fold agrees with what ran: a real Pi session on the faux
// provider at a 30,000-token window, pi-fold folding and showing a batch larger than the window as
// excerpts, its agent reading files again unchanged (tests/replay/pifold-session.ts). Replayed through
// pi-fold afresh with the window and reserve it ran with (and, read from its records, the built-in
// briefs its folds had), the replay sends as many requests as the
// session did and lands within 10% of its recorded prompt tokens, predicts no overflow the session did
// not have, and sends the rereads as recorded (its agent read them again with pi-fold's guidelines in
// view); its report, drawn at 80 columns, says so.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSessionFile, type ReplayResult, renderReplay, replaySession } from "../../src/replay/index.ts";
import { cleanupTempDirs } from "../pi/harness.ts";
import { drawn } from "../pi/screen.ts";
import { PIFOLD_SESSION_WINDOW, pifoldSessionFile } from "./pifold-session.ts";

afterAll(cleanupTempDirs);

let text: string;
let result: ReplayResult;

beforeAll(async () => {
	text = await pifoldSessionFile();
	// The faux model's reserve (4,096 output tokens), as the session ran: pi-ai's catalog has no entry for it.
	result = await replaySession(parseSessionFile(text), { window: PIFOLD_SESSION_WINDOW, maxOutput: 4_096 });
}, 60_000);

/** The prompt tokens the file records, summed line by line with no help from the replay. */
function recordedPrompt(): { requests: number; prompt: number; peak: number } {
	let requests = 0;
	let prompt = 0;
	let peak = 0;
	for (const line of text.split("\n").slice(1)) {
		if (!line.trim()) continue;
		const e = JSON.parse(line) as { message?: { role?: string; usage?: Record<string, number> } };
		const u = e.message?.role === "assistant" ? e.message.usage : undefined;
		if (!u) continue;
		const p = (u.input ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
		requests++;
		prompt += p;
		peak = Math.max(peak, p);
	}
	return { requests, prompt, peak };
}

describe("replaying a session that ran pi-fold", () => {
	it("is a session where pi-fold excerpted a batch larger than the window and the agent read files again", () => {
		expect(result.ranPiFold).toBe(true);
		expect(text).toMatch(/"kind":"result","origin"/);
		expect(result.pifold.heldRereads.reads).toBeGreaterThanOrEqual(4);
		expect(recordedPrompt().peak).toBeLessThanOrEqual(PIFOLD_SESSION_WINDOW);
	});

	it("lands within 10% of the prompt tokens it recorded, in as many requests", () => {
		const recorded = recordedPrompt();
		expect(result.pifold.requests).toHaveLength(recorded.requests);
		const off = Math.abs(result.pifold.prompt - recorded.prompt) / recorded.prompt;
		expect(off, `replayed ${result.pifold.prompt} against ${recorded.prompt} recorded`).toBeLessThan(0.1);
	});

	it("predicts no overflow the session did not have", () => {
		expect(result.pifold.overflows).toEqual([]);
		expect(result.pifold.peak).toBeLessThanOrEqual(PIFOLD_SESSION_WINDOW);
		expect(result.pifold.stopped).toBeNull();
	});

	it("sends the agent's rereads as recorded, and its report's counts add up, at 80 columns", () => {
		const h = result.pifold.heldRereads;
		expect(h).toMatchObject({ ranPiFold: true, searched: 0, inView: 0, asRecorded: h.reads });
		expect(result.ranBuiltInBriefs).toBe(true);
		const screen = drawn(renderReplay(result, "s.jsonl")).join("\n");
		expect(screen).not.toContain("Over the window");
		const flat = screen.replace(/\n /g, " ");
		expect(flat).toContain(
			"Its folds' briefs were all built in (none written by a model), so the replay writes built-in briefs too (--settings with a summarizer says otherwise).",
		);
		expect(flat).toContain(
			`Read again: ${h.reads} reads of a file the session had already read, unchanged (${h.chars.toLocaleString("en-US")} characters). The session ran pi-fold, so its agent read them again with pi-fold's guidelines in view: the replay sends them as recorded.`,
		);
		expect(flat).toMatch(
			/Bottom line: replayed through pi-fold afresh, this session would have sent [\d,]+ prompt tokens, against [\d,]+ as it ran with pi-fold, both estimated the same way: (0\.9\d|1\.0\d)x/,
		);
	});
});
