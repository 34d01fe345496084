// `pi-fold replay` as the person who ran the session reads it, at 80 columns (issue 22 item 10, and
// issue 20's open item): without --window and --max-output the replay takes the model's own from
// pi-ai's catalog entry for the model the file names and says so; a model the catalog does not know
// gets pi-fold's default reserve with the reason; no window at all is a usage error naming why. A
// session that already ran pi-fold is labelled so in the table and the chart; a context-tool call
// answered differently in the replay is said in plain words; pi-fold's line above its limit is
// explained. Session files come from real in-process Pi sessions (faux provider); one is rewritten
// to name a model pi-ai's catalog has.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Text } from "@earendil-works/pi-tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderLineChart } from "../../src/chart/index.ts";
import { lookUpModel } from "../../src/pi/model-catalog.ts";
import { parseSessionFile, renderReplay, replayChart, replaySession } from "../../src/replay/index.ts";
import { cli } from "../cli/run.ts";
import { expectReadmeExample } from "../helpers/readme-block.ts";
import { createHarness as createHostHarness, tempDir } from "../host/harness.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, say } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

const WINDOW = 16_000;
const PROVIDER = "anthropic";
const MODEL = "claude-sonnet-4-5";
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** The four lines from "Model:" on, as an 80-column terminal shows them. */
function limitLines(text: string): string[] {
	const lines = at80(text);
	const at = lines.findIndex((l) => l.startsWith("Model: "));
	return lines.slice(at, at + 4);
}

/** What a terminal 80 columns wide shows of `text`, line by line. */
function at80(text: string): string[] {
	return text
		.split("\n")
		.flatMap((line) => (line === "" ? [""] : new Text(line, 0, 0).render(80).map((l) => l.trimEnd())));
}

const replay = (...args: string[]) => {
	const r = cli(["replay", ...args]);
	return { status: r.code, stdout: r.stdout, stderr: r.stderr };
};

let faux: string;
let named: string;
let folded: string;

beforeAll(async () => {
	const native = await createHostHarness({ persistent: true, contextWindow: WINDOW });
	native.script([...["a", "b", "c", "d"].map((k) => callProbes(k)), say("read them")]);
	await native.run("read four");
	faux = native.sessionFile() as string;
	// The same session, its replies naming a model pi-ai's catalog has.
	named = join(tempDir("pi-fold-replay-limits-"), "named.jsonl");
	const rewritten = readFileSync(faux, "utf8")
		.split("\n")
		.map((line) => {
			if (!line.trim()) return line;
			const e = JSON.parse(line) as { type: string; message?: { role: string; provider?: string; model?: string } };
			if (e.message?.role === "assistant") Object.assign(e.message, { provider: PROVIDER, model: MODEL });
			return JSON.stringify(e);
		});
	writeFileSync(named, rewritten.join("\n"));
	const h = await createHarness({ persistent: true, contextWindow: WINDOW, options: { summarizer: "deterministic" } });
	h.script([
		...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler text" }),
		say("done"),
	]);
	await h.run("go");
	folded = h.sessionFile() as string;
});

describe("the window and the reply's reserve", () => {
	it("come from pi-ai's entry for the model the file names, and the report says so", () => {
		const entry = lookUpModel(PROVIDER, MODEL);
		if (!entry) throw new Error(`pi-ai has no ${PROVIDER}/${MODEL}`);
		const run = replay(named, "--no-chart");
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		// pi-ai sizes each reply to the room left, so a request keeps Pi's reserve, not the whole output cap.
		const reserve = Math.min(entry.maxTokens, 16_384);
		const limit = entry.contextWindow - reserve;
		expectReadmeExample(
			"replay-limits",
			run.stdout.split("\n").filter((l) => l.startsWith("Model: ") || l.startsWith("pi-fold's limit: ")),
		);
		expect(run.stdout).toContain(
			`Model: ${PROVIDER}/${MODEL} · window ${int(entry.contextWindow)} tokens (from pi-ai's entry for ${PROVIDER}/${MODEL})\n`,
		);
		expect(run.stdout).toContain(
			`pi-fold's limit: ${int(limit)} tokens, the window less the ${int(reserve)} tokens Pi keeps for a reply: pi-ai sizes each reply to the room the prompt leaves, so the model's ${int(entry.maxTokens)}-token output cap (from pi-ai's entry for ${PROVIDER}/${MODEL}) is not held back\n`,
		);
	});

	it("given on the command line, are the command line's", () => {
		const run = replay(named, "--window", "100000", "--max-output", "8000", "--no-chart");
		expect(run.stdout).toContain(`Model: ${PROVIDER}/${MODEL} · window 100,000 tokens (--window)\n`);
		expect(run.stdout).toContain(
			"pi-fold's limit: 92,000 tokens, the window less the 8,000 output tokens a reply can take (--max-output), under the room Pi keeps for a reply\n",
		);
	});

	it("for a model pi-ai does not know: the window is asked for, and the reserve is pi-fold's default, with why", () => {
		const none = replay(faux, "--no-chart");
		expect(none.status).toBe(2);
		expect(none.stderr).toBe(
			"pi-fold: replay: --window N is required: a session file does not record the model's context window, and pi-ai's model list has no entry for faux/faux-1\n",
		);
		const run = replay(faux, "--window", "30000", "--no-chart");
		expect(run.status).toBe(0);
		expect(limitLines(run.stdout)).toEqual([
			"Model: faux/faux-1 · window 30,000 tokens (--window)",
			"pi-fold's limit: 13,616 tokens, the window less the 16,384 tokens Pi keeps for a",
			"reply: pi-ai sizes each reply to the room the prompt leaves, so the model's",
			"output cap (16,384, pi-fold's default, since pi-ai's model list has no entry for",
		]);
	});
});

