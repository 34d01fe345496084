// Real Pi sessions end to end on the faux provider: a short native run compacts and completes; an unmanaged run
// with a small window overflows, which is reported as a result; the ledger is exactly what the provider reported.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getArm } from "../../../bench/session/arms.ts";
import { ledgerTotals, requestCost } from "../../../bench/session/ledger.ts";
import { buildPlan, type Plan } from "../../../bench/session/plan.ts";
import { type ArmRun, runArm } from "../../../bench/session/session.ts";
import { type Corpus, loadCorpus } from "../../../bench/session/session-corpus.ts";
import { parseSessionFile, replaySession } from "../../../src/replay/index.ts";

let corpus: Corpus;
let plan: Plan;
let native: ArmRun;
let unmanaged: ArmRun;
/** Where the native run keeps its session file, as the demo keeps each arm's. */
const kept = mkdtempSync(join(tmpdir(), "pi-fold-bench-session-"));
afterAll(() => rmSync(kept, { recursive: true, force: true }));

beforeAll(async () => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "session-test", stages: 16, stageChars: 48_000 });
	native = await runArm(getArm("native"), plan, corpus, { window: 80_000, maxTokens: 16_384, keepSessionIn: kept });
	unmanaged = await runArm(getArm("unmanaged"), plan, corpus, { window: 80_000, maxTokens: 16_384 });
});

describe("a short native run", () => {
	it("compacts at least once and completes every stage", () => {
		expect(native.status).toBe("complete");
		expect(native.record.complete).toBe(true);
		expect(native.record.compactions.length).toBeGreaterThanOrEqual(1);
		expect(native.ledger.filter((r) => r.kind === "summary").length).toBe(native.record.compactions.length);
	});

	it("shows the summary to the agent after each compaction, and the prompt stops being a pure append there", () => {
		const rewrites = native.ledger.filter((r) => r.kind === "agent" && r.pureAppend === false);
		expect(rewrites.length).toBe(native.record.compactions.length);
		for (const r of rewrites) expect(r.context).toBeLessThan(40_000);
	});

	it("hands in every stage's answers and notes, rereading what compaction took away", () => {
		expect(native.record.answers.length).toBe(plan.stages.reduce((n, s) => n + s.questions.length, 0));
		expect(native.record.notes.every((n) => n.accepted)).toBe(true);
		expect(native.record.reads.some((r) => r.reread)).toBe(true);
		expect(native.routes.reread ?? 0).toBeGreaterThan(0);
	});
});

describe("an unmanaged run with a small window", () => {
	it("reports the overflow as a result, not a crash", () => {
		expect(unmanaged.status).toBe("overflow");
		expect(unmanaged.error).toMatch(/prompt is too long/);
		expect(unmanaged.record.complete).toBe(false);
		expect(unmanaged.record.opened).toBeGreaterThan(1);
		expect(unmanaged.record.opened).toBeLessThan(plan.stageCount);
		const rejected = unmanaged.ledger.filter((r) => r.rejected);
		expect(rejected).toHaveLength(1);
		expect(rejected[0]?.context).toBeGreaterThan(80_000);
		expect(unmanaged.record.compactions).toHaveLength(0);
	});

	it("sends exactly what the native arm sent until native's first compaction", () => {
		const firstSummary = native.ledger.findIndex((r) => r.kind === "summary");
		const same = (r: ArmRun["ledger"][number]) => [r.messages, r.chars, r.cacheRead, r.cacheWrite, r.output];
		expect(unmanaged.ledger.slice(0, firstSummary).map(same)).toEqual(native.ledger.slice(0, firstSummary).map(same));
	});
});

describe("the session file the demo keeps", () => {
	it("carries the benchmark's prices: each reply's cost is the ledger's, and a replay prices it unasked", async () => {
		const text = readFileSync(join(kept, "native.session.jsonl"), "utf8");
		let dollars = 0;
		for (const line of text.split("\n").slice(1).filter(Boolean)) {
			const e = JSON.parse(line) as { message?: { role?: string; usage?: { cost?: { total?: number } } } };
			if (e.message?.role === "assistant") dollars += e.message.usage?.cost?.total ?? 0;
		}
		const agent = native.ledger.filter((r) => r.kind === "agent" && !r.rejected);
		const billed = agent.reduce((n, r) => n + requestCost(r), 0);
		expect(billed).toBeGreaterThan(0);
		expect(dollars).toBeCloseTo(billed, 9);
		// Replayed without --prices: the file's own costs price it.
		const r = await replaySession(parseSessionFile(text), { window: 80_000, maxOutput: 16_384 });
		expect(r.pricesFrom).toBe("the file's own costs");
		expect(r.recordedCost).toMatchObject({ from: "the file" });
		expect(r.recordedCost.dollars).toBeCloseTo(billed, 9);
		expect(r.pifold.cost).toBeGreaterThan(0);
	});
});

describe("the ledger", () => {
	it("is reproducible: the same plan and arm give the same requests and usage", async () => {
		const again = await runArm(getArm("unmanaged"), plan, corpus, { window: 80_000, maxTokens: 16_384 });
		const strip = (run: ArmRun) => run.ledger.map(({ ms: _ms, ...r }) => r);
		expect(strip(again)).toEqual(strip(unmanaged));
	});

	it("records what the provider reported: every billed prompt is cache read plus fresh input", () => {
		for (const run of [native, unmanaged])
			for (const r of run.ledger.filter((x) => !x.rejected)) {
				expect(r.input + r.cacheRead + r.cacheWrite).toBe(r.context);
				if (r.kind === "summary") expect(r.cacheRead).toBe(0);
			}
	});

	it("adds up: totals are the sums of the per-request records", () => {
		for (const run of [native, unmanaged]) {
			const t = ledgerTotals(run.ledger);
			const billed = run.ledger.filter((r) => !r.rejected);
			const sum = (f: (r: (typeof billed)[number]) => number) => billed.reduce((n, r) => n + f(r), 0);
			expect(t.freshInput).toBe(sum((r) => r.input + r.cacheWrite));
			expect(t.cacheRead).toBe(sum((r) => r.cacheRead));
			expect(t.output).toBe(sum((r) => r.output));
			expect(t.totalTokens).toBe(t.freshInput + t.cacheRead + t.output);
			expect(t.billedCalls + t.rejectedCalls).toBe(run.ledger.length);
			expect(t.cacheShare).toBeCloseTo(t.cacheRead / (t.freshInput + t.cacheRead), 12);
			expect(t.peakContext).toBe(Math.max(...billed.map((r) => r.context)));
		}
	});
});
