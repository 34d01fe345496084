import { describe, expect, it } from "vitest";
import {
	COMMIT_TARGET_SHARE,
	fence,
	type MarkView,
	PRESSURE_BACKSTOP_OCCUPANCY,
	type Proposal,
	planCommit,
	QUIET_OCCUPANCY,
	type ScheduleInput,
	servingBudget,
} from "../../src/policy/index.ts";

const budget = servingBudget({ descriptorWindow: 110_000, outputReservation: 10_000 });
const tool = (start: number, freed: number): Proposal => ({ rung: "tools", start, end: start + 2, freedTokens: freed });
const mark = (id: string, start: number, freed: number, extra: Partial<MarkView> = {}): MarkView => ({
	id,
	start,
	end: start + 2,
	freedTokens: freed,
	actor: "agent",
	protectedBy: null,
	inFreshTail: false,
	...extra,
});

function input(over: Partial<ScheduleInput>): ScheduleInput {
	return {
		mode: "epoch",
		budget,
		occupancyTokens: 50_000,
		entryCount: 200,
		marks: [],
		decisionsPending: false,
		expandPending: false,
		tools: [],
		chapters: [],
		consolidations: [],
		paused: false,
		...over,
	};
}

describe("the serving budget", () => {
	it("is the total window less the output reservation, preferring providerTotalWindow", () => {
		expect(budget.budgetTokens).toBe(100_000);
		const supplied = servingBudget({
			descriptorWindow: 272_000,
			providerTotalWindow: 372_000,
			outputReservation: 32_000,
		});
		expect(supplied).toMatchObject({
			totalWindow: 372_000,
			totalWindowSource: "providerTotalWindow",
			descriptorWindow: 272_000,
			budgetTokens: 340_000,
		});
	});
});

describe("epoch scheduling", () => {
	it("holds every mark below the quiet threshold, however much is stale", () => {
		const plan = planCommit(
			input({
				occupancyTokens: QUIET_OCCUPANCY * 100_000 - 1,
				marks: [mark("a", 10, 30_000)],
				tools: [tool(0, 40_000)],
			}),
		);
		expect(plan.commit).toBe(false);
		expect(plan.waiting).toEqual(["a"]);
	});

	it("commits every standing mark in one rewrite once occupancy and stale mass agree", () => {
		const plan = planCommit(
			input({
				occupancyTokens: 81_000,
				marks: [mark("a", 10, 12_000), mark("b", 20, 9_000)],
				tools: [tool(40, 6_000)],
			}),
		);
		expect(plan.commit).toBe(true);
		expect(plan.apply).toEqual(["a", "b"]);
		expect(plan.ladder).toEqual([]);
	});

	it("counts standing marks as stale mass, so marks covering every stale batch commit at the threshold", () => {
		const plan = planCommit(
			input({ occupancyTokens: 81_000, marks: [mark("a", 10, 12_000), mark("b", 20, 9_000)], tools: [] }),
		);
		expect(plan.commit).toBe(true);
		expect(plan.apply).toEqual(["a", "b"]);
		expect(plan.reason).toMatch(/with stale tool mass/);
	});

	it("tops the epoch up with the stalest tool batches until a fifth of the budget is freed", () => {
		const plan = planCommit(
			input({
				occupancyTokens: 85_000,
				marks: [mark("a", 50, 5_000)],
				tools: [tool(0, 6_000), tool(4, 6_000), tool(8, 6_000), tool(12, 6_000)],
			}),
		);
		expect(plan.ladder.map((p) => p.start)).toEqual([0, 4, 8]);
		expect(plan.freedTokens).toBeGreaterThanOrEqual(COMMIT_TARGET_SHARE * budget.budgetTokens);
	});

	it("refuses a protected mark by name and applies the rest", () => {
		const plan = planCommit(
			input({
				occupancyTokens: 90_000,
				marks: [mark("a", 10, 20_000), mark("b", 20, 20_000, { protectedBy: "entry b-r0 is protected" })],
				tools: [tool(0, 6_000)],
			}),
		);
		expect(plan.apply).toEqual(["a"]);
		expect(plan.refused).toEqual([{ id: "b", reason: "entry b-r0 is protected" }]);
	});

	it("keeps a fresh-tail mark waiting until it ages out, then applies it", () => {
		const young = planCommit(
			input({
				occupancyTokens: 90_000,
				marks: [mark("a", 150, 20_000, { inFreshTail: true })],
				tools: [tool(0, 6_000)],
			}),
		);
		expect(young.waiting).toEqual(["a"]);
		expect(young.apply).toEqual([]);
		const aged = planCommit(
			input({ occupancyTokens: 90_000, marks: [mark("a", 150, 20_000)], tools: [tool(0, 6_000)] }),
		);
		expect(aged.apply).toEqual(["a"]);
	});

	it("applies a mark at the very end of the window at once, even when quiet", () => {
		const plan = planCommit(
			input({ occupancyTokens: 10_000, entryCount: 200, marks: [mark("a", 196, 3_000, { inFreshTail: true })] }),
		);
		expect(plan.commit).toBe(true);
		expect(plan.apply).toEqual(["a"]);
	});

	it("lets an expand open the epoch so the restore and the marks cost one rewrite", () => {
		const plan = planCommit(
			input({ occupancyTokens: 30_000, marks: [mark("a", 10, 3_000)], decisionsPending: true, expandPending: true }),
		);
		expect(plan.commit).toBe(true);
		expect(plan.apply).toEqual(["a"]);
		expect(plan.reason).toMatch(/expand opened the epoch/);
	});

	it("commits under the pressure backstop even without stale tool mass", () => {
		const plan = planCommit(
			input({ occupancyTokens: PRESSURE_BACKSTOP_OCCUPANCY * 100_000, marks: [mark("a", 10, 3_000)] }),
		);
		expect(plan.commit).toBe(true);
		expect(plan.reason).toMatch(/pressure backstop/);
	});

	it("between the quiet threshold and the backstop, commits only with stale mass of a twentieth of the budget", () => {
		// Budget 100,000: stale mass (here a standing mark's freed tokens) of 4,999 is under 5%.
		const at = (occupancyTokens: number, freed: number) =>
			planCommit(input({ occupancyTokens, marks: [mark("a", 10, freed)] })).commit;
		expect(at(85_000, 4_999)).toBe(false);
		expect(at(85_000, 5_000)).toBe(true);
		expect(at(91_999, 4_999)).toBe(false);
		// At 92% the backstop commits whatever the stale mass.
		expect(at(92_000, 4_999)).toBe(true);
		expect(at(92_000, 0)).toBe(true);
	});

	it("commits only explicit decisions while automatic folding is paused", () => {
		expect(planCommit(input({ occupancyTokens: 95_000, tools: [tool(0, 30_000)], paused: true })).commit).toBe(false);
	});
});