describe("a folder of sessions with no --window", () => {
	it("replays each file at its own model's window, and names a file whose model pi-ai does not know", () => {
		const dir = tempDir("pi-fold-replay-limits-");
		writeFileSync(join(dir, "a.jsonl"), readFileSync(named, "utf8"));
		writeFileSync(join(dir, "b.jsonl"), readFileSync(faux, "utf8"));
		const run = replay(dir);
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		expect(run.stdout).toContain("(each file's window from pi-ai's entry for its model;");
		const rows = run.stdout.split("\n").filter((l) => l.startsWith("| a.jsonl") || l.startsWith("| b.jsonl"));
		expect(rows[0]).toMatch(/^\| a\.jsonl \| \d+ \| \$/);
		expect(rows[1]).toBe("| b.jsonl | - | - | - | - | - | - | - | - | - | - | - | - | not replayed (below) |");
		expect(run.stdout).toContain(
			"\nNot replayed: 1 file (b.jsonl): --window N is required: a session file does not record the model's context window, and pi-ai's model list has no entry for faux/faux-1.\n",
		);
	});
});

describe("a session that already ran pi-fold", () => {
	it("is labelled so in the table and the chart, never as a session without pi-fold", () => {
		const chart = join(tempDir("pi-fold-replay-limits-"), "chart.svg");
		const run = replay(folded, "--window", String(WINDOW), "--max-output", "4096", "--chart", chart);
		expect(run.status).toBe(0);
		expect(run.stdout).toMatch(/^ {25}as it ran \(estimated\) {8}pi-fold afresh \(estimated\)$/m);
		expect(run.stdout).toContain(
			"This session already ran pi-fold: the first column is the session as it ran, with pi-fold;",
		);
		expect(run.stdout).not.toContain("in the session (recorded)");
		const svg = readFileSync(chart, "utf8");
		expect(svg).toContain("as it ran, with pi-fold (0 compactions)");
		expect(svg).toContain("pi-fold afresh (");
		expect(svg).not.toMatch(/>in the session \(/);
	});
});

describe("what a person would ask about the replay", () => {
	it("says in plain words what a context-tool call answered differently in the replay means", () => {
		const run = replay(folded, "--window", String(WINDOW), "--max-output", "4096", "--no-chart");
		const text = at80(run.stdout).join(" ");
		expect(text).not.toContain("answered differently than recorded");
		expect(text).toMatch(
			/Note: pi-fold answers the agent's context-tool call \S+ otherwise in the replay, which folds afresh: "Marked f[0-9a-f]{16} .*" where the session's pi-fold said "Folded f[0-9a-f]{16} /,
		);
		expect(text).toContain(
			"The replay keeps the agent's recorded replies, so its figures assume the agent would have gone on the same way",
		);
	});

	it("explains pi-fold's requests above its limit, in the output and on the chart", async () => {
		const file = parseSessionFile(readFileSync(faux, "utf8"));
		const roomy = await replaySession(file, { window: 100_000, maxOutput: 1000 });
		const peak = roomy.pifold.peak;
		// A window just above the peak, and a reserve that puts pi-fold's limit well under it.
		const tight = await replaySession(file, { window: Math.ceil(peak) + 100, maxOutput: Math.round(peak / 2) });
		const over = tight.pifold.requests.filter((q) => q.prompt > tight.budget);
		expect(over.length).toBeGreaterThan(0);
		const text = at80(renderReplay(tight, "s.jsonl")).join(" ");
		expect(text).toContain(
			`Above pi-fold's limit: ${over.length} of pi-fold's requests (replies ${over
				.slice(0, 5)
				.map((q) => q.reply)
				.join(
					", ",
				)}${over.length > 5 ? ", …" : ""}) are estimated above its ${int(tight.budget)}-token limit, within the window.`,
		);
		expect(text).toContain("pi-fold folds only at turn boundaries and never the newest turns");
		const svg = renderLineChart(replayChart(tight));
		expect(svg).toMatch(/<text class="note"[^>]*>Above pi-fold's limit, pi-fold waits for a turn boundary/);
		expect(renderLineChart(replayChart(roomy))).not.toContain('class="note"');
		expect(renderReplay(roomy, "s.jsonl")).not.toContain("Above pi-fold's limit");
	});
});
