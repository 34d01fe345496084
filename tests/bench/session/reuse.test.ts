// Realistic reuse: the plan asks later stages for facts from files read many stages earlier (and the four-step
// shape, every fourth stage, from twelve stages back); the scripted agent uses a fact it sees, recalls one its window
// names (through its arm's routes), and counts a blind miss otherwise; the harness tallies raw / recalled / blind
// per arm and judges the reuse targets from those counts.

import { beforeAll, describe, expect, it } from "vitest";
import { PLAN_SHAPES as OPTION_SHAPES } from "../../../bench/session/demo-options.ts";
import { definitionLine } from "../../../bench/session/facts.ts";
import { briefRoute, peekRoute } from "../../../bench/session/pifold-policy.ts";
import { buildPlan, type Plan, type PlanStage, type Question } from "../../../bench/session/plan.ts";
import { decide } from "../../../bench/session/policy.ts";
import { STAGE_TOOL, stageResult } from "../../../bench/session/protocol.ts";
import { createRunRecord } from "../../../bench/session/record.ts";
import type { ArmReport } from "../../../bench/session/report-schema.ts";
import { PLAN_SHAPES } from "../../../bench/session/reuse-plan.ts";
import { reuseTally, reuseTargets } from "../../../bench/session/reuse-report.ts";
import { searchRoute } from "../../../bench/session/search-route.ts";
import { type Corpus, type CorpusFile, countLines, loadCorpus } from "../../../bench/session/session-corpus.ts";
import type { Report } from "../../../bench/session/session-report.ts";
import { reuseSweepVerdicts } from "../../../bench/session/sweep-reuse.ts";
import { exchange, system, user } from "./messages.ts";

let corpus: Corpus;
let plan: Plan;
let bare: Plan;
let fourStep: Plan;

beforeAll(() => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "reuse", stages: 32, stageChars: 48_000 });
	bare = buildPlan(corpus, { seed: "reuse", stages: 32, stageChars: 48_000, reuse: false });
	fourStep = buildPlan(corpus, { seed: "reuse", stages: 32, stageChars: 48_000, shape: "recall-every-four" });
});

