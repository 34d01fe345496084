// Cost scheduling's plan (src/policy/cost-schedule.ts): a commit the budget forces says so; one that
// would free less than a request's growth does not happen (it would only put the next forced commit
// off by nothing); no commit that nothing forces pays back beyond its horizon (a property over random
// economies); a tool batch inside a span lands as the span's child and frees nothing twice.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	budgetFor,
	type CostScheduleInput,
	type Economy,
	type Proposal,
	paybackHorizon,
	planCostCommit,
	price,
} from "../../src/policy/index.ts";

const BUDGET = budgetFor({ contextWindow: 100_000, maxTokens: 4_000 }, undefined);
const PRICES = { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 };

function economy(over: Partial<Economy> = {}): Economy {
	return {
		windowTokens: 50_000,
		appendedTokens: 1_000,
		growthTokens: 2_000,
		calibration: 1,
		overhead: 0,
		prices: PRICES,
		prefixTokens: (start) => start * 100,
		...over,
	};
}

function input(over: Partial<CostScheduleInput> = {}): CostScheduleInput {
	return {
		budget: BUDGET,
		entryCount: 400,
		marks: [],
		decisionsPending: false,
		expandPending: false,
		tools: [],
		chapters: [],
		consolidations: [],
		spans: [],
		briefCost: () => 0,
		paused: false,
		cacheCold: false,
		economy: economy(),
		...over,
	};
}

const tool = (start: number, end: number, freedTokens: number): Proposal => ({
	rung: "tools",
	start,
	end,
	freedTokens,
});

describe("cost scheduling's plan", () => {
	it("names the budget when the budget forces the commit", () => {
		const near = economy({ windowTokens: BUDGET.budgetTokens * 0.95 });
		const plan = planCostCommit(input({ economy: near, tools: [tool(10, 20, 30_000)] }));
		expect(plan).toMatchObject({ commit: true, force: "budget" });
		expect(plan.reason).toContain("the next request would reach the budget");
	});

	it("holds when the budget forces a commit but nothing stale frees a request's growth", () => {
		const near = economy({ windowTokens: BUDGET.budgetTokens * 0.95, growthTokens: 3_000 });
		const plan = planCostCommit(input({ economy: near, tools: [tool(390, 395, 700)] }));
		expect(plan.commit).toBe(false);
		expect(plan.reason).toBe("the next request would reach the budget, but nothing stale frees a request's growth");
	});

	it("commits on its own only what pays back before the next forced commit", () => {
		const proposals = fc.array(
			fc.record({
				start: fc.integer({ min: 0, max: 380 }),
				len: fc.integer({ min: 1, max: 19 }),
				freed: fc.integer({ min: 1, max: 40_000 }),
			}),
			{ minLength: 1, maxLength: 6 },
		);
		fc.assert(
			fc.property(
				proposals,
				fc.integer({ min: 10_000, max: 80_000 }),
				fc.integer({ min: 100, max: 8_000 }),
				(ps, window, growth) => {
					const tools = ps.map((p) => tool(p.start, p.start + p.len, p.freed)).sort((a, b) => a.start - b.start);
					const i = input({ economy: economy({ windowTokens: window, growthTokens: growth }), tools });
					const plan = planCostCommit(i);
					if (!plan.commit || plan.force || !plan.prediction) return;
					const chosen = price(
						i.economy,
						[...tools].map((t) => ({ ...t, briefCost: 0 })),
						0,
					);
					expect(plan.prediction.breakEvenRequests).toBeLessThanOrEqual(
						paybackHorizon(i, { ...chosen, freed: plan.freedTokens }),
					);
				},
			),
			{ seed: 19, numRuns: 300 },
		);
	});

	it("lands a tool batch inside a span as the span's child, freeing its tokens once", () => {
		const near = economy({ windowTokens: BUDGET.budgetTokens * 0.95 });
		const span: Proposal = { rung: "span", start: 10, end: 60, freedTokens: 20_000 };
		const plan = planCostCommit(input({ economy: near, spans: [span], tools: [tool(20, 30, 5_000)] }));
		expect(plan.ladder.map((p) => p.rung).sort()).toEqual(["span", "tools"]);
		expect(plan.freedTokens).toBe(20_000);
	});
});
