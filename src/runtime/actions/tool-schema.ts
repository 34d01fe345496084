// The context tool's arguments: ONE zod schema (a discriminated union on `action`) that validates
// every call, and the tool's parameter JSON Schema generated from it with zod 4's z.toJSONSchema.
// The generated union is flattened into one object schema (action enum + every field, each
// described with the actions that use it), because providers require an object at the root of a
// tool's parameters; the per-action rules (which fields are required) are then enforced by the
// same zod schema in `parseToolArgs`, whose errors name the field and show the action's valid shape.
// `toolActions` filters both. Pure.

import { z } from "zod";
import { BRIEF_MAX_CHARS } from "../../briefs/index.ts";
import { unsafeTextProblem } from "../../common/index.ts";
import type { ToolAction } from "../../options/index.ts";
import { SEARCH_PATTERN_MAX_CHARS } from "../../store/index.ts";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from "./search-types.ts";

const foldId = z.string().regex(/^f[0-9a-f]{16}$/, "expected a fold id like f0123456789abcdef");
const entryOrFold = z.string().min(1);
/** A brief: at most BRIEF_MAX_CHARS Unicode code points (zod's `.max` and JSON Schema's `maxLength` count code points), plain text. */
const brief = z
	.string()
	.min(1)
	.max(BRIEF_MAX_CHARS)
	.superRefine((text, ctx) => {
		const problem = unsafeTextProblem(text, "brief");
		if (problem) ctx.addIssue({ code: "custom", message: problem });
	});
/** How the parameter description states a brief's limits. */
const BRIEF_RULES = `at most ${BRIEF_MAX_CHARS.toLocaleString("en-US")} characters counted as Unicode code points (an emoji is one); plain text: newlines and tabs, no other control characters, bidi controls or lone surrogates`;

/** Bytes a peek returns when `bytes` is not given. */
export const PEEK_DEFAULT_BYTES = 12_000;
/** Most bytes one peek returns. */
export const PEEK_MAX_BYTES = 64_000;

const variants = {
	status: z.strictObject({
		action: z.literal("status"),
		detail: z
			.enum(["summary", "tree", "entries"])
			.optional()
			.describe(
				'status: "tree" lists every fold in transcript order with its depth and parent; "entries" lists the raw (unfolded) units with their entry ids, to name a span; default "summary"',
			),
		page: z.number().int().min(1).optional().describe("Page of a long listing, from 1 (default 1)"),
	}),
	peek: z.strictObject({
		action: z.literal("peek"),
		id: foldId.describe("Fold id, as shown in a brief (f followed by 16 hex digits); any depth"),
		offset: z.number().int().min(0).optional().describe("peek: byte offset into the fold's source (default 0)"),
		bytes: z
			.number()
			.int()
			.min(1)
			.max(PEEK_MAX_BYTES)
			.optional()
			.describe(`peek: bytes to return (default ${PEEK_DEFAULT_BYTES}, at most ${PEEK_MAX_BYTES})`),
	}),
	search: z.strictObject({
		action: z.literal("search"),
		pattern: z
			.string()
			.min(1)
			.max(SEARCH_PATTERN_MAX_CHARS)
			.describe(
				"search: text to find in the exact sources of folded history (case-insensitive; every source verified by SHA-256 before any of it is shown)",
			),
		regex: z
			.boolean()
			.optional()
			.describe("search: pattern is a JavaScript regular expression over the sources' JSON text (default false)"),
		fold: foldId.optional().describe("search: only this fold and the folds nested in it (default: every fold)"),
		limit: z
			.number()
			.int()
			.min(1)
			.max(SEARCH_MAX_LIMIT)
			.optional()
			.describe(`search: matches per page (default ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT})`),
		page: z.number().int().min(1).optional(),
	}),
	fold: z.strictObject({
		action: z.literal("fold"),
		from: entryOrFold.describe("fold: first entry id (or fold id) of the span, inclusive"),
		to: entryOrFold.describe("fold: last entry id (or fold id) of the span, inclusive"),
		brief: brief
			.optional()
			.describe(`What the span found or decided, ${BRIEF_RULES} (fold: optional, a deterministic brief otherwise)`),
	}),
	expand: z.strictObject({ action: z.literal("expand"), id: foldId }),
	refold: z.strictObject({ action: z.literal("refold"), id: foldId }),
	protect: z.strictObject({
		action: z.literal("protect"),
		ids: z
			.array(z.string().min(1))
			.min(1)
			.optional()
			.describe(
				"protect/unprotect: entry ids (a tool call id names its result); reboundary: the fold ids to dissolve or merge",
			),
		id: foldId.optional(),
	}),
	unprotect: z.strictObject({
		action: z.literal("unprotect"),
		ids: z.array(z.string().min(1)).min(1).optional(),
		id: foldId.optional(),
	}),
	rebrief: z.strictObject({ action: z.literal("rebrief"), id: foldId, brief }),
	reboundary: z.strictObject({
		action: z.literal("reboundary"),
		op: z.enum(["dissolve", "merge"]).describe("reboundary: dissolve folds back to raw, or merge 2+ adjacent folds"),
		ids: z.array(foldId).min(1),
		brief: brief.optional(),
	}),
	unmark: z.strictObject({ action: z.literal("unmark"), id: foldId }),
} as const;

