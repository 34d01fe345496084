// The commit: the one path by which a boundary moves bytes (pipeline.ts carries out the decision
// core's plan, src/policy commit-plan.ts), and the edit plan and receipt it makes. The runtime
// (runtime.ts) builds the decision's input, runs the pipeline and chains the record.

export { type CommitBody, type EditPlan, planEdits } from "./edit-plan.ts";
export { type CommitDeps, type CommitOutcome, runCommit } from "./pipeline.ts";
export {
	arithmetic,
	FORCE_WORDS,
	freedFigure,
	RECEIPT_MAX_CHARS,
	receiptText,
	receiptType,
	whoseFolds,
} from "./receipt.ts";
