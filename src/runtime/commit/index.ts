// The commit: the one path by which a boundary moves bytes (pipeline.ts), its steps and the plans
// they make. The runtime (runtime.ts) builds the input, runs the pipeline and chains the record.

export {
	type BoundaryInput,
	boundaryInput,
	expandSinceCommit,
	type Occupancy,
	pendingEditFrom,
} from "./boundary-input.ts";
export { KEEP_RAW_MAX_BUDGET_SHARE } from "./cost-gate.ts";
export { briefContent, type CommitBody, type EditPlan, planEdits } from "./edit-plan.ts";
export { EXCERPT_CAP_BYTES, type Excerpts, excerptOversized } from "./excerpts.ts";
export { type GateResult, gate } from "./gate.ts";
export { COMMIT_REASON_MAX_CHARS, type CommitDeps, type CommitOutcome, runCommit } from "./pipeline.ts";
export { compactedMarks } from "./placement.ts";
export { arithmetic, FORCE_WORDS, RECEIPT_MAX_CHARS, receiptText, receiptType, whoseFolds } from "./receipt.ts";
export { managedTargets } from "./restores.ts";
