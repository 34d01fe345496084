// `pi-fold replay` on session files written by real in-process Pi sessions (faux provider): one
// where Pi's native compaction ran (no pi-fold), one where pi-fold ran and the agent folded. The
// recorded figures are the file's own usage, summed independently here; the replay folds where Pi
// compacted, keeps every folded entry recoverable, and its estimator reproduces the session as it
// ran. The CLI prints the side-by-side table and the chart, and names the line of bad input.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSessionFile, type ReplayResult, renderReplay, replaySession } from "../../src/replay/index.ts";
import { cli } from "../cli/run.ts";
import { createHarness as createHostHarness, tempDir } from "../host/harness.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, say } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

const WINDOW = 16_000;
const BIG = Array.from({ length: 10 }, (_, i) => `big${i + 1}`);

/** The file's usage summed line by line, with no help from the replay. */
function usageInFile(path: string) {
	const sum = { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
	for (const text of readFileSync(path, "utf8").split("\n").slice(1)) {
		if (!text.trim()) continue;
		const e = JSON.parse(text) as { usage?: typeof sum; message?: { role: string; usage?: typeof sum } };
		const u = e.message?.role === "assistant" ? e.message.usage : e.usage;
		if (!u) continue;
		sum.calls++;
		sum.input += u.input;
		sum.cacheRead += u.cacheRead;
		sum.cacheWrite += u.cacheWrite;
		sum.output += u.output;
	}
	return sum;
}

let compacted: string;
let folded: string;

beforeAll(async () => {
	// Native compaction: no pi-fold; a manual compaction after six large tool results, then four more.
	const native = await createHostHarness({
		persistent: true,
		contextWindow: WINDOW,
		compaction: { enabled: false, keepRecentTokens: 500 },
	});
	native.script([...BIG.slice(0, 6).map((k) => callProbes(k)), say("read six")]);
	await native.run("read the first six");
	native.script([say("Summary: six probes were read; each returned filler text.")]);
	await native.session.compact();
	native.script([...BIG.slice(6).map((k) => callProbes(k)), say("read the rest")]);
	await native.run("read the rest");
	compacted = native.sessionFile() as string;
	// pi-fold in the session: the agent folds two batches by hand.
	const h = await createHarness({ persistent: true, contextWindow: WINDOW, options: { summarizer: "deterministic" } });
	h.script([
		...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler text" }),
		say("done"),
	]);
	await h.run("go");
	folded = h.sessionFile() as string;
});

describe("replaying a session where Pi's native compaction ran", () => {
	let result: ReplayResult;
	beforeAll(async () => {
		// The probe tool reads, as `read` does: pi-fold may fold its completed batches.
		result = await replaySession(parseSessionFile(readFileSync(compacted, "utf8")), {
			window: WINDOW,
			maxOutput: 4096,
			options: { readOnlyTools: new Set(["probe"]) },
		});
	});

	it("reports the session's own figures: the sum of the file's usage, its compaction and its peak", () => {
		const inFile = usageInFile(compacted);
		const n = result.native;
		expect(n.total).toMatchObject({ ...inFile, cost: 0 });
		expect(n.requests.calls + n.summaries.calls).toBe(inFile.calls);
		expect(n.summaries.calls).toBe(1);
		expect(n.compactions).toBe(1);
		expect(n.summarizedAway).toBeGreaterThan(0);
		expect(n.peak).toBe(Math.max(...n.prompts.map((p) => p.prompt)));
	});

	it("folds instead of compacting, keeps every folded entry recoverable, and sends the same replies", () => {
		const f = result.pifold;
		expect(f.stopped).toBeNull();
		expect(f.requests).toHaveLength(result.native.requests.calls);
		expect(f.folds).toBeGreaterThan(0);
		expect(f.foldedEntries).toBeGreaterThan(0);
		expect(f.output).toBe(result.native.requests.output);
		expect(f.peak).toBeLessThanOrEqual(result.budget);
	});

	it("keeps the cache warm as the session did when its replies carry timestamp 0 (the benchmark's model writes 0)", async () => {
		const zeroed = readFileSync(compacted, "utf8")
			.split("\n")
			.map((t) => {
				if (!t.includes('"role":"assistant"')) return t;
				const e = JSON.parse(t) as { message: { timestamp: number } };
				e.message.timestamp = 0;
				return JSON.stringify(e);
			})
			.join("\n");
		const again = await replaySession(parseSessionFile(zeroed), {
			window: WINDOW,
			maxOutput: 4096,
			options: { readOnlyTools: new Set(["probe"]) },
		});
		const warm = (r: ReplayResult) => r.pifold.requests.filter((q) => q.cacheRead > 0).length;
		// Seconds apart, as recorded: every request but the first and those right after a commit reads from cache.
		expect(warm(result)).toBeGreaterThanOrEqual(result.pifold.requests.length - 1 - result.pifold.commits);
		expect(warm(again)).toBe(warm(result));
		const read = (r: ReplayResult) => r.pifold.requests.reduce((sum, q) => sum + q.cacheRead, 0);
		expect(read(again)).toBeGreaterThan(0.95 * read(result));
	});

	it("estimates the session as it ran close to what it recorded (the faux provider counts as the simulator does)", () => {
		expect(result.calibration.slope).toBeGreaterThan(0.9);
		expect(result.calibration.slope).toBeLessThan(1.1);
		const recorded = result.native.prompts.reduce((a, p) => a + p.prompt, 0);
		expect(result.check.prompt).toBeCloseTo(recorded, -1);
	});
});

describe("replaying a session where pi-fold ran", () => {
	it("reads pi-fold's own records and receipts as the session's, and replays the agent's fold", async () => {
		const file = parseSessionFile(readFileSync(folded, "utf8"));
		// Replayed with the scheduling the session ran with, so the agent's fold lands as it did.
		const result = await replaySession(file, { window: WINDOW, maxOutput: 4096, scheduling: "immediate" });
		expect(result.native.total).toMatchObject({ ...usageInFile(folded), cost: 0 });
		expect(result.native.compactions).toBe(0);
		expect(result.pifold.agentFolds).toBe(1);
		expect(result.pifold.requests).toHaveLength(result.native.requests.calls);
		expect(result.ranPiFold).toBe(true);
	});
});

describe("what the replay prices and reports", () => {
	const replayed = (options: Partial<Parameters<typeof replaySession>[1]> = {}) =>
		replaySession(parseSessionFile(readFileSync(compacted, "utf8")), {
			window: WINDOW,
			maxOutput: 4096,
			prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			...options,
		});

	it("fits the constant every request carries that the file does not (system prompt, tools), and folds in the session's tokens", async () => {
		// A provider that bills 3,000 tokens more on every request than the file's messages hold.
		const withHead = readFileSync(compacted, "utf8")
			.split("\n")
			.map((t) => {
				if (!t.includes('"usage"')) return t;
				const e = JSON.parse(t) as { message?: { role?: string; usage?: Record<string, number> } };
				const u = e.message?.usage;
				if (u && e.message?.role === "assistant") u.cacheRead = (u.cacheRead ?? 0) + 3_000;
				return JSON.stringify(e);
			})
			.join("\n");
		const r = await replaySession(parseSessionFile(withHead), { window: WINDOW, maxOutput: 4096 });
		expect(r.calibration.intercept).toBeGreaterThan(2_700);
		expect(r.calibration.intercept).toBeLessThan(3_300);
		expect(r.calibration.slope).toBeGreaterThan(0.95);
		expect(r.calibration.slope).toBeLessThan(1.05);
		const recorded = r.native.prompts.reduce((a, p) => a + p.prompt, 0);
		expect(Math.abs(r.check.prompt - recorded) / recorded).toBeLessThan(0.01);
		// The policy learns the constant from the bills, as a live session would: at a 6,000-token window
		// no request it sends is over the window in the session's tokens (told the simulator's bills, 7 were).
		const small = await replaySession(parseSessionFile(withHead), { window: 6_000, maxOutput: 500 });
		expect(small.pifold.stopped).toBeNull();
		expect(small.pifold.overflows).toEqual([]);
		expect(small.pifold.peak).toBeLessThanOrEqual(6_000);
	});

	it("prices the briefs the session model would write, uncached, and none when briefs are built in", async () => {
		// Nothing here is read-only: only spans and chapters fold, and those get written briefs.
		const written = await replayed();
		expect(written.ranPiFold).toBe(false);
		const b = written.pifold.briefs;
		expect(b.calls).toBeGreaterThan(0);
		expect(b.input).toBeGreaterThan(b.calls * 100);
		expect(b.cost).toBeCloseTo((b.input * 3 + b.output * 15) / 1_000_000, 9);
		const builtIn = await replayed({ options: { summarizer: "deterministic" } });
		expect(builtIn.pifold.briefs).toMatchObject({ calls: 0, cost: 0 });
	});

	it("reports each request it estimates over the window as an overflow, never silently", async () => {
		// A window barely larger than one probe result: the newest batch fits alone, so the fence lets
		// the request go, but the request carrying it does not fit.
		const tight = await replaySession(parseSessionFile(readFileSync(compacted, "utf8")), {
			window: 1_500,
			maxOutput: 100,
		});
		expect(tight.pifold.stopped).toBeNull();
		const over = tight.pifold.requests.filter((r) => r.prompt > 1_500).map((r) => r.reply);
		expect(over.length).toBeGreaterThan(0);
		expect(tight.pifold.overflows).toEqual(over);
		const text = renderReplay(tight, "s.jsonl");
		expect(text).toContain(
			`Over the window: ${over.length} of pi-fold's requests (replies ${over.slice(0, 5).join(", ")}`,
		);
		const roomy = await replayed();
		expect(roomy.pifold.overflows).toEqual([]);
		expect(renderReplay(roomy, "s.jsonl")).not.toContain("Over the window");
	});
});

describe("pi-fold replay (the command)", () => {
	// The built bin, as a user runs it (npm test builds first).
	const replay = (...args: string[]) => {
		const r = cli(["replay", ...args]);
		return { status: r.code, stdout: r.stdout, stderr: r.stderr };
	};

	it("prints the session beside pi-fold and writes the chart", () => {
		const chart = join(tempDir("pi-fold-replay-"), "chart.svg");
		const settings = join(dirname(chart), "pi-fold.json");
		writeFileSync(settings, '{"readOnlyTools": ["probe"]}');
		const run = replay(
			compacted,
			"--window",
			String(WINDOW),
			"--max-output",
			"4096",
			"--prices",
			"3,15,0.3,3.75",
			"--no-chart",
		);
		expect(run.stderr).toBe("");
		const flags = ["--window", String(WINDOW), "--max-output", "4096", "--settings", settings, "--chart", chart];
		const folding = replay(compacted, ...flags, "--prices", "3,15,0.3,3.75");
		expect(folding.stdout).not.toBe(run.stdout);
		expect(folding.status).toBe(0);
		expect(folding.stdout).toMatch(/^pi-fold replay of .*\.jsonl \(session [\w-]+, file version 3\)$/m);
		expect(folding.stdout).toMatch(/^ {25}as it ran \(estimated\) {8}with pi-fold \(estimated\)$/m);
		expect(folding.stdout).toMatch(
			/^Compactions \/ folds {6}1 compaction {17}\d+ folds? \(0 the agent's\) in \d+ commits?$/m,
		);
		expect(folding.stdout).toMatch(/^Cost of the requests {5}\$\d+\.\d\d +\$\d+\.\d\d$/m);
		expect(folding.stdout).toContain("the file records no cost, so its tokens are priced too");
		expect(readFileSync(chart, "utf8")).toMatch(/^<svg /);
		expect(folding.stdout).toContain(`Chart: ${chart}\n`);
	});

	it("writes the chart beside the session file by default and prints its full path", () => {
		const dir = tempDir("pi-fold-replay-");
		const copy = join(dir, "my-session.jsonl");
		writeFileSync(copy, readFileSync(compacted, "utf8"));
		const run = replay(copy, "--window", String(WINDOW));
		expect(run.status).toBe(0);
		const beside = join(dir, "my-session.replay.svg");
		expect(readFileSync(beside, "utf8")).toMatch(/^<svg /);
		expect(run.stdout).toContain(`Chart: ${beside}\n`);
	});

	it("replays every session file of a folder, one row each and the total, naming a file it cannot read", () => {
		const dir = tempDir("pi-fold-replay-");
		writeFileSync(join(dir, "a.jsonl"), readFileSync(compacted, "utf8"));
		writeFileSync(join(dir, "b.jsonl"), readFileSync(folded, "utf8"));
		writeFileSync(join(dir, "c.jsonl"), '{"version": 1}\n');
		writeFileSync(join(dir, "notes.txt"), "not a session");
		const run = replay(dir, "--window", String(WINDOW), "--prices", "3,15,0.3,3.75");
		expect(run.status).toBe(0);
		expect(run.stderr).toBe("");
		const rows = run.stdout.split("\n").filter((l) => l.startsWith("| "));
		expect(rows.map((r) => r.split(" | ")[0])).toEqual([
			"| session file",
			"| ---",
			"| a.jsonl",
			"| b.jsonl",
			"| c.jsonl",
			"| total (2 of 3 replayed)",
		]);
		expect(rows[3]).toContain("ran pi-fold");
		expect(rows[4]).toMatch(/not replayed \(below\) \|$/);
		expect(run.stdout).toContain("\nNot replayed: 1 file (c.jsonl): line 1: not a Pi session file");
		// The total is the sum of the two rows, as each would replay alone (as it ran, with pi-fold, recorded).
		const dollars = (row: string | undefined, column: number) => Number(row?.split(" | ")[column]?.replace("$", ""));
		for (const column of [2, 3, 5])
			expect(dollars(rows[5], column)).toBeCloseTo(dollars(rows[2], column) + dollars(rows[3], column), 1);
		expect(replay(tempDir("pi-fold-replay-"), "--window", "16000").stderr).toMatch(
			/no session files \(\*\.jsonl\) in this folder/,
		);
	});

	it("names the line of bad input, and asks for the window", () => {
		const dir = tempDir("pi-fold-replay-");
		const truncated = join(dir, "cut.jsonl");
		const text = readFileSync(compacted, "utf8");
		writeFileSync(truncated, text.slice(0, text.length - 40));
		const lines = text.split("\n").filter(Boolean).length;
		const cut = replay(truncated, "--window", "16000", "--no-chart");
		expect(cut.status).toBe(1);
		expect(cut.stderr).toBe(
			`pi-fold: replay: ${truncated}: line ${lines}: truncated: the last line is not complete JSON (was the file cut off while Pi wrote it?)\n`,
		);
		const notSession = join(dir, "report.json");
		writeFileSync(notSession, '{"version": 1, "arms": []}\n');
		expect(replay(notSession, "--window", "16000", "--no-chart").stderr).toMatch(
			/^pi-fold: replay: .*report\.json: line 1: not a Pi session file/,
		);
		const noWindow = replay(compacted);
		expect(noWindow.status).toBe(2);
		expect(noWindow.stderr).toMatch(/^pi-fold: replay: --window N is required/);
	});
});
