// Options layer: the public configuration surface of pi-fold (one zod schema, documented defaults)
// and its resolution, and the settings files installed users write (settings-files.ts). Pure; no Pi imports.

export { INTERNAL_OPTIONS, OPTION_HELP, type OptionKey } from "./option-help.ts";
export {
	DEFAULT_KEEP_RAW_TOKENS,
	optionsSchema,
	type PiFoldOptions,
	type ResolvedOptions,
	type SuggestionSource,
	type ToolAction,
} from "./option-schema.ts";
export { derivedNames, OptionsError, resolveOptions } from "./resolve.ts";
export {
	CODE_ONLY_OPTIONS,
	FILE_OPTIONS,
	LOAD_TIME_OPTIONS,
	type OptionSource,
	parseSettingsText,
	SETTINGS_FILE_NAME,
	type SettingsFile,
	type SettingsScope,
	type SettledOptions,
	settleOptions,
} from "./settings-files.ts";
