// `pi-fold unfold` on a session file a real in-process Pi session recorded with pi-fold (folds,
// an expand, a refold), run as a user runs it: the built bin in a fresh process
// (`node_modules/.bin/node build/cli.js unfold …`), the fold store gone. The file it writes loads in
// Pi with no pi-fold placeholder in what the model would be sent and every original back, as a new
// session (its own id, named unfolded, the original its parent) that Pi lists beside the original; the
// input is untouched unless --in-place (which keeps its id); an existing output is replaced only with
// --force; it says in one line how large the result is against the model's window; a missing file, a
// file that is not a session and a fold whose entries changed are refused in one line naming what is
// wrong, and nothing is written.

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	probeResultText,
	say,
	tempDir,
	textOf,
} from "../pi/harness.ts";
import { drawn, TMP_DIRS } from "../pi/screen.ts";

afterAll(cleanupTempDirs);

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const CLI = join(ROOT, "build", "cli.js");
const KEYS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

function unfold(...args: string[]) {
	const r = spawnSync(NODE, [CLI, "unfold", ...args], { encoding: "utf8", timeout: 60_000 });
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const isPlaceholder = (text: string) => text.includes('expand: active_context {"action":"expand"');

/** What Pi would send the model from a session file: its context messages' texts. */
function contextTexts(file: string): string[] {
	const sm = SessionManager.open(file, tempDir("pi-fold-unfold-open-"));
	return sm
		.buildSessionContext()
		.messages.filter((m) => m.role !== "system")
		.map((m) => textOf(m as Message));
}

/** A recorded session: three folds (one expanded, then refolded), copied without its fold store. */
async function recordedSession(): Promise<{ file: string; folds: string[] }> {
	const h = await createHarness({ persistent: true });
	const id = (brief: string) =>
		[...h.runtime.snapshot(h.host()).state.folds.values()].find((f) => f.brief === brief)?.id as string;
	h.script([
		...KEYS.map((k) => callProbes(k)),
		callTool(
			{ action: "fold", from: "call_a", to: "call_b", brief: "Probes a and b." },
			{ action: "fold", from: "call_c", to: "call_d", brief: "Probes c and d." },
			{ action: "fold", from: "call_e", to: "call_e", brief: "Probe e." },
		),
		() => callTool({ action: "expand", id: id("Probes c and d.") }),
		callProbes("k"),
		() => callTool({ action: "refold", id: id("Probes c and d.") }),
		() => callTool({ action: "expand", id: id("Probe e.") }),
		say("done"),
	]);
	await h.run("go");
	const folds = [...h.runtime.snapshot(h.host()).state.folds.keys()];
	const file = join(tempDir("pi-fold-unfold-"), "session.jsonl");
	copyFileSync(h.sessionFile() as string, file);
	return { file, folds };
}

describe("pi-fold unfold, the built bin in a fresh process", () => {
	it("writes a session file Pi loads with no pi-fold placeholder and every original back", async () => {
		const { file, folds } = await recordedSession();
		const before = readFileSync(file, "utf8");
		const folded = contextTexts(file);
		expect(folded.filter(isPlaceholder)).toHaveLength(2);
		const out = join(tempDir("pi-fold-unfold-out-"), "whole.jsonl");
		const r = unfold(file, "--out", out);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(
			new RegExp(
				`^${file}: undid \\d+ pi-fold context edits \\(${folds.length} folds verified against the file's entries\\); wrote ${out} as a new session named "go \\(unfolded\\)"\\nThe unfolded session holds about [\\d,]+ tokens \\(the model's window is not known: --window N compares it\\)\\.\\n$`,
			),
		);
		expect(readFileSync(file, "utf8")).toBe(before);
		const whole = contextTexts(out);
		expect(whole.filter(isPlaceholder)).toEqual([]);
		for (const k of [...KEYS, "k"]) expect(whole).toContain(probeResultText(k));
		// Every entry line but pi-fold's edits is kept, then the new name; the entry Pi opens at follows the original's.
		const kept = readFileSync(out, "utf8").split("\n");
		const lines = before.split("\n");
		expect(kept.at(-3)).toBe(lines.at(-2));
		expect(lines.filter((l) => !l.includes('"type":"context_edit"')).length + 1).toBe(kept.length);
		const original = SessionManager.open(file, tempDir("pi-fold-unfold-open-"));
		const unfolded = SessionManager.open(out, tempDir("pi-fold-unfold-open-"));
		expect(unfolded.getLeafEntry()?.parentId).toBe(original.getLeafId());
		// A session of its own: a new id, a name saying it is unfolded, the original as its parent.
		expect(unfolded.getSessionId()).not.toBe(original.getSessionId());
		expect(unfolded.getSessionId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(unfolded.getSessionName()).toBe("go (unfolded)");
		expect(unfolded.getHeader()?.parentSession).toBe(file);
		// Pi lists both, each under its own id.
		const dir = join(file, "..");
		copyFileSync(out, join(dir, "whole.jsonl"));
		const listed = await SessionManager.listAll(dir);
		expect(listed).toHaveLength(2);
		expect(new Set(listed.map((s) => s.id)).size).toBe(listed.length);
		expect(listed.map((s) => s.name ?? "")).toContain("go (unfolded)");
	});

	it("says how large the unfolded session is against the model's window, at 80 columns", async () => {
		const { file } = await recordedSession();
		const out = join(tempDir("pi-fold-unfold-out-"), "whole.jsonl");
		const r = unfold(file, "--out", out, "--window", "1000");
		expect(r.code).toBe(0);
		const screen = drawn(r.stdout, [TMP_DIRS, [/about [\d,]+ tokens/, "about N tokens"]]);
		expect(screen.slice(-3)).toEqual([
			" The unfolded session holds about N tokens, far more than the model's",
			" 1,000-token window (--window): Pi will compact it on the first request.",
			"",
		]);
		// About: the characters of the context Pi builds from the file (each message's content as JSON) over four.
		const context = SessionManager.open(out, tempDir("pi-fold-unfold-open-")).buildSessionContext().messages;
		const chars = context
			.filter((m) => m.role !== "system")
			.reduce((n, m) => n + JSON.stringify((m as { content?: unknown }).content ?? "").length, 0);
		const tokens = Number(/about ([\d,]+) tokens/.exec(r.stdout)?.[1]?.replace(/,/g, ""));
		expect(Math.abs(tokens - chars / 4) / (chars / 4)).toBeLessThan(0.1);
		const roomy = unfold(file, "--out", out, "--force", "--window", "200000");
		expect(roomy.stdout).toMatch(/tokens, within the model's 200,000-token window \(--window\)\.\n$/);
	});

	it("writes beside the input by default, and replaces the input only with --in-place", async () => {
		const { file } = await recordedSession();
		const before = readFileSync(file, "utf8");
		const r = unfold(file);
		expect(r.code).toBe(0);
		const beside = file.replace(/\.jsonl$/, ".unfolded.jsonl");
		expect(r.stdout).toContain(`wrote ${beside} as a new session named "go (unfolded)"\n`);
		expect(readFileSync(file, "utf8")).toBe(before);
		expect(unfold(file, "--out", file)).toMatchObject({ code: 2, stderr: expect.stringContaining("--in-place") });
		expect(readFileSync(file, "utf8")).toBe(before);
		// A second run refuses to replace the first one's output, unless --force.
		const again = unfold(file);
		expect(again).toEqual({
			code: 1,
			stdout: "",
			stderr: `pi-fold: unfold: ${beside} already exists; pass --force to replace it, or --out to write elsewhere; nothing was written\n`,
		});
		const first = readFileSync(beside, "utf8");
		expect(unfold(file, "--force").code).toBe(0);
		expect(readFileSync(beside, "utf8")).not.toBe(first);
		// In place: the same session (its id), unfolded as the copy is.
		const id = SessionManager.open(file, tempDir("pi-fold-unfold-open-")).getSessionId();
		expect(unfold(file, "--in-place").code).toBe(0);
		expect(SessionManager.open(file, tempDir("pi-fold-unfold-open-")).getSessionId()).toBe(id);
		expect(contextTexts(file)).toEqual(contextTexts(beside));
		expect(unfold(file, "--in-place").stdout).toBe(
			`${file}: no pi-fold context edits to undo; the file is unchanged\n`,
		);
	});

	it("refuses a missing file, a file that is not a session, an output it cannot write and a fold whose entries changed", async () => {
		const dir = tempDir("pi-fold-unfold-bad-");
		const out = join(dir, "out.jsonl");
		const missing = unfold(join(dir, "nope.jsonl"), "--out", out);
		expect(missing).toEqual({
			code: 1,
			stdout: "",
			stderr: `pi-fold: unfold: ${join(dir, "nope.jsonl")}: no such file\n`,
		});
		const text = join(dir, "notes.jsonl");
		writeFileSync(text, '{"note":"hello"}\n');
		const notSession = unfold(text, "--out", out);
		expect(notSession.code).toBe(1);
		expect(notSession.stderr).toMatch(
			/^pi-fold: unfold: .*notes\.jsonl: line 1: not a Pi session file: .*; nothing was written\n$/,
		);

		const { file } = await recordedSession();
		const nowhere = unfold(file, "--out", join(dir, "no-such-folder", "out.jsonl"));
		expect(nowhere).toMatchObject({ code: 1, stdout: "" });
		expect(nowhere.stderr).toBe(
			`pi-fold: unfold: cannot write ${join(dir, "no-such-folder", "out.jsonl")} (ENOENT); ${file} is unchanged\n`,
		);
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"toolCallId":"call_a"') && l.includes('"role":"toolResult"'));
		lines[at] = (lines[at] as string).replace(probeResultText("a"), "probe a: forged");
		writeFileSync(file, lines.join("\n"));
		const tampered = unfold(file, "--out", out);
		expect(tampered.code).toBe(1);
		expect(tampered.stderr).toMatch(
			/^pi-fold: unfold: .*session\.jsonl: fold f[0-9a-f]{16}: its source cannot be verified: the file's entries give sha256 [0-9a-f]{64} as a manifest, [0-9a-f]{64} as one blob \(\d+ bytes\), the fold recorded sha256 [0-9a-f]{64} \(\d+ bytes\); an entry it holds was changed after it was folded; nothing was written\n$/,
		);
		expect(existsSync(out)).toBe(false);
	});
});
