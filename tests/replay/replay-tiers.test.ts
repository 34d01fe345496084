// `pi-fold replay` at a price table with a long-context tier (`--prices` with `--tier`, or a table whose
// `tiers` pi-ai's `Model.cost` gives): a request whose prompt is above the tier's threshold is priced at the
// tier's rates, the recorded session's and pi-fold's alike, and one below it at the base rates; the command
// says which rates it used and what the estimate leaves out, and refuses a tier it cannot read, naming the shape it takes.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSessionFile, replaySession } from "../../src/replay/index.ts";
import { cli } from "../cli/run.ts";
import { cleanupTempDirs, tempDir } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const user = (id: string, parentId: string | null, chars: number) =>
	line({ type: "message", id, parentId, message: { role: "user", content: "x".repeat(chars), timestamp: 1 } });
const reply = (id: string, parentId: string, cacheWrite: number) =>
	line({
		type: "message",
		id,
		parentId,
		message: {
			role: "assistant",
			content: [{ type: "text", text: "ok" }],
			provider: "p",
			model: "m",
			timestamp: 2,
			usage: { input: 0, output: 100, cacheRead: 0, cacheWrite, totalTokens: cacheWrite + 100 },
		},
	});

/** One request of `tokens` prompt tokens (the faux count: four characters a token), no cost recorded. */
function sessionOf(tokens: number): string {
	return `${[line({ type: "session", version: 3, id: "s1", cwd: "/w" }), user("a", null, tokens * 4), reply("b", "a", tokens)].join("\n")}\n`;
}

const BASE = { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 };
const TIERED = { ...BASE, tiers: [{ input: 10, output: 45, cacheRead: 1, cacheWrite: 10, inputTokensAbove: 272_000 }] };

describe("replay at a price table with a long-context tier", () => {
	it("prices a request above the threshold at the tier's rates, recorded and replayed", async () => {
		const r = await replaySession(parseSessionFile(sessionOf(300_000)), { window: 1_000_000, prices: TIERED });
		// 300,000 fresh tokens at $10 and 100 output tokens at $45 a million.
		expect(r.recordedCost.dollars).toBeCloseTo(3.0045, 4);
		const only = r.pifold.requests[0];
		expect(only?.prompt).toBeGreaterThan(272_000);
		expect(only?.cost).toBeCloseTo(((only?.fresh ?? 0) * 10 + (only?.cacheRead ?? 0) * 1 + 100 * 45) / 1_000_000, 6);
		const flat = await replaySession(parseSessionFile(sessionOf(300_000)), { window: 1_000_000, prices: BASE });
		expect(flat.recordedCost.dollars).toBeCloseTo(1.503, 4);
	});

	it("prices a request below the threshold at the base rates", async () => {
		const r = await replaySession(parseSessionFile(sessionOf(100_000)), { window: 1_000_000, prices: TIERED });
		expect(r.recordedCost.dollars).toBeCloseTo(0.503, 4);
	});

	it("takes --tier over --prices, says the rates it used, and names the shape of a tier it cannot read", () => {
		const dir = tempDir("pi-fold-replay-tier-");
		const file = join(dir, "s.jsonl");
		writeFileSync(file, sessionOf(300_000));
		const args = ["replay", file, "--window", "1000000", "--no-chart", "--prices", "5,30,0.5,5"];
		const ok = cli([...args, "--tier", "272000:10,45,1,10"]);
		expect(ok.code).toBe(0);
		expect(ok.stdout).toContain(
			"input $5, output $30, cache read $0.5, cache write $5; a request above 272,000 tokens: input $10, output $45, cache read $1, cache write $10",
		);
		expect(ok.stdout).toMatch(/Cost of the requests\s+\$3\.00/);
		// What the estimate cannot see is said with it (the benchmark's 1M window: the agent's rereads, 12% under).
		expect(ok.stdout).toContain(
			"Left out: the replay sends the session's own replies, so where the session did not read a file again it cannot see an agent going back",
		);
		const bad = cli([...args, "--tier", "10,45,1,10"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain("--tier needs ABOVE:I,O,CR,CW");
		const alone = cli(["replay", file, "--window", "1000000", "--no-chart", "--tier", "272000:10,45,1,10"]);
		expect(alone.code).toBe(2);
		expect(alone.stderr).toContain("--tier needs --prices");
	});
});