describe("the plan's reuse facts", () => {
	it("ask every second stage for a fact from a file read 8 to 24 stages earlier, true of the file", () => {
		const text = new Map(corpus.files.map((f) => [f.path, f.text]));
		const reused = plan.stages.flatMap((s) => s.questions.filter((q) => q.role === "reuse").map((q) => ({ s, q })));
		expect(reused.map(({ s }) => s.stage)).toEqual([10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]);
		expect(new Set(reused.map(({ q }) => q.kind))).toEqual(new Set(["line-count", "definition-line", "defining-file"]));
		for (const { s, q } of reused) {
			expect(s.stage - q.aboutStage).toBeGreaterThanOrEqual(8);
			expect(s.stage - q.aboutStage).toBeLessThanOrEqual(24);
			const file = q.kind === "defining-file" ? q.answer : (q.file as string);
			expect(plan.stages[q.aboutStage - 1]?.files).toContain(file);
			if (q.kind === "line-count") expect(q.answer).toBe(String(countLines(text.get(file) ?? "")));
			if (q.kind === "definition-line")
				expect(q.answer).toBe(String(definitionLine(text.get(file) ?? "", q.symbol as string)));
			if (q.kind === "defining-file") {
				expect(q.candidates).toBeUndefined();
				const owners = corpus.files.filter((f) => definitionLine(f.text, q.symbol as string) !== undefined);
				expect(owners.map((f) => f.path)).toEqual([file]);
			}
		}
	});

	it("leave the rest of the plan as it was without them", () => {
		expect(bare.stages.flatMap((s) => s.questions).some((q) => q.role === "reuse")).toBe(false);
		expect(plan.stages.map((s) => ({ ...s, questions: s.questions.filter((q) => q.role !== "reuse") }))).toEqual(
			bare.stages,
		);
		expect(plan.hash).not.toBe(bare.hash);
	});

	it("in the four-step shape: every fourth stage, a fact from twelve stages back, and no other question", () => {
		const questions = fourStep.stages.flatMap((s) => s.questions.map((q) => ({ stage: s.stage, q })));
		expect(questions.map(({ stage }) => stage)).toEqual([16, 20, 24, 28, 32]);
		for (const { stage, q } of questions) {
			expect(q.role).toBe("reuse");
			expect(q.aboutStage).toBe(stage - 12);
		}
		expect(fourStep.stages.some((s) => s.revisitOf !== undefined)).toBe(false);
		expect(fourStep.shape).toBe("recall-every-four");
	});

	it("do not tell the agent the stage or any candidate file", () => {
		const stage = plan.stages.find((s) => s.questions.some((q) => q.kind === "defining-file" && q.role === "reuse"));
		const text = stageResult(plan, stage as PlanStage, false);
		const line = text.split("\n").find((l) => l.includes("which file defines")) as string;
		expect(line).toMatch(/^- q\d \(defining-file\): From your earlier work: which file defines `[^`]+`\?$/);
	});
});

/** A stage 20 of `plan` whose one question is the reuse fact `q`, listing `listed`. */
function stage20(q: Omit<Question, "id" | "role">, listed: CorpusFile): PlanStage {
	return {
		stage: 20,
		key: "K20-AAAAAA",
		receipt: "R20-BBBBBBBB",
		files: [listed.path],
		questions: [{ ...q, id: "q1", role: "reuse" }],
		note: false,
	};
}

function windowFor(stage: PlanStage, listed: CorpusFile, before: ReturnType<typeof exchange> = []) {
	return [
		system(),
		user("task"),
		...before,
		...exchange(STAGE_TOOL, { stage: 20, key: stage.key }, stageResult(plan, stage, false)),
		...exchange("read", { path: listed.path }, listed.text),
	];
}

describe("the scripted agent facing a reused fact", () => {
	let old: CorpusFile;
	let listed: CorpusFile;
	let fact: Omit<Question, "id" | "role">;

	beforeAll(() => {
		[old, listed] = corpus.files.filter((f) => f.path.endsWith(".js")) as [CorpusFile, CorpusFile];
		fact = { kind: "line-count", aboutStage: 4, file: old.path, answer: String(old.lines) };
	});

	function run(messages: ReturnType<typeof windowFor>, routes = [briefRoute, searchRoute, peekRoute]) {
		const routesBy: string[] = [];
		const calls: number[] = [];
		const d = decide(messages, {
			routes,
			observer: { answered: (_s, _q, r) => routesBy.push(r), called: (_s, _q, n) => calls.push(n) },
		});
		return { d, routesBy, calls };
	}

	it("uses it when the window shows the file", () => {
		const s = stage20(fact, listed);
		const { d, routesBy } = run(windowFor(s, listed, exchange("read", { path: old.path }, old.text)));
		expect(d.calls.at(-1)?.args).toMatchObject({ answers: { q1: String(old.lines) } });
		expect(routesBy).toEqual(["window"]);
	});

	it("counts a blind miss, with no call, when nothing in the window names where the fact is", () => {
		const s = stage20(fact, listed);
		const { d, routesBy, calls } = run(windowFor(s, listed));
		expect(d.calls).toHaveLength(1);
		expect(d.calls[0]).toMatchObject({ name: STAGE_TOOL, args: { answers: { q1: "unknown" } } });
		expect(routesBy).toEqual(["blind"]);
		expect(calls).toEqual([]);
	});

	it("recalls it through the tool when a brief names the file, and rereads it when only a summary's list does", () => {
		const s = stage20(fact, listed);
		const placeholder = `[active-context fold f0123456789abcdef · 9 entries · 40,000 bytes · sha256 0123456789abcdef]\nStage 4 of 32, worked. Names: ${old.path}.\npeek: active_context {"action":"peek","id":"f0123456789abcdef"}`;
		const folded = run(windowFor(s, listed, [user(placeholder)]));
		expect(folded.d.calls).toEqual([
			{ name: "active_context", args: { action: "search", pattern: old.path, limit: 10 } },
		]);
		expect(folded.calls).toEqual([1]);
		// A name index that writes the file's directory once ("dir/{a.js,b.js}") names it too.
		const slash = old.path.lastIndexOf("/");
		const grouped = placeholder.replace(
			`Names: ${old.path}.`,
			`Files: ${old.path.slice(0, slash + 1)}{other.js,${old.path.slice(slash + 1)}}.`,
		);
		expect(grouped).not.toContain(old.path);
		expect(run(windowFor(s, listed, [user(grouped)])).calls).toEqual([1]);
		const elsewhere = grouped.replace(old.path.slice(0, slash + 1), "elsewhere/dist/");
		expect(run(windowFor(s, listed, [user(elsewhere)])).routesBy).toEqual(["blind"]);
		const summary = `<summary>\n## Progress\nStage 19 done.\n</summary>\n<read-files>\n${old.path}\n</read-files>`;
		const native = run(windowFor(s, listed, [user(summary)]), []);
		expect(native.d.calls).toEqual([{ name: "read", args: { path: old.path } }]);
		// The stage's own question names the file: that does not count as the window saying where it is.
		const own = stage20({ ...fact, file: listed.path, answer: String(listed.lines) }, old);
		const blind = run(windowFor(own, old), []);
		expect(blind.routesBy).toEqual(["blind"]);
	});
});

