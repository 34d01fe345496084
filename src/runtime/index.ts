// Runtime layer: the per-session folding controller with no host of its own (it imports nothing
// from Pi): decisions, the boundary commit (commit/), the fence's measurement, compaction decisions,
// the context tool's actions, status, telemetry, receipts, excerpts of oversized results and the
// suggestion registry. A host adapter (src/pi) or the simulator (src/simulate) supplies a `Host`.

export { leafBlobs, manifestDigestOf } from "../policy/index.ts";
export { callTool, parseToolArgs, toolParameters } from "./actions/index.ts";
export { manifestBindingProblem, readBoundSlice } from "./bound-source.ts";
export { branchViewOf, originalEntry, recordsOf } from "./branch-view.ts";
export { BranchViewBuilder, type ContextItem, type EntryView } from "./branch-view-builder.ts";
export { chainKeyPath, forgetChainKeys, loadChainKey, processChainKey } from "./chain-key.ts";
export { FOLD_COMMAND_VERBS, foldIdsFor, runFoldCommand } from "./command.ts";
export { type CommitBody, RECEIPT_MAX_CHARS, receiptText } from "./commit/index.ts";
export { foldCounts, foldForest, sourcePresence } from "./fold-forest.ts";
export { sourceDigestMatches } from "./fold-write.ts";
export type { BoundaryDraft, BriefOut, Host, ModelInfo, Notify, SourceStore } from "./ports.ts";
export { candidatesFor } from "./projection-provider.ts";
export { type BoundaryKind, type Decide, FoldRuntime } from "./runtime.ts";
export type { RuntimePort } from "./runtime-port.ts";
export { commitFacts, commitNotice } from "./status/commit.ts";
export { renderConfig } from "./status/config.ts";
export { CONTEXT_VIEWS, type ContextView, footerText, renderContext } from "./status/context-views.ts";
export { renderDetails } from "./status/details.ts";
export { type SchedulingStatus, statusModel } from "./status/model.ts";
export { renderStatus } from "./status/render.ts";
export { SuggestionRegistry, suggestionAcceptEntryType } from "./suggestions.ts";
export type { CommitNote } from "./telemetry.ts";
