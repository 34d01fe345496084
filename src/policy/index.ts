// Policy layer: the serving budget, the ladder's rungs, the commit scheduler (immediate and epoch)
// and the provider-window fence, with their named constants. Pure; no Pi imports.
export { type BudgetInput, occupancy, type ServingBudget, servingBudget } from "./budget.ts";
export * from "./constants.ts";
export { type FenceVerdict, fence } from "./fence.ts";
export {
	chapterProposals,
	consolidationProposals,
	type LadderInput,
	type Proposal,
	type Rung,
	toolProposals,
} from "./ladder.ts";
export { type CommitPlan, type MarkView, planCommit, type ScheduleInput } from "./schedule.ts";
