// pi-fold's options: the public configuration surface of `registerPiFold(pi, options)` as one zod
// schema, every default documented next to its DEFAULT_* constant, and the resolved shape the
// runtime reads. Resolution (defaults filled, errors named) is resolve.ts. Pure.

import { z } from "zod";
import type { ProjectionCandidate } from "../projection/index.ts";

/** Every action the context tool knows; `unmark` is offered only where folds are pending marks (epoch, cost). */
export const TOOL_ACTIONS = [
	"status",
	"peek",
	"search",
	"fold",
	"expand",
	"refold",
	"protect",
	"unprotect",
	"rebrief",
	"reboundary",
	"unmark",
] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];

const DEFAULT_TOOL_NAME = "active_context";
const DEFAULT_TOOL_LABEL = "Active Context";
const DEFAULT_BRAND_NOUN = "active-context";
const DEFAULT_ENTRY_TYPE_PREFIX = "pi-fold-active-context";
const DEFAULT_COMMAND_PREFIX = "";
const DEFAULT_COMMAND_NAMES = { status: "context", fold: "fold-context" } as const;
/**
 * Default "cost": commits timed and sized by what they cost (docs/policy.md, "Cost scheduling"). A
 * deviation from the spec's "immediate" default, measured across windows in docs/policy.md and
 * docs/session-benchmark.md; "immediate" and "epoch" stay available.
 */
const DEFAULT_FOLD_SCHEDULING = "cost";
/** Newest window tokens a cost-scheduled commit keeps raw (Pi's keepRecentTokens in spirit). */
export const DEFAULT_KEEP_RAW_TOKENS = 10_000;

/**
 * Options an earlier pi-fold had and this one does not, each with why and what to do: naming one is
 * an error that says so (not the generic unknown-option list).
 */
export const REMOVED_OPTIONS: Readonly<Record<string, string>> = {
	isMcpTool:
		"isMcpTool was removed: evidence is no longer written per tool at tool_result time (nothing read it); a result too large for the window becomes an excerpt whose exact text is a fold's source in the fold store, the same for every tool. Remove the option",
	blockingTools:
		"blockingTools was removed: Pi appends context edits only at turn boundaries, so no fold can land before a tool call; after a long call, cost scheduling already commits free of rewrite cost once the provider's cache has expired (cacheTtlMs). Remove the setting",
};

/** A span summary request handed to `summarizeContextSpan`. */
interface SummarizeSpanRequest {
	readonly foldId: string;
	readonly kind: "tools" | "chapter" | "span" | "consolidation";
	/** The span's exact source (JSON Lines of `{id, message}`), bounded by the chapter cap. */
	readonly source: string;
	readonly signal?: AbortSignal;
}

/** What a custom summarizer must return; anything else falls back to the deterministic brief. */
interface SummarizeSpanResult {
	readonly brief: string;
	readonly provider: string;
	readonly model: string;
	readonly effort?: string;
	readonly toolCalls: 0;
}

/** A suggestion source: scored against the live window; nothing renders its output in this build. */
export interface SuggestionSource {
	readonly id: string;
	suggest(input: {
		readonly foldIds: readonly string[];
	}): readonly { readonly foldId: string; readonly score: number }[];
}

const kebab = z.string().regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, "must be kebab-case, like fold-context");
const toolNameSchema = z
	.string()
	.regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, "must be a tool name: letters, digits, _ or -, starting with a letter or _");
const fn = <T>(what: string) => z.custom<T>((value) => typeof value === "function", `must be a function (${what})`);

const rate = z.number().min(0);
const ratesShape = { input: rate, output: rate, cacheRead: rate, cacheWrite: rate };
const pricesSchema = z.strictObject({
	...ratesShape,
	tiers: z.array(z.strictObject({ ...ratesShape, inputTokensAbove: z.number().int().min(0) })).optional(),
});

const summarizerSchema = z.union([
	z.literal("session"),
	z.literal("deterministic"),
	z.strictObject({ provider: z.string().min(1), model: z.string().min(1), effort: z.string().min(1).optional() }),
]);

