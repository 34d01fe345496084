// Replay layer: a recorded Pi session file read without Pi (session-file.ts), what happened in it
// from its own usage (recorded-session.ts), the same messages replayed offline through pi-fold's policy with
// no model calls (replay-session.ts, on src/simulate), the window and reserve it runs with (model-limits.ts:
// given, or a model catalog's entry, injected), and the side-by-side text and chart (replay-report.ts,
// its explanations in replay-notes.ts), and how pi-fold's windows held the agent's working set beside the
// session's own (fidelity.ts: working-set.ts, working-set-tally.ts, fidelity-facts.ts, needle-index.ts).
// `pi-fold replay` (src/cli/commands/replay.ts) does the file I/O. The plan of `pi-fold unfold`
// (unfold-plan.ts: pi-fold's context edits undone, each fold verified against the file's entries;
// src/cli/commands/unfold.ts writes it).

export { type Fidelity, RECALL_FRESH_TOKENS, RECALL_OUTPUT_TOKENS, type WorkingSetFigures } from "./fidelity.ts";
export { FIDELITY_CAVEAT, FIDELITY_HEADS, fidelityCells, fidelityTotalCells } from "./fidelity-report.ts";
export { feedAsRecorded, replayMessages, systemPromptOf } from "./messages.ts";
export { LimitsError, type ModelLookup, modelLimits } from "./model-limits.ts";
export type { Prices } from "./recorded-session.ts";
export { bottomLine, renderReplay, replayChart, replayTotals } from "./replay-report.ts";
export {
	DEFAULT_CACHE_TTL_MS,
	DEFAULT_MAX_OUTPUT,
	type ReplayOptions,
	type ReplayResult,
	type ReplayWindow,
	replaySession,
} from "./replay-session.ts";
export { parseSessionFile, type SessionFile, SessionFileError } from "./session-file.ts";
export { contextMessageOf, planUnfold, UnfoldError } from "./unfold-plan.ts";
