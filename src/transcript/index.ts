// Transcript layer: session entries to units, chapters and the fresh tail. Pure; no Pi imports.
export { canonicalJson } from "./canonical.ts";
export { contentText } from "./content.ts";
export {
	DEFAULT_READ_ONLY_TOOLS,
	FRESH_TAIL_MAX_BUDGET_SHARE,
	FRESH_TAIL_MAX_TOKENS,
	FRESH_TAIL_MIN_UNITS,
	FRESH_TAIL_UNITS,
	freshTailStart,
	isReadOnlyBatch,
	runningTurnStart,
} from "./fresh-tail.ts";
export { memoByMessage } from "./measure.ts";
export type { Chapter, TranscriptEntry, TranscriptMessage, Unit } from "./transcript-types.ts";
export { extendsByAppending, extendUnits, toChapters, toolCallsOf, toUnits } from "./units.ts";