export const optionsSchema = z
	.strictObject({
		/** Name of the registered context tool. Default "active_context". */
		toolName: toolNameSchema.default(DEFAULT_TOOL_NAME),
		/** Human-facing label of the tool. Default "Active Context". */
		toolLabel: z.string().min(1).max(64).default(DEFAULT_TOOL_LABEL),
		/** Short noun used in placeholders and notices. Default "active-context". */
		brandNoun: z.string().min(1).max(40).default(DEFAULT_BRAND_NOUN),
		/** Prefix of durable state and status identifiers. Default "pi-fold-active-context". */
		entryTypePrefix: kebab.default(DEFAULT_ENTRY_TYPE_PREFIX),
		/** Prefix for the two commands; trailing hyphens are removed. Default "". */
		commandPrefix: z
			.string()
			.regex(/^[a-z0-9-]*$/, "must be lowercase letters, digits and hyphens")
			.default(DEFAULT_COMMAND_PREFIX),
		/** Full command names, overriding commandPrefix. Default undefined. */
		commandNames: z.strictObject({ status: kebab.optional(), fold: kebab.optional() }).optional(),
		/** Brief generator. Default "session". */
		summarizer: summarizerSchema.optional(),
		/** Custom async brief generator; cannot be combined with summarizer. Default undefined. */
		summarizeContextSpan:
			fn<(request: SummarizeSpanRequest) => Promise<SummarizeSpanResult>>("summarizeContextSpan").optional(),
		/**
		 * "cost" marks and commits when committing costs less than holding, folding deep; "immediate"
		 * applies folds when made; "epoch" marks and commits in batches at 80%. Default "cost".
		 */
		foldScheduling: z.enum(["cost", "immediate", "epoch"]).default(DEFAULT_FOLD_SCHEDULING),
		/** Newest window tokens a cost-scheduled commit keeps raw (at most a quarter of the budget). Default 10,000 (measured: see docs/policy.md). */
		keepRawTokens: z.number().int().min(0).default(DEFAULT_KEEP_RAW_TOKENS),
		/** Dollars per million tokens the cost policy uses instead of the model's own price table. Default: the model's. */
		prices: pricesSchema.optional(),
		/** Provider cache lifetime in ms, instead of the model's (pi-ai `getPromptCacheTtlMs`). Default: the model's. */
		cacheTtlMs: z.number().int().positive().optional(),
		/** Treat a peek result as a completed read. Default: true under cost and epoch scheduling, false under immediate. */
		foldPeekResults: z.boolean().optional(),
		/** Total serving window in tokens. Default: the transport's descriptor (the model's contextWindow). */
		providerTotalWindow: z.number().int().positive().optional(),
		/** Replacement allowlist of tool actions. Default: all nine, plus unmark under cost and epoch scheduling. */
		toolActions: z.array(z.enum(TOOL_ACTIONS)).min(1).optional(),
		/** Tools whose completed batches may fold automatically. Default Pi's read-only tools. */
		readOnlyTools: z
			.custom<ReadonlySet<string>>(
				(value) => value instanceof Set && [...value].every((v) => typeof v === "string"),
				"must be a ReadonlySet<string>",
			)
			.optional(),
		/**
		 * A tool result too large for the window is shown as a bounded excerpt, its exact text kept as a
		 * fold's verified source (peek, search, expand). Default true.
		 */
		evidenceIngestion: z.boolean().default(true),
		/** Receives the projection-candidate provider. Default undefined. */
		setProjectionProvider: fn<(provider: () => ProjectionCandidate[]) => void>("setProjectionProvider").optional(),
		/** Receives the suggestion-source registration function. Default undefined. */
		setSuggestionSourceRegistrar:
			fn<(register: (source: SuggestionSource) => () => void) => void>("setSuggestionSourceRegistrar").optional(),
	})
	.superRefine((value, ctx) => {
		if (value.summarizer !== undefined && value.summarizeContextSpan !== undefined) {
			ctx.addIssue({
				code: "custom",
				path: ["summarizeContextSpan"],
				message: "cannot be combined with summarizer; pass one or the other",
			});
		}
		if (value.toolActions?.includes("unmark") && value.foldScheduling === "immediate") {
			ctx.addIssue({
				code: "custom",
				path: ["toolActions"],
				message: 'unmark is not available with foldScheduling: "immediate" (a fold there is not a pending mark)',
			});
		}
		const names = commandNamesOf(value.commandPrefix, value.commandNames);
		if (names.status === names.fold)
			ctx.addIssue({
				code: "custom",
				path: ["commandNames"],
				message: `status and fold commands must differ (both are ${names.status})`,
			});
	});

/** The options as a caller passes them. */
export type PiFoldOptions = z.input<typeof optionsSchema>;

/** Options after validation, every default filled in. */
export interface ResolvedOptions
	extends Omit<
		z.output<typeof optionsSchema>,
		"summarizer" | "foldPeekResults" | "toolActions" | "readOnlyTools" | "commandNames"
	> {
	readonly summarizer: z.output<typeof summarizerSchema> | "custom";
	readonly foldPeekResults: boolean;
	readonly toolActions: readonly ToolAction[];
	readonly readOnlyTools: ReadonlySet<string>;
	readonly commandNames: { readonly status: string; readonly fold: string };
}

export function commandNamesOf(
	prefix: string,
	names: { status?: string | undefined; fold?: string | undefined } | undefined,
) {
	const stem = prefix.replace(/-+$/, "");
	const join = (base: string) => (stem ? `${stem}-${base}` : base);
	return {
		status: names?.status ?? join(DEFAULT_COMMAND_NAMES.status),
		fold: names?.fold ?? join(DEFAULT_COMMAND_NAMES.fold),
	};
}
