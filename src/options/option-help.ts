// One plain line per option for `/fold-context config`, in a Pi user's words, and which options are
// internals (shown only by `/fold-context config all`): names of pi-fold's own records and hooks
// for another extension's code, which a Pi user never sets. Typed over the schema's keys, so a new
// option without a line fails the type check. Pure.

import type { optionsSchema } from "./option-schema.ts";

export type OptionKey = keyof typeof optionsSchema.shape;

/** What each option does, one line of at most 72 characters. */
export const OPTION_HELP: Readonly<Record<OptionKey, string>> = {
	toolName: "the name of the context tool the model calls",
	toolLabel: "the context tool's name as Pi shows it in the transcript",
	brandNoun: "the word fold placeholders and notices use for pi-fold",
	entryTypePrefix: "the prefix of pi-fold's entries in the session file",
	commandPrefix: 'a prefix for both commands ("my": /my-context, /my-fold-context)',
	commandNames: "the two slash commands' names, instead of commandPrefix",
	summarizer: 'who writes briefs: "session" (this model), "deterministic" or a model',
	summarizeContextSpan: "a function in an extension's code that writes briefs",
	foldScheduling: 'when folds land: "cost" (when it pays), "immediate" or "epoch" (80%)',
	keepRawTokens: "tokens of the newest context a commit leaves unfolded",
	prices: "dollars per million tokens for pi-fold's choices, if not the model's",
	cacheTtlMs: "how long the provider keeps its prompt cache (ms), if not the model's",
	foldPeekResults: "whether a peek at a fold's original may itself fold away later",
	providerTotalWindow: "the context window in tokens, instead of the model's",
	toolActions: "the actions the context tool offers the model",
	readOnlyTools: "the tools whose finished calls pi-fold may fold on its own",
	evidenceIngestion: "a tool result too big for the window shows as an excerpt, kept whole",
	setProjectionProvider: "for another extension's code: receives pi-fold's fold candidates",
	setSuggestionSourceRegistrar: "for another extension's code: registers fold suggestions",
};

/** Options a Pi user never sets: listed by `config all` only (unless set, then always). */
export const INTERNAL_OPTIONS: ReadonlySet<OptionKey> = new Set<OptionKey>([
	"brandNoun",
	"entryTypePrefix",
	"summarizeContextSpan",
	"setProjectionProvider",
	"setSuggestionSourceRegistrar",
]);
