// Policy layer: the serving budget, the snapshot a decision reads, the structural span rules, the
// ladder's rungs and their input, the commit scheduler (immediate and epoch) and the provider-window
// fence, with their named constants. Pure; no Pi imports.
export {
	type BudgetInput,
	budgetFor,
	FALLBACK_CONTEXT_WINDOW,
	type ModelWindow,
	occupancy,
	type ServingBudget,
	servingBudget,
} from "./budget.ts";
export * from "./constants.ts";
export {
	briefRequestCost,
	type Candidate,
	type CommitPrediction,
	commitOptions,
	type Economy,
	type Priced,
	price,
	worthCommitting,
} from "./cost.ts";
export { type CostPlan, type CostScheduleInput, paybackHorizon, planCostCommit } from "./cost-schedule.ts";
export { type FenceVerdict, fence } from "./fence.ts";
export { expandedOver, expandedRefolds, keptRawRange, keptRawUnits } from "./kept-raw.ts";
export {
	chapterProposals,
	consolidationProposals,
	consolidationRank,
	type LadderInput,
	type Proposal,
	type Rung,
	toolProposals,
} from "./ladder.ts";
export {
	type LadderOptions,
	ladderInput,
	MESSAGE_OVERHEAD_TOKENS,
	markViews,
	PLACEHOLDER_TOKENS_ESTIMATE,
	peekedFolds,
	readingBatch,
	requestMessageTokens,
	shownTokens,
	spanOf,
	toolFoldableFor,
	type WindowTokens,
	windowTokens,
} from "./ladder-input.ts";
export {
	EXCERPT_MIN_TOKENS,
	EXCERPT_TOKENS_ESTIMATE,
	type OversizedResult,
	type OversizePlan,
	oversizedResults,
} from "./oversize.ts";
export {
	ASSUMED_PRICES_TEXT,
	DEFAULT_PRICES,
	firstTierAt,
	type PriceTable,
	pricesAssumed,
	pricesFor,
	type Rates,
	type RequestTokens,
	ratesAt,
	requestCost,
	writeRate,
} from "./prices.ts";
export { rescueProposals } from "./rescue.ts";
export {
	type CommitForce,
	type FoldScheduling,
	type MarkView,
	planCommit,
	type ScheduleInput,
	type SchedulePlan,
} from "./schedule.ts";
export { type BranchView, buildSnapshot, protectedByRecency, type Snapshot } from "./snapshot.ts";
export { EDITABLE_ROLES, markProblem, resolveId, spanKind, spanProblem } from "./span-rules.ts";
export { spanProposals } from "./span-rung.ts";
