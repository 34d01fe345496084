// The recall-every-four-steps shape, run small: real Pi sessions (native, and pi-fold's default with the curating
// agent) over a 20-stage plan whose stages 16 and 20 ask for a fact from a file read twelve stages earlier, in a
// window small enough that the file's read has left it. Every fact is sorted (raw, recalled, blind, lost), a recall's
// calls are billed requests, and the shape's two targets are printed from the measured numbers.

import { beforeAll, describe, expect, it } from "vitest";
import { getArm } from "../../../bench/session/arms.ts";
import { buildPlan, type Plan } from "../../../bench/session/plan.ts";
import { reuseTargets } from "../../../bench/session/reuse-report.ts";
import { runArm } from "../../../bench/session/session.ts";
import { loadCorpus } from "../../../bench/session/session-corpus.ts";
import { type ArmReport, armReport } from "../../../bench/session/session-report.ts";

let plan: Plan;
let arms: ArmReport[];

beforeAll(async () => {
	const corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "four-step", stages: 20, stageChars: 48_000, shape: "recall-every-four" });
	arms = [];
	for (const name of ["native", "pifold-agent"]) {
		const run = await runArm(getArm(name), plan, corpus, { window: 48_000, maxTokens: 16_384 });
		arms.push(armReport(run, plan, name));
	}
}, 120_000);

describe("the recall-every-four-steps shape, run small", () => {
	it("asks two facts, each from twelve stages back, and every arm completes", () => {
		const asked = plan.stages.flatMap((s) => s.questions.map((q) => [s.stage, q.aboutStage]));
		expect(asked).toEqual([
			[16, 4],
			[20, 8],
		]);
		for (const a of arms) expect(a.stagesCompleted).toBe(20);
	});

	it("sorts every fact into raw, recalled, blind or lost, and a fact used or recalled is right", () => {
		for (const a of arms) {
			const r = a.reuse;
			expect(r?.facts).toBe(2);
			if (!r) continue;
			expect(r.raw + r.recalled + r.blind + r.lost).toBe(2);
			expect(r.correct).toBeGreaterThanOrEqual(r.raw + r.recalled);
			expect(r.correct).toBeLessThanOrEqual(2 - r.blind);
		}
	});

	it("counts a recall's calls among the arm's billed requests", () => {
		const native = arms[0] as ArmReport;
		// Native recalls by rereading the file its summary lists: one read each.
		expect(native.reuse?.maxRecallCalls).toBeLessThanOrEqual(1);
		expect(native.rereads.count).toBeGreaterThanOrEqual(native.reuse?.recalled ?? 0);
		const pifold = arms[1] as ArmReport;
		const toolCalls = (pifold.pifold?.recall?.recoveryCalls ?? 0) + pifold.rereads.count;
		expect(pifold.reuse?.recallCalls ?? 0).toBeLessThanOrEqual(toolCalls);
	});

	it("prints the shape's two targets from the measured numbers", () => {
		const targets = reuseTargets(arms, plan);
		expect(targets.map((t) => t.target)).toEqual([
			"pi-fold's default: blind misses on reused facts <= the cheaper native's",
			"pi-fold's default costs at most 0.75x the cheaper native",
			"pi-fold's default answers at least the cheaper native's probes",
			"recall every four steps: pi-fold's default uses no more tokens than the cheaper native",
			"recall every four steps: pi-fold's default recalls each fact in one call, none missed",
		]);
		const [native, pifold] = arms as [ArmReport, ArmReport];
		const ratio = pifold.totals.totalTokens / native.totals.totalTokens;
		expect(targets[3]?.met).toBe(ratio <= 1);
		expect(targets[3]?.measured).toBe(`pifold-agent ${ratio.toFixed(2)}x (native)`);
		const r = pifold.reuse;
		expect(targets[4]?.met).toBe((r?.maxRecallCalls ?? 0) <= 1 && (r?.blind ?? 0) + (r?.lost ?? 0) === 0);
	});
});