describe("immediate scheduling", () => {
	it("is quiet below the threshold when nothing was decided", () => {
		expect(planCommit(input({ mode: "immediate", occupancyTokens: 79_000, tools: [tool(0, 30_000)] })).commit).toBe(
			false,
		);
	});

	it("commits a decided fold at the next boundary", () => {
		expect(planCommit(input({ mode: "immediate", occupancyTokens: 10_000, decisionsPending: true })).commit).toBe(true);
	});

	it("lets the ladder free a fifth of the budget past the threshold", () => {
		const plan = planCommit(
			input({ mode: "immediate", occupancyTokens: 85_000, tools: [tool(0, 15_000), tool(4, 15_000), tool(8, 15_000)] }),
		);
		expect(plan.ladder.map((p) => p.start)).toEqual([0, 4]);
	});
});

describe("the fence", () => {
	const unit = (requestTokens: number, newestUnitTokens: number) => ({
		requestTokens,
		newestUnitTokens,
		newestUnitName: "one batch of 3 results of read",
		budget,
	});

	it("passes a request inside the budget, silently", () => {
		expect(fence(unit(99_000, 5_000))).toEqual({ abort: false, overBudget: false, message: null });
	});

	it("lets a request over the budget go on to native compaction, saying so", () => {
		const verdict = fence(unit(120_000, 5_000));
		expect(verdict.abort).toBe(false);
		expect(verdict.overBudget).toBe(true);
		expect(verdict.message).toMatch(/over the serving budget of 100,000 .* Pi's native compaction takes over/);
	});

	it("stops only a request whose newest unit alone is larger than the whole window, naming it", () => {
		const verdict = fence(unit(200_000, 150_000));
		expect(verdict.abort).toBe(true);
		expect(verdict.message).toMatch(
			/^one batch of 3 results of read: ~150,000 tokens by itself, larger than the whole 110,000-token window/,
		);
	});

	it("with the host's compaction off, refuses a request larger than the window before sending, naming its newest unit", () => {
		const off = servingBudget({ descriptorWindow: 110_000, outputReservation: 10_000, hostCompaction: false });
		const over = fence({ ...unit(115_000, 40_000), budget: off });
		expect(over.abort).toBe(true);
		expect(over.message).toMatch(
			/^the request of ~115,000 tokens is larger than the whole 110,000-token window after every lossless fold \(one batch of 3 results of read: ~40,000 tokens\), and Pi's compaction is off, so the provider would reject it; refused before sending/,
		);
		// Within the window it goes, said so; with the host's compaction on, the host recovers instead.
		expect(fence({ ...unit(105_000, 40_000), budget: off })).toMatchObject({ abort: false, overBudget: true });
		expect(fence({ ...unit(105_000, 40_000), budget: off }).message).toMatch(
			/it still fits the window, so it is sent$/,
		);
		const on = servingBudget({ descriptorWindow: 110_000, outputReservation: 10_000, hostCompaction: true });
		expect(fence({ ...unit(115_000, 40_000), budget: on }).abort).toBe(false);
	});
});
