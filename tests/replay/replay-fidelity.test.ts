// `pi-fold replay`'s working-set fidelity on a session built for it (fidelity-session.ts), whose
// answers are worked out by hand below: which facts each closing reply used from earlier tool
// results, where pi-fold's window had them (raw, named only in a brief, missing), how the user's
// asks fared at every later request, which requests would need a recall and what they cost; the
// session as it ran (no compaction) holds everything raw. And `--requests`: one JSON line per request
// pi-fold's window sent, the messages as the replay sent them.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ratesAt } from "../../src/policy/index.ts";
import {
	parseSessionFile,
	type ReplayResult,
	type ReplayWindow,
	renderReplay,
	replaySession,
} from "../../src/replay/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { cli } from "../cli/run.ts";
import {
	ASKS,
	FIDELITY_MAX_OUTPUT,
	FIDELITY_PRICES,
	FIDELITY_WINDOW,
	fidelityMessages,
	sessionText,
} from "./fidelity-session.ts";

const options = {
	window: FIDELITY_WINDOW,
	maxOutput: FIDELITY_MAX_OUTPUT,
	prices: FIDELITY_PRICES,
	scheduling: "immediate" as const,
};

const dirs: string[] = [];
const tempDir = () => {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-fidelity-"));
	dirs.push(dir);
	return dir;
};
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let result: ReplayResult;
const windows: ReplayWindow[] = [];

beforeAll(async () => {
	const file = parseSessionFile(sessionText(fidelityMessages()));
	result = await replaySession(file, { ...options, onWindow: (w) => windows.push(w) });
});

/** The text of what request `n` (1-based) sent. */
const sent = (n: number) => JSON.stringify(windows[n - 1]?.messages);

