// Briefs layer: deterministic briefs, bounds and validation of agent-written briefs. Pure.
export { BRIEF_MAX_CHARS, boundBrief, deterministicBrief, resultLineCount } from "./deterministic.ts";
export { excerptBrief } from "./excerpt.ts";
export { briefWithListing, LISTING_MAX_CHARS, type NestedCoverage, nestedListing, timeRange } from "./listing.ts";
export {
	type BriefProvenance,
	SUMMARY_INPUT_MAX_CHARS,
	SUMMARY_MAX_OUTPUT_TOKENS,
	SUMMARY_SYSTEM_PROMPT,
	SUMMARY_TIMEOUT_MS,
	type SummarizedBrief,
	type SummaryCall,
	type SummaryCallResult,
	summarizeSpan,
} from "./summarizer.ts";
export { briefWithQuotes, USER_QUOTE_CHARS, USER_QUOTES_MAX_CHARS, userQuotes } from "./user-quotes.ts";
export { BRIEF_MIN_CHARS, briefProblem } from "./validate.ts";