describe("the reuse tally and targets", () => {
	function arm(name: string, blind: number, tokens: number, calls = 1): ArmReport {
		const record = createRunRecord();
		const trace: Record<string, { route: string; calls: number }> = {};
		const routes = ["window", "search", "blind", "none", ...Array(blind).fill("blind")];
		routes.forEach((route, i) => {
			record.answers.push({
				stage: i + 10,
				id: "q1",
				kind: "line-count",
				role: "reuse",
				expected: "1",
				given: route === "window" || route === "search" ? "1" : "unknown",
				correct: route === "window" || route === "search",
			});
			trace[`${i + 10}/q1`] = { route, calls: route === "search" ? calls : 0 };
		});
		record.answers.push({
			stage: 3,
			id: "q1",
			kind: "receipt",
			role: "probe",
			expected: "x",
			given: "x",
			correct: true,
		});
		return {
			name,
			reuse: reuseTally(record, trace),
			stagesCompleted: 32,
			stageCount: 32,
			totals: { cost: 1, flatCost: 1, totalTokens: tokens },
			probes: { correct: 12, total: 12 },
		} as unknown as ArmReport;
	}

	it("sorts each reused fact by where it came from, probes left out", () => {
		const tally = arm("pifold-agent", 0, 1).reuse;
		expect(tally).toEqual({
			facts: 4,
			raw: 1,
			recalled: 1,
			blind: 1,
			lost: 1,
			blindByKind: { "line-count": 1 },
			correct: 2,
			recallCalls: 1,
			maxRecallCalls: 1,
		});
	});

	it("judges blind misses against the cheaper native's, and the four-step targets only in that shape", () => {
		const arms = [arm("native", 1, 100), arm("pifold-ladder", 1, 90), arm("pifold-agent", 2, 80)];
		const standard = reuseTargets(arms, { shape: "standard" });
		expect(standard.map((t) => t.met)).toEqual([false, false, true]);
		expect(standard[1]?.measured).toBe("pifold-ladder 1.00x (native); pifold-agent 1.00x (native)");
		expect(standard[0]?.measured).toBe("pifold-ladder 2 vs 2 (native); pifold-agent 3 vs 2 (native)");
		const shaped = reuseTargets([arm("native", 0, 100), arm("pifold-agent", 0, 100, 2)], {
			shape: "recall-every-four",
		});
		expect(shaped.map((t) => t.met)).toEqual([true, false, true, true, false]);
		expect(shaped[4]?.measured).toBe("pifold-agent at most 2 calls (2 over 1 recalls), 2 missed of 4");
	});

	it("judges the sweep at every window and plan length, a run in both lists once", () => {
		const priced = (a: ArmReport, cost: number, probes: number) =>
			({ ...a, totals: { ...a.totals, cost }, probes: { correct: probes, total: 12 } }) as ArmReport;
		const report = (window: number, stages: number, agentCost: number, agentBlind: number) =>
			({
				settings: { window },
				plan: { stageCount: stages },
				arms: [priced(arm("native", 1, 100), 10, 10), priced(arm("pifold-agent", agentBlind, 50), agentCost, 12)],
			}) as unknown as Report;
		const at200 = report(200_000, 64, 7, 1);
		const good = reuseSweepVerdicts([report(60_000, 64, 7.5, 0), at200], [report(200_000, 8, 6, 1), at200]);
		expect(good.map((v) => v.met)).toEqual([true, true, true]);
		expect(good[0]?.measured.split("; ")).toHaveLength(3);
		const bad = reuseSweepVerdicts([report(60_000, 64, 7.6, 2)], [report(200_000, 8, 6, 1)]);
		expect(bad.map((v) => v.met)).toEqual([false, true, false]);
		expect(bad[0]?.measured).toBe("pifold-agent at 60k 0.76x native");
		expect(bad[2]?.measured).toBe("pifold-agent at 60k 3 vs 2 of 6");
	});
});

describe("the plan shapes", () => {
	it("are the same in the demo's options and in the plan", () => {
		expect([...OPTION_SHAPES]).toEqual([...PLAN_SHAPES]);
	});
});