describe("working-set fidelity on a session built for it", () => {
	it("folds where the hand count below assumes it does", () => {
		expect(result.pifold.requests).toHaveLength(10);
		// Request 5 (reply 5, reading the helpers file): the first read (message 2) is folded; its brief
		// names its path, its name index every other name of its result, the helpers file it points to
		// among them, but not fooRegistryAlpha, which reply 2 (message 3) shows raw; reply 2 quoted that
		// name, so the line holding it stays verbatim with the line after it, and the filler leaves.
		expect(sent(5)).toContain(
			"In use, verbatim (line numbers within each result):\\nsrc/registry.ts:\\n  1: export const fooRegistryAlpha = 1;\\n  2: export const barRegistryBeta = 2;",
		);
		expect(sent(5)).toContain("read: src/registry.ts (702 lines)");
		expect(sent(5)).toContain("Names: barRegistryBeta, registry_helpers, src/registry_helpers.ts.");
		// Request 6: the first chapter (the read and reply 2, message 3) is one fold beside the first ask,
		// its brief quoting reply 2 on fooRegistryAlpha (so its index does not name it again); the loader
		// and cache reads are a fold naming loadRegistryGamma. A name the brief states is not listed again.
		expect(sent(6)).not.toContain("export function loadRegistryGamma");
		expect(sent(6)).toContain(
			"read: src/loader.ts (702 lines), src/cache.ts (701 lines). 2 tool results, 47,711 chars Holds 1 folds",
		);
		expect(sent(6)).toContain("Names: loadRegistryGamma, cacheSizeLimit, ./registry, 40960.");
		expect(sent(6)).toContain('Ended: \\"The registry exports `fooRegistryAlpha` among others.\\"');
		expect(sent(6)).toContain("Names: barRegistryBeta.");
		// Request 10: the second ask's chapter is one fold quoting the ask verbatim; reply 6 (message 11)
		// is raw; the first test read is folded and its name index names epsilonKey_check (no reply used
		// it yet), but not the test's quoted title.
		expect(sent(10)).toContain(`User (71 chars): \\"${ASKS[1]}\\"`);
		expect(sent(10)).toContain("Done: `loadRegistryGamma` reads fooRegistryAlpha");
		expect(sent(10)).toContain(
			"read: tests/registry.test.ts (702 lines). 1 tool result, 23,858 chars\\nNames: epsilonKey_check.",
		);
		expect(sent(10)).not.toContain("epsilon keys stay sorted");
		expect(sent(10)).toContain(ASKS[2]);
	});

	it("counts the facts the replies used from earlier tool results, and where pi-fold's window had them", () => {
		// Reply 5 (message 9) reads the helpers file, whose path only the first read (message 2, 4 requests
		// back) had named: the path and its identifier registry_helpers, both named only in that read's
		// fold's index. Reply 6 (message 11): loadRegistryGamma, barRegistryBeta and fooRegistryAlpha
		// named only in folds (reply 2 is folded with its chapter); 40960 is left out (message 8 is only 2
		// requests back). Reply 10 (message 19): fooRegistryAlpha, loadRegistryGamma and 40960 raw (reply
		// 6 shows them), the path and registry_helpers named only in indexes, epsilonKey_check named only
		// in the first test read's index, and the quoted test title missing (message 14 is folded, and a
		// phrase is no name an index holds): 12 facts, 3 raw, 8 named, 1 missing.
		const f = result.fidelity;
		expect(f.pifold).toMatchObject({ facts: 12, raw: 3, named: 8, missing: 1, recalls: [10] });
		expect(f.asRan).toMatchObject({ facts: 12, raw: 12, named: 0, missing: 0, recalls: [] });
	});

	it("classifies a fact as named when only a brief holds it", () => {
		// The helpers path at request 10: in no original message pi-fold sent, but in a brief.
		const last = windows[9]?.messages ?? [];
		const originals = last.filter((m) => !JSON.stringify(m.content).includes("[active-context"));
		expect(JSON.stringify(originals)).not.toContain("src/registry_helpers.ts");
		expect(sent(10)).toContain("src/registry_helpers.ts");
		expect(result.fidelity.pifold.named).toBe(8);
	});

	it("looks up each of the user's asks at every later request: raw, paraphrased in a brief, or gone", () => {
		// Replies 1-2 have one ask before them, 3-6 two, 7-10 three: 2 + 8 + 12 = 22 lookups. The first and
		// third asks stay raw; at requests 8 to 10 the second is only quoted in the brief of the fold the
		// budget forced (counted as paraphrased: pi-fold's own text), none gone.
		const users = { messages: 3, requests: 10, lookups: 22 };
		expect(result.fidelity.pifold.users).toEqual({ ...users, raw: 19, paraphrased: 3, gone: 0 });
		expect(result.fidelity.asRan.users).toEqual({ ...users, raw: 22, paraphrased: 0, gone: 0 });
	});

	it("prices a recall per request lacking a fact, and puts the total with them against the session as it ran", () => {
		const r = result.fidelity.recalls;
		const expected = [10].reduce((n, reply) => {
			const prompt = result.pifold.requests.find((q) => q.reply === reply)?.prompt ?? 0;
			const rates = ratesAt(FIDELITY_PRICES, prompt);
			return n + (2 * prompt * rates.cacheRead + 3_000 * rates.cacheWrite + 120 * rates.output) / 1e6;
		}, 0);
		expect(r.requests).toBe(1);
		expect(r.cost).toBeCloseTo(expected, 10);
		const total = result.pifold.cost + result.pifold.briefs.cost;
		expect(r.total).toBeCloseTo(total + expected, 10);
		expect(r.asRan).toBeCloseTo(result.check.cost + result.recordedCost.summaries, 10);
		expect(r.ratio).toBeCloseTo((total + expected) / r.asRan, 10);
		expect(r.ratioWithout).toBeCloseTo(total / r.asRan, 10);
	});

	it("says it in plain words under the table, with the recalls as a line of the total", () => {
		const text = renderReplay(result, "s.jsonl");
		expect(text).toContain(
			"Working set: of 12 facts the agent later used from earlier tool results, pi-fold's window held 25.0% raw, 66.7% only named in a brief or note, 8.3% missing (as it ran: 100.0 / 0.0 / 0.0).",
		);
		expect(text).toContain(
			"User messages: the 3 the user wrote (40+ characters), each looked up at every later request (22 lookups): pi-fold's window held 86% raw, 14% only in a brief or summary (paraphrased), 0% gone (as it ran: 100 / 0 / 0).",
		);
		expect(text).toMatch(/^Recalls: 1 of pi-fold's 10 requests \(10\.0%\) lacked a fact/m);
		expect(text).toMatch(/^ {2}recalls \(estimated\) +0 requests lacked a fact +1 request lacked a fact: \$/m);
		expect(text).toMatch(/^Total with recalls +\$\d+\.\d\d \(estimated\) +\$\d+\.\d\d \(\d+\.\d\dx\)$/m);
		expect(text).toMatch(/^What the working set counts: .* the session as it ran is that noise floor\.$/m);
	});
});

describe("pi-fold replay --requests", () => {
	it("writes one JSON line per request: its index, reply, estimated tokens and the messages the replay sent", () => {
		const dir = tempDir();
		const session = join(dir, "fidelity.jsonl");
		const out = join(dir, "requests.jsonl");
		writeFileSync(session, sessionText(fidelityMessages()));
		const run = cli([
			"replay",
			"--window",
			String(FIDELITY_WINDOW),
			"--max-output",
			String(FIDELITY_MAX_OUTPUT),
			"--prices",
			"1,2,0.1,1",
			"--scheduling",
			"immediate",
			"--no-chart",
			"--requests",
			out,
			session,
		]);
		expect(run.code, run.stderr).toBe(0);
		const lines = readFileSync(out, "utf8").trimEnd().split("\n");
		expect(lines).toHaveLength(result.pifold.requests.length);
		const parsed = lines.map((l) => JSON.parse(l) as ReplayWindow);
		parsed.forEach((w, i) => {
			expect(w.request).toBe(i + 1);
			expect(w.reply).toBe(result.pifold.requests[i]?.reply);
			expect(w.tokens).toBe(Math.round(result.pifold.requests[i]?.prompt ?? 0));
			expect(w.messages).toEqual(JSON.parse(JSON.stringify(windows[i]?.messages)));
		});
		// What the model would have seen: the first request is the first ask alone, the last carries the briefs.
		expect(parsed[0]?.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: ASKS[0] }], timestamp: 1000 },
		]);
		expect(JSON.stringify(parsed.at(-1)?.messages)).toContain("[active-context fold");
	});

	it("refuses a folder", () => {
		const run = cli(["replay", "--window", "16000", "--requests", join(tempDir(), "r.jsonl"), tempDir()]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("--requests takes one session file, not a folder");
	});
});

