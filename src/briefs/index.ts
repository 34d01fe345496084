// Briefs layer: deterministic briefs, bounds and validation of agent-written briefs. Pure.
export { resultLineCount } from "../lattice/index.ts";
export { mostUsedSpans, spansIn, spansOf } from "./code-spans.ts";
export { BRIEF_MAX_CHARS, boundBrief, deterministicBrief } from "./deterministic.ts";
export { BATCH_HEAD_CHARS, batchExcerptBrief, excerptBrief } from "./excerpt.ts";
export { LINES_IN_USE_MAX_CHARS, linesInUse } from "./lines-in-use.ts";
export { briefWithListing, type NestedCoverage, nestedListing, timeRange } from "./listing.ts";
export {
	expandPathGroups,
	heldNames,
	NAME_INDEX_MAX_CHARS,
	nameIndex,
	nameIndexRoom,
	nameIndexSizeBound,
	quotable,
	tokensOf,
} from "./name-index.ts";
export {
	SUMMARY_INPUT_MAX_CHARS,
	SUMMARY_MAX_OUTPUT_TOKENS,
	SUMMARY_TIMEOUT_MS,
	type SummaryCall,
	summarizeSpan,
} from "./summarizer.ts";
export { briefWithQuotes, USER_QUOTE_CHARS, USER_QUOTES_MAX_CHARS, userQuotes } from "./user-quotes.ts";
export { BRIEF_MIN_CHARS, briefProblem } from "./validate.ts";
