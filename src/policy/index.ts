// Policy layer, the decision core: the serving budget, the snapshot a decision reads, the structural
// span rules, the ladder's rungs and their input, the schedulers (immediate, epoch, cost), the gate
// and the rescue, the excerpts, the placement of marks, and the one function that turns a boundary's
// snapshot, options and meter into the plan of what it records and commits (commit-plan.ts); and the
// provider-window fence, with their named constants. Pure; no Pi imports.
export {
	type BoundaryInput,
	boundaryInput,
	expandSinceCommit,
	type Occupancy,
	pendingEditFrom,
	pendingGrowthOf,
} from "./boundary-input.ts";
export {
	budgetFor,
	type ModelWindow,
	PI_RESERVE_TOKENS,
	type ReservationSource,
	type ServingBudget,
	servingBudget,
} from "./budget.ts";
export { type Calibration, type HostFacts, inEstimatedTokens, type MeterReading } from "./calibration.ts";
export {
	COMMIT_REASON_MAX_CHARS,
	COMPACTED_MARK_NOTE,
	type CommitDecision,
	type CommitPlan,
	type DecisionInput,
	decideCommit,
	type ScheduleReading,
} from "./commit-plan.ts";
export * from "./constants.ts";
export {
	briefRequestCost,
	type CommitPrediction,
	type Economy,
	price,
} from "./cost.ts";
export { DEFAULT_GROWTH_SHARE, KEEP_RAW_MAX_BUDGET_SHARE, keepRawFloor, keepRawUnit } from "./cost-gate.ts";
export { type CostPlan, type CostScheduleInput, paybackHorizon, planCostCommit } from "./cost-schedule.ts";
export { EXCERPT_CAP_BYTES, type Excerpts, excerptBytes, excerptPlan, NO_EXCERPTS } from "./excerpt-plan.ts";
export { type FenceVerdict, fence } from "./fence.ts";
export { foldSourceDigest, leafBlobs, manifestable, manifestDigestOf } from "./fold-digest.ts";
export { type GateResult, gate, rescued } from "./gate.ts";
export { expandedOver, expandedRefolds, keptRawUnits } from "./kept-raw.ts";
export {
	chapterProposals,
	consolidationProposals,
	consolidationRank,
	type LadderInput,
	type Proposal,
	toolProposals,
} from "./ladder.ts";
export {
	type LadderOptions,
	ladderInput,
	MESSAGE_OVERHEAD_TOKENS,
	markViews,
	PLACEHOLDER_TOKENS_ESTIMATE,
	peekedFolds,
	requestMessageTokens,
	shownTokens,
	spanOf,
	type WindowTokens,
	windowTokens,
} from "./ladder-input.ts";
export { type LadderFold, type LadderPlan, ladderPlan } from "./ladder-plan.ts";
export { briefContent, managedTargets } from "./managed.ts";
export {
	BATCH_EXCERPT_MIN_TOKENS,
	BATCH_EXCERPT_TOKENS_ESTIMATE,
	EXCERPT_MIN_TOKENS,
	EXCERPT_TOKENS_ESTIMATE,
	type OversizedResult,
	oversizedResults,
} from "./oversize.ts";
export {
	compactedMarks,
	noMarks,
	type PlacedMarks,
	type Placement,
	placedSnapshot,
	placeMarks,
} from "./placement.ts";
export {
	ASSUMED_PRICES_TEXT,
	type PriceTable,
	pricesAssumed,
	pricesFor,
	ratesAt,
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
export { type BranchView, buildSnapshot, type Snapshot } from "./snapshot.ts";
export { markProblem, resolveId, spanKind, spanProblem } from "./span-rules.ts";
export { spanProposals } from "./span-rung.ts";
