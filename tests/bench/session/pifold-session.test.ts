// The pi-fold arms end to end on a short plan, in real Pi sessions on the faux provider: what a user of the benchmark
// would notice. Every arm completes without a request over the window and without compacting; every rewrite the
// provider saw is a pi-fold commit (none unattributed); the agent's folds keep the window small and its briefs answer
// receipt probes; with briefs that leave receipts out, a receipt that only ever existed in a tool result comes back
// through `search`; a revisited file whose folded read is current is not read again; epoch scheduling lands the same
// marks in fewer rewrites; the ladder alone keeps the budget, and its agent recalls what the window lost through
// the tool (search, peek) where the blind one rereads from disk.

import { beforeAll, describe, expect, it } from "vitest";
import { type ArmDefinition, getArm, listArms, registerArm } from "../../../bench/session/arms.ts";
import { pifoldServingBudget } from "../../../bench/session/demo-options.ts";
import { ledgerTotals } from "../../../bench/session/ledger.ts";
import { handInTerse } from "../../../bench/session/pifold-policy.ts";
import { buildPlan, type Plan } from "../../../bench/session/plan.ts";
import { type ArmRun, runArm } from "../../../bench/session/session.ts";
import { type Corpus, loadCorpus } from "../../../bench/session/session-corpus.ts";

const WINDOW = 160_000;
const MAX_TOKENS = 16_384;
let corpus: Corpus;
let plan: Plan;
const runs = new Map<string, ArmRun>();
const ALL = ["pifold-immediate", "pifold-epoch", "pifold-ladder", "test-pifold-terse", "test-pifold-rereader"];

function run(name: string): ArmRun {
	const r = runs.get(name);
	if (!r) throw new Error(`arm ${name} did not run`);
	return r;
}

beforeAll(async () => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "pifold-session", stages: 16, stageChars: 48_000 });
	if (!listArms().some((a) => a.name === "test-pifold-terse")) {
		const base = getArm("pifold-immediate");
		const terse: ArmDefinition = {
			...base,
			name: "test-pifold-terse",
			description: "pifold-immediate whose briefs leave receipts out",
			beforeSubmit: handInTerse,
		};
		registerArm(terse);
		const rereader: ArmDefinition = {
			...base,
			name: "test-pifold-rereader",
			description: "pifold-immediate whose agent rereads revisited files from disk instead of peeking their folds",
			augmentView: undefined,
			recoverFiles: undefined,
		};
		registerArm(rereader);
	}
	for (const name of [...ALL, "pifold-ladder-blind"])
		runs.set(name, await runArm(getArm(name), plan, corpus, { window: WINDOW, maxTokens: MAX_TOKENS }));
}, 240_000);

describe("every pi-fold arm on a 16-stage plan", () => {
	it.each(ALL)("%s completes every stage, never sends a request over the window and never compacts", (name) => {
		const r = run(name);
		expect(r.status).toBe("complete");
		expect(r.ledger.some((q) => q.rejected)).toBe(false);
		expect(ledgerTotals(r.ledger).peakContext).toBeLessThanOrEqual(WINDOW);
		expect(r.record.compactions).toHaveLength(0);
	});

	it.each(ALL)("%s: every rewrite the provider saw is one pi-fold commit, none unattributed", (name) => {
		const r = run(name);
		expect(r.metrics?.unattributedRewrites).toBe(0);
		expect(r.metrics?.commits).toBeGreaterThan(0);
		// A commit at the run's last boundary (at most one) has no later request to show its rewrite.
		const unseen = r.metrics?.unseenCommits ?? 0;
		expect(unseen).toBeLessThanOrEqual(1);
		expect(ledgerTotals(r.ledger).projectionRewrites).toBe((r.metrics?.commits ?? 0) - unseen);
		expect(r.foldEvents).toBe(r.metrics?.commits);
	});

	it.each(ALL)("%s answers every probe correctly", (name) => {
		const r = run(name);
		const probes = r.record.answers.filter((a) => a.role === "probe");
		expect(probes.length).toBeGreaterThan(0);
		expect(probes.filter((a) => !a.correct)).toEqual([]);
	});
});

