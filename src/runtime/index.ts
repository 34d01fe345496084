// Runtime layer: the per-session folding controller with no host of its own (it imports nothing
// from Pi): decisions, the boundary commit (commit/), the fence's measurement, compaction decisions,
// the context tool's actions, status, telemetry, receipts, excerpts of oversized results and the
// suggestion registry. A host adapter (src/pi) or the simulator (src/simulate) supplies a `Host`.

export { leafBlobs, manifestDigestOf } from "../policy/index.ts";
export type { ActionInput, ActionResult, ToolArgs } from "./actions/index.ts";
export {
	callTool,
	PEEK_DEFAULT_BYTES,
	PEEK_MAX_BYTES,
	parseToolArgs,
	runAction,
	shapeOf,
	toolParameters,
} from "./actions/index.ts";
export { adoptHeld } from "./adopt.ts";
export {
	bindingProblem,
	ensureBound,
	manifestBindingProblem,
	readBoundSlice,
	readBoundSource,
	readBoundSourceFrom,
	type SourceOrigin,
} from "./bound-source.ts";
export { type BranchViewInput, branchViewOf, type EntryView, originalEntry, recordsOf } from "./branch-view.ts";
export {
	CHAIN_KEY_DIR,
	CHAIN_KEY_FILE,
	chainKeyFor,
	chainKeyPath,
	forgetChainKeys,
	type LoadedChainKey,
	loadChainKey,
	processChainKey,
} from "./chain-key.ts";
export { FOLD_COMMAND_VERBS, type FoldCommandReply, foldIdsFor, runFoldCommand } from "./command.ts";
export {
	type CommitBody,
	planEdits,
	RECEIPT_MAX_CHARS,
	receiptText,
	receiptType,
} from "./commit/index.ts";
export { type ExpandAllPlan, expandAll, expandAllText, planExpandAll } from "./expand-all.ts";
export {
	type FoldCounts,
	type FoldForest,
	foldCounts,
	foldForest,
	type SummarizedFold,
	sourcePresence,
} from "./fold-forest.ts";
export { sourceDigestMatches, writeFoldSource } from "./fold-write.ts";
export type {
	BoundaryDraft,
	BriefOut,
	ContextEditDraft,
	ContextUsage,
	CustomDraft,
	CustomMessageDraft,
	Host,
	ModelInfo,
	Notify,
	SessionLocation,
	SourceStore,
} from "./ports.ts";
export { candidatesFor } from "./projection-provider.ts";
export {
	BOUNDARY_NAMES,
	type BoundaryKind,
	type Decide,
	FoldRuntime,
	type RuntimePort,
	type StoreFactory,
} from "./runtime.ts";
export { type StablePrefix, stablePrefix } from "./stable-prefix.ts";
export { type CommitFacts, commitClause, commitFacts, commitNotice, costText } from "./status/commit.ts";
export { renderConfig } from "./status/config.ts";
export {
	CONTEXT_VIEWS,
	type CommandNames,
	type ContextView,
	footerText,
	HUMAN_ENTRY_PAGE,
	HUMAN_FOLD_PAGE,
	renderContext,
	VIEW_WIDTH,
} from "./status/context-views.ts";
export { renderDetails } from "./status/details.ts";
export {
	type MarkStatus,
	type SchedulingStatus,
	type StatusModel,
	statusModel,
	type UsageFigure,
} from "./status/model.ts";
export { renderStatus, STATUS_PAGE_SIZE, type StatusRequest } from "./status/render.ts";
export { SuggestionRegistry, suggestionAcceptEntryType } from "./suggestions.ts";
export {
	type BriefUsage,
	type CommitNote,
	type CompactionNote,
	HISTORY_LIMIT,
	OBSERVATION_HISTORY,
	type ScheduleNote,
	Telemetry,
	type TelemetryView,
} from "./telemetry.ts";