type Variants = typeof variants;
/** Validated arguments of one action. */
export type ToolArgs = { [K in keyof Variants]: z.output<Variants[K]> }[keyof Variants];
export type ArgsOf<A extends ToolAction> = Extract<ToolArgs, { action: A }>;

/** The zod schema of the allowed actions (a discriminated union on `action`). */
export function toolArgsSchema(actions: readonly ToolAction[]) {
	const chosen = actions.map((a) => variants[a]);
	return z.discriminatedUnion("action", chosen as unknown as [Variants["status"], ...Variants[keyof Variants][]]);
}

type JsonSchema = { [key: string]: unknown };

function tidy(schema: JsonSchema): JsonSchema {
	const out: JsonSchema = { ...schema };
	if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
	if (out.minimum === -Number.MAX_SAFE_INTEGER) delete out.minimum;
	return out;
}

/** The parameter JSON Schema Pi and the provider see: the union flattened into one object. */
export function toolParameters(actions: readonly ToolAction[]): JsonSchema {
	const union = z.toJSONSchema(toolArgsSchema(actions)) as { oneOf?: JsonSchema[]; anyOf?: JsonSchema[] };
	const branches = (union.oneOf ?? union.anyOf ?? [union]) as {
		properties: Record<string, JsonSchema>;
		required?: string[];
	}[];
	const properties: Record<string, JsonSchema> = {};
	const users = new Map<string, string[]>();
	for (const [i, branch] of branches.entries()) {
		const action = actions[i] as string;
		for (const [name, prop] of Object.entries(branch.properties)) {
			if (name === "action") continue;
			const { description: _d, ...rest } = prop;
			const existing = properties[name];
			if (!existing) properties[name] = tidy(rest);
			else if (JSON.stringify(existing.items ?? existing.pattern) !== JSON.stringify(rest.items ?? rest.pattern)) {
				// The same field differs between actions (entry ids vs fold ids): keep the looser form.
				delete existing.pattern;
				if (existing.items) existing.items = { type: "string" };
			}
			const described = prop.description as string | undefined;
			const target = properties[name] as JsonSchema;
			if (described && target.description === undefined) target.description = described;
			users.set(name, [...(users.get(name) ?? []), `${action}${branch.required?.includes(name) ? "" : "?"}`]);
		}
	}
	for (const [name, list] of users) {
		const prop = properties[name] as JsonSchema;
		const base = typeof prop.description === "string" ? `${prop.description}. ` : "";
		prop.description = `${base}Used by: ${list.join(", ")} (? = optional)`;
	}
	return {
		type: "object",
		properties: {
			action: { type: "string", enum: [...actions], description: "What to do; each action uses the fields listed" },
			...properties,
		},
		required: ["action"],
		additionalProperties: false,
	};
}

/** The valid shape of one action as a one-line example, e.g. {"action":"expand","id":"<fold id>"}. */
export function shapeOf(action: ToolAction): string {
	const json = z.toJSONSchema(variants[action]) as { properties: Record<string, JsonSchema>; required?: string[] };
	const parts = Object.entries(json.properties).map(([name, prop]) => {
		if (name === "action") return `"action":"${action}"`;
		const optional = json.required?.includes(name) ? "" : "?";
		const type = prop.enum
			? (prop.enum as string[]).map((v) => JSON.stringify(v)).join("|")
			: prop.type === "array"
				? "[<string>, ...]"
				: `<${String(prop.type)}>`;
		return `"${name}"${optional}:${type}`;
	});
	return `{${parts.join(",")}}`;
}

export type ParsedArgs = { ok: true; args: ToolArgs } | { ok: false; error: string };

/** Validates raw arguments; an error names the field(s) and shows the action's valid shape. */
export function parseToolArgs(raw: unknown, actions: readonly ToolAction[]): ParsedArgs {
	const action = (raw as { action?: unknown } | null)?.action;
	if (typeof action !== "string" || !(actions as readonly string[]).includes(action)) {
		const got = action === undefined ? "missing" : JSON.stringify(action);
		return {
			ok: false,
			error: `action: ${got} is not an action of this tool; valid actions: ${actions.join(", ")}. Shapes:\n${actions.map((a) => `  ${shapeOf(a)}`).join("\n")}`,
		};
	}
	const parsed = variants[action as ToolAction].safeParse(raw);
	if (parsed.success) {
		const args = parsed.data as ToolArgs;
		if (
			(args.action === "protect" || args.action === "unprotect") &&
			(args.ids === undefined) === (args.id === undefined)
		)
			return {
				ok: false,
				error: `ids/id: give exactly one of ids (entry ids) or id (a fold id). Valid shape: ${shapeOf(args.action)}`,
			};
		if (args.action === "reboundary" && args.op === "merge" && args.ids.length < 2)
			return {
				ok: false,
				error: `ids: merge takes 2 or more adjacent fold ids. Valid shape: ${shapeOf("reboundary")}`,
			};
		return { ok: true, args };
	}
	const problems = parsed.error.issues.map((issue) => {
		const path = issue.path.map(String).join(".");
		if (issue.code === "unrecognized_keys") return `${issue.keys.join(", ")}: not a field of ${action}`;
		return `${path || "arguments"}: ${issue.message}`;
	});
	return { ok: false, error: `${problems.join("; ")}. Valid shape: ${shapeOf(action as ToolAction)}` };
}
