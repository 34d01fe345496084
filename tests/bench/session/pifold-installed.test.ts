// pi-fold as installed: the default pi-fold arms set no `providerTotalWindow`, so pi-fold budgets against the model's
// own window (past the long-context tier, cost scheduling has to avoid the tier by itself); the one arm pinned to the
// spec's 272k transport descriptor says so in its name and is not a default arm.

import { beforeAll, describe, expect, it } from "vitest";
import { getArm } from "../../../bench/session/arms.ts";
import { DEFAULT_ARMS } from "../../../bench/session/demo-options.ts";
import { buildPlan, type Plan } from "../../../bench/session/plan.ts";
import { type ArmRun, runArm } from "../../../bench/session/session.ts";
import { type Corpus, loadCorpus } from "../../../bench/session/session-corpus.ts";

const WINDOW = 300_000;
let corpus: Corpus;
let plan: Plan;
const runs = new Map<string, ArmRun>();

beforeAll(async () => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "pifold-installed", stages: 4, stageChars: 8_000 });
	for (const name of [...DEFAULT_ARMS.filter((a) => a.startsWith("pifold-")), "pifold-agent-272k"])
		runs.set(name, await runArm(getArm(name), plan, corpus, { window: WINDOW, maxTokens: 16_384 }));
}, 120_000);

describe("pi-fold as installed", () => {
	it("the default pi-fold arms set no providerTotalWindow: pi-fold budgets against the model's window", () => {
		const defaults = DEFAULT_ARMS.filter((a) => a.startsWith("pifold-"));
		expect(defaults.length).toBeGreaterThan(0);
		for (const name of defaults) {
			const r = runs.get(name) as ArmRun;
			expect(r.status).toBe("complete");
			expect(r.metrics?.providerTotalWindow).toBeNull();
		}
	});

	it("the arm pinned to 272k is named for it and is not a default arm", () => {
		expect(runs.get("pifold-agent-272k")?.metrics?.providerTotalWindow).toBe(272_000);
		expect(DEFAULT_ARMS).not.toContain("pifold-agent-272k");
		expect(DEFAULT_ARMS.filter((a) => /\d+k$/.test(a))).toEqual([]);
	});
});
