// What `pi-fold replay` says first and how it ends. Its bottom line and its table compare the session
// as it ran with pi-fold, both estimated the same way; the file's recorded bill is the estimator's
// check beside them, and moves nothing else (a file whose bill is three times higher, same tokens,
// gives the same bottom line). A folder none of whose files can be replayed (no window known for
// their model) fails with one line naming the reason once with the count of files, and a non-zero exit.
// Text drawn at 80 columns, as a terminal shows it.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSessionFile, renderReplay, replaySession } from "../../src/replay/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { cli } from "../cli/run.ts";
import { cleanupTempDirs, tempDir } from "../pi/harness.ts";
import { drawn } from "../pi/screen.ts";

afterAll(cleanupTempDirs);

const PRICES = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 };
const BODY = "export const answer = 42; // the answer, kept for the tests\n".repeat(200);

/**
 * A session file of a model the catalog does not know: one user message, then `reads` files read one
 * by one, and a closing reply. Each reply is billed as the prompt so far (the newest message written,
 * the rest read from cache) at PRICES times `billed` (a provider whose bill is off by that much).
 */
function sessionText(reads: number, billed: number): string {
	const m: TranscriptMessage[] = [{ role: "user", content: "read every file" } as TranscriptMessage];
	for (let i = 0; i < reads; i++)
		m.push(
			{
				role: "assistant",
				content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `src/f${i}.ts` } }],
			} as TranscriptMessage,
			{
				role: "toolResult",
				toolCallId: `c${i}`,
				toolName: "read",
				content: [{ type: "text", text: `// ${i}\n${BODY}` }],
			},
		);
	m.push({ role: "assistant", content: [{ type: "text", text: "done" }] } as TranscriptMessage);
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" }),
	];
	let parent: string | null = null;
	let cached = 0;
	let chars = 0;
	m.forEach((message, i) => {
		const id = `e${i + 1}`;
		let extra = {};
		if (message.role === "assistant") {
			const prompt = Math.ceil(chars / 4);
			const u = { input: 0, output: 10, cacheRead: cached, cacheWrite: prompt - cached };
			const dollars =
				(u.cacheRead * PRICES.cacheRead + u.cacheWrite * PRICES.cacheWrite + u.output * PRICES.output) / 1e6;
			extra = {
				provider: "nowhere",
				model: "unknown-model",
				usage: {
					...u,
					totalTokens: prompt + 10,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: dollars * billed },
				},
			};
			cached = prompt;
		}
		lines.push(
			JSON.stringify({
				type: "message",
				id,
				parentId: parent,
				timestamp: new Date(1e12 + i * 1000).toISOString(),
				message: { ...message, timestamp: 1e12 + i * 1000, ...extra },
			}),
		);
		chars += JSON.stringify(message).length;
		parent = id;
	});
	return `${lines.join("\n")}\n`;
}

const replayOf = (text: string) =>
	replaySession(parseSessionFile(text), { window: 20_000, maxOutput: 2_000, prices: PRICES });

describe("the replay's bottom line", () => {
	it("compares the session as it ran with pi-fold, both estimated the same way, at 80 columns", async () => {
		const r = await replayOf(sessionText(24, 1));
		const asRan = r.check.cost + r.recordedCost.summaries;
		const pifold = r.pifold.cost + r.pifold.briefs.cost;
		const usd = (n: number) => `$${n.toFixed(2)}`;
		const screen = drawn(renderReplay(r, "s.jsonl"));
		const flat = screen.join("\n").replace(/\n /g, " ");
		expect(flat).toContain(
			`Bottom line: with pi-fold this session would have cost ${usd(pifold)}, against ${usd(asRan)} as it ran, both estimated the same way: ${(pifold / asRan).toFixed(2)}x, ${Math.round(Math.abs(1 - pifold / asRan) * 100)}% ${pifold < asRan ? "less" : "more"}.`,
		);
		expect(screen).toContain(` ${"".padEnd(24)} ${"as it ran (estimated)".padEnd(28)} with pi-fold (estimated)`);
		expect(screen).toContain(` Total cost               ${usd(asRan).padEnd(28)} ${usd(pifold)}`);
		expect(flat).toMatch(
			new RegExp(
				`Estimator check: the session as it ran, estimated the same way as pi-fold: .* requests \\${usd(r.check.cost)} \\(recorded, its bill: \\${usd(r.recordedCost.dollars)}`,
			),
		);
	});

	it("moves only the estimator's check when the recorded bill differs: the verdict is the estimates'", async () => {
		const fair = await replayOf(sessionText(24, 1));
		const dear = await replayOf(sessionText(24, 3));
		expect(dear.recordedCost.dollars).toBeCloseTo(3 * fair.recordedCost.dollars, 9);
		const line = (r: typeof fair) =>
			renderReplay(r, "s.jsonl")
				.split("\n")
				.find((l) => l.startsWith("Bottom line:"));
		expect(line(dear)).toBe(line(fair));
		const check = (r: typeof fair) =>
			renderReplay(r, "s.jsonl")
				.split("\n")
				.find((l) => l.startsWith("Estimator check:"));
		expect(check(dear)).not.toBe(check(fair));
	});
});

describe("pi-fold replay DIR when nothing can be replayed", () => {
	it("fails with one line naming the missing window once, with the count of files", () => {
		const dir = tempDir("pi-fold-replay-none-");
		for (const name of ["a", "b", "c"]) writeFileSync(join(dir, `${name}.jsonl`), sessionText(2, 1));
		const run = cli(["replay", dir]);
		expect(run.code).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr.split("\n")).toHaveLength(2);
		expect(run.stderr).toMatch(
			new RegExp(
				`^pi-fold: replay: ${dir}: nothing replayed, 3 session files and none could be: 3 files \\(a\\.jsonl, b\\.jsonl, c\\.jsonl\\): --window N is required: .*unknown-model\\n$`,
			),
		);
		// Given the window, they replay.
		const given = cli(["replay", dir, "--window", "20000"]);
		expect(given.code).toBe(0);
		expect(given.stdout).toContain("| total (3 of 3 replayed) |");
	});
});
