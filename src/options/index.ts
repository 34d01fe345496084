// Options layer: the public configuration surface of pi-fold (one zod schema, documented defaults)
// and its resolution. Pure; no Pi imports.
export { derivedNames, OptionsError, resolveOptions } from "./resolve.ts";
export {
	DEFAULT_BLOCKING_TOOLS,
	DEFAULT_BRAND_NOUN,
	DEFAULT_COMMAND_NAMES,
	DEFAULT_COMMAND_PREFIX,
	DEFAULT_ENTRY_TYPE_PREFIX,
	DEFAULT_FOLD_SCHEDULING,
	DEFAULT_KEEP_RAW_TOKENS,
	DEFAULT_TOOL_LABEL,
	DEFAULT_TOOL_NAME,
	optionsSchema,
	type PiFoldOptions,
	type ResolvedOptions,
	type SuggestionSource,
	type SummarizeSpanRequest,
	type SummarizeSpanResult,
	TOOL_ACTIONS,
	type ToolAction,
} from "./schema.ts";