describe("the agent's own folds", () => {
	it("fold each handed-in stage with a brief that names its receipt, so receipt probes are read off the window", () => {
		const r = run("pifold-immediate");
		expect(r.metrics?.foldCalls).toBeGreaterThan(plan.stageCount / 2);
		// It is not told pi-fold's fresh tail: a refusal tells it, and while one is in view it waits, so refusals stay few.
		expect(r.metrics?.refusedCalls).toBeGreaterThan(0);
		expect(r.metrics?.refusedCalls).toBeLessThanOrEqual((r.metrics?.foldCalls ?? 0) / 2);
		expect(r.metrics?.agentFolds).toBeGreaterThan(0);
		const receipts = r.record.answers.filter((a) => a.kind === "receipt");
		expect(receipts.length).toBeGreaterThan(0);
		expect(receipts.every((a) => a.correct)).toBe(true);
		expect(r.routes.none ?? 0).toBe(0);
	});

	it("keep the window well inside pi-fold's budget", () => {
		const peak = ledgerTotals(run("pifold-immediate").ledger).peakContext;
		expect(peak).toBeLessThan(0.8 * pifoldServingBudget(WINDOW, MAX_TOKENS));
	});

	it("recover a receipt that existed only in a tool result by searching the folds when no brief names it", () => {
		const r = run("test-pifold-terse");
		const receipts = r.record.answers.filter((a) => a.kind === "receipt" && a.role === "probe");
		expect(receipts.length).toBeGreaterThan(0);
		expect(receipts.every((a) => a.correct)).toBe(true);
		// Its briefs name files and line counts, never a receipt: the receipts came from the search.
		expect(r.routes.search ?? 0).toBeGreaterThanOrEqual(receipts.length);
		expect(r.metrics?.recall?.searches).toBeGreaterThan(0);
		expect(r.metrics?.recall?.searchBytes).toBeGreaterThan(0);
	});

	it("does not read a revisited file again when a search shows the fold holds a current read of it", () => {
		const agent = run("pifold-immediate");
		const rereader = run("test-pifold-rereader");
		const rereads = (x: ArmRun) => x.record.reads.filter((f) => f.reread).length;
		expect(rereads(agent)).toBe(0);
		expect(rereads(rereader)).toBeGreaterThan(0);
		expect(agent.record.reads.length).toBeLessThan(rereader.record.reads.length);
		expect(agent.metrics?.recall?.searches).toBeGreaterThan(0);
	});

	it("recover facts from folds with few bytes and few calls each", () => {
		const r = run("pifold-immediate");
		const facts = ["brief", "search", "peek", "expand"].reduce((n, s) => n + (r.routes[s] ?? 0), 0);
		expect(facts).toBeGreaterThan(0);
		expect((r.metrics?.recall?.sourceBytes ?? 0) / facts).toBeLessThanOrEqual(4_096);
		expect((r.metrics?.recall?.recoveryCalls ?? 0) / facts).toBeLessThanOrEqual(2);
	});
});

describe("scheduling", () => {
	it("epoch lands the agent's marks together: fewer rewrites and less fresh input than immediate", () => {
		const epoch = run("pifold-epoch");
		const immediate = run("pifold-immediate");
		expect(epoch.metrics?.commits).toBeLessThan(immediate.metrics?.commits ?? 0);
		expect(epoch.metrics?.agentMarks).toBeGreaterThan(0);
		expect(ledgerTotals(epoch.ledger).freshInput).toBeLessThan(ledgerTotals(immediate.ledger).freshInput);
	});

	it("the ladder alone (the agent never folds) folds stale reads and keeps the window inside the budget", () => {
		for (const name of ["pifold-ladder", "pifold-ladder-blind"]) {
			const r = run(name);
			expect(r.metrics?.foldCalls).toBe(0);
			expect(r.metrics?.agentMarks ?? 0).toBe(0);
			expect(r.metrics?.ladderFolds).toBeGreaterThan(0);
			expect(ledgerTotals(r.ledger).peakContext).toBeLessThanOrEqual(pifoldServingBudget(WINDOW, MAX_TOKENS));
		}
	});

	it("under the ladder, a fact the window no longer shows is recalled through the tool, not reread from disk", () => {
		const recalling = run("pifold-ladder");
		const blind = run("pifold-ladder-blind");
		const recalled = (r: ArmRun) => (r.routes.search ?? 0) + (r.routes.peek ?? 0) + (r.routes.expand ?? 0);
		expect(blind.metrics?.peeks).toBe(0);
		expect(blind.metrics?.recall?.searches ?? 0).toBe(0);
		expect(recalled(blind)).toBe(0);
		expect(recalled(recalling)).toBeGreaterThan(0);
		expect(recalling.record.reads.length).toBeLessThan(blind.record.reads.length);
	});
});
