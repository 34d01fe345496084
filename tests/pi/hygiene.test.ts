// Text hygiene in real Pi sessions (issue 11, item 5): a brief with a control character written by
// the human or the agent is refused naming the character and its position, and nothing is
// recorded; a brief of 700 emoji passes the schema and the validator alike; what /fold-context and
// /context print, the status text and every notice escape unsafe characters visibly, while peek
// still hands the agent the exact source.

import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it, vi } from "vitest";
import { findUnsafeCharacter } from "../../src/common/index.ts";
import { notifierFor } from "../../src/pi/notify.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, type Harness, say, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g", "h"];
const HOSTILE = "clear \u001b[2J\u001b]0;owned\u0007 then \u202eevil\u202c";

/** Runs slash commands, returning what they printed (print mode: stdout). */
async function commands(h: Harness, ...lines: string[]): Promise<string[]> {
	const out: string[] = [];
	const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
		out.push(String(chunk));
		return true;
	});
	try {
		for (const line of lines) await h.session.prompt(line);
	} finally {
		spy.mockRestore();
	}
	return out;
}

function firstUserEntry(h: Harness): string {
	const entry = h.session.sessionManager.getBranch().find((e) => e.type === "message" && e.message.role === "user");
	return entry?.id as string;
}

function decisions(h: Harness): number {
	return h.runtime.snapshot(h.host()).view.records.length;
}

describe("briefs written in a session", () => {
	it("refuses the human's brief with ESC, naming it and its position, and prints the refusal escaped", async () => {
		const h = await createHarness();
		h.script([...KEYS.map((k) => callProbes(k)), say("done")]);
		await h.run("go");
		const [out] = await commands(h, "/fold-context fold call_a call_b Probes a and b \u001b[31mred\u001b[0m filler");
		expect(out).toMatch(/brief contains U\+001B \(ESC, a control character\) at character 16;/);
		expect(findUnsafeCharacter(out ?? "")).toBeNull();
		expect(decisions(h)).toBe(0);
	});

	it("refuses the agent's brief with BEL or a bidi override, and takes one of 700 emoji", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a", brief: "Probe a returned filler\u0007" }),
			callTool({ action: "fold", from: "call_a", to: "call_a", brief: "Probe a: \u202eresult reversed" }),
			callTool({ action: "fold", from: "call_a", to: "call_a", brief: "😀".repeat(700) }),
			say("done"),
		]);
		await h.run("go");
		const [bel, rlo, emoji] = toolTexts(h);
		expect(bel).toMatch(/brief: brief contains U\+0007 \(BEL, a control character\) at character 24;/);
		expect(rlo).toMatch(/brief: brief contains U\+202E \(RIGHT-TO-LEFT OVERRIDE, a bidi control\) at character 10;/);
		expect(emoji).toMatch(/^Folded f[0-9a-f]{16} /);
		expect(decisions(h)).toBeGreaterThanOrEqual(1);
		const folds = [...h.runtime.snapshot(h.host()).state.folds.values()];
		expect(folds.map((f) => f.brief)).toEqual(["😀".repeat(700)]);
	});
});

describe("what is displayed", () => {
	it("escapes a transcript's control characters in /fold-context peek and /context, and peek gives the agent the exact bytes", async () => {
		const h = await createHarness();
		h.script([...KEYS.map((k) => callProbes(k)), say("done")]);
		await h.run(HOSTILE);
		h.script([() => callTool({ action: "fold", from: firstUserEntry(h), to: "call_b" }), say("folded")]);
		await h.run("fold the start");
		const id = [...h.runtime.snapshot(h.host()).state.folds.keys()][0] as string;
		expect(toolTexts(h).at(-1)).toMatch(/^Folded /);
		h.script([callTool({ action: "peek", id }), say("ok")]);
		await h.run("look");
		// The source is JSON Lines: JSON escapes C0 controls itself, and the RLO stays as it was.
		expect(toolTexts(h).at(-1)).toContain(JSON.stringify(HOSTILE).slice(1, -1));
		expect(toolTexts(h).at(-1)).toContain("\u202e");
		const out = await commands(h, `/fold-context peek ${id}`, "/context tree");
		for (const text of out) expect(findUnsafeCharacter(text)).toBeNull();
		expect(out[1]).toMatch(/Every fold, nested, oldest first/);
	});

	it("escapes a tool's name in the status text the agent and /context read", async () => {
		const h = await createHarness();
		h.script([
			fauxAssistantMessage([fauxToolCall("x\u001b[2Jwipe", {}, { id: "call_x" })], { stopReason: "toolUse" }),
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "status", detail: "entries" }),
			say("done"),
		]);
		await h.run("go");
		const status = toolTexts(h).at(-1) ?? "";
		expect(status).toContain("x\\x1B[2Jwipe");
		expect(findUnsafeCharacter(status)).toBeNull();
	});

	it("escapes every notice, with or without a UI", () => {
		const shown: string[] = [];
		const ui = { notify: (message: string) => void shown.push(message) } as never;
		notifierFor({ hasUI: true, ui })(`evidence for ${HOSTILE} not written`, "warning");
		const err: string[] = [];
		const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
			err.push(String(chunk));
			return true;
		});
		try {
			notifierFor({ hasUI: false, ui })(HOSTILE, "error");
		} finally {
			spy.mockRestore();
		}
		expect(shown[0]).toBe("evidence for clear \\x1B[2J\\x1B]0;owned\\x07 then \\u202Eevil\\u202C not written");
		expect(err[0]).toBe("[pi-fold] clear \\x1B[2J\\x1B]0;owned\\x07 then \\u202Eevil\\u202C\n");
	});
});