describe("a reread sent as pi-fold's search", () => {
	it("is not an original: the fact only the reread's recorded text held is not raw in pi-fold's window", async () => {
		const body = (i: number) => `// file ${i} exports uniqueFact${i}x\n${"export const answer = 42;\n".repeat(400)}`;
		const read = (id: string, path: string): TranscriptMessage =>
			({
				role: "assistant",
				content: [{ type: "toolCall", id, name: "read", arguments: { path } }],
			}) as TranscriptMessage;
		const got = (id: string, text: string): TranscriptMessage => ({
			role: "toolResult",
			toolCallId: id,
			toolName: "read",
			content: [{ type: "text", text }],
			isError: false,
		});
		const messages: TranscriptMessage[] = [{ role: "user", content: [{ type: "text", text: "read" }] }];
		for (let i = 0; i < 16; i++) messages.push(read(`c${i}`, `src/f${i}.ts`), got(`c${i}`, body(i)));
		messages.push(read("again", "src/f0.ts"), got("again", body(0)));
		for (let i = 0; i < 2; i++) messages.push(read(`s${i}`, `small${i}.txt`), got(`s${i}`, "ok"));
		messages.push({
			role: "assistant",
			content: [{ type: "text", text: "It exports uniqueFact0x." }],
		} as TranscriptMessage);
		const r = await replaySession(parseSessionFile(sessionText(messages)), {
			window: 40_000,
			maxOutput: 4_096,
			prices: FIDELITY_PRICES,
		});
		expect(r.pifold.heldRereads).toMatchObject({ reads: 1, searched: 1 });
		expect(r.fidelity.asRan).toMatchObject({ facts: 1, raw: 1 });
		expect(r.fidelity.pifold).toMatchObject({ facts: 1, raw: 0 });
	});
});
