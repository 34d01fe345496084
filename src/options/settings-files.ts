// Settings files for people who installed pi-fold with `pi install`: which options a JSON file may
// set, how a file's text becomes option values checked by the same zod schema as
// `registerPiFold(pi, options)`, and how the layers combine (code > project file > global file >
// default), with where each effective option came from. Pure: the Pi adapter (src/pi/settings-loader.ts)
// finds and reads the files and tells the human about a file it had to ignore.

import {
	optionsSchema,
	type PiFoldOptions,
	REMOVED_OPTIONS,
	type ResolvedOptions,
	TOOL_ACTIONS,
} from "./option-schema.ts";
import { OptionsError, resolveOptions } from "./resolve.ts";

/** The settings file's name, in Pi's agent directory (global) and in a project's `.pi/` directory. */
export const SETTINGS_FILE_NAME = "pi-fold.json";

/** The options a settings file may set (the JSON-expressible ones), with their valid values in words. */
export const FILE_OPTIONS = {
	toolName: "a tool name: letters, digits, _ or - (at most 64), starting with a letter or _",
	toolLabel: "a non-empty string of at most 64 characters",
	brandNoun: "a non-empty string of at most 40 characters",
	entryTypePrefix: 'kebab-case, like "pi-fold-active-context"',
	commandPrefix: "lowercase letters, digits and hyphens",
	commandNames: '{"status": "...", "fold": "..."}: two different kebab-case names, each optional',
	summarizer: '"session", "deterministic" or {"provider": "...", "model": "...", "effort": "..."} (effort optional)',
	foldScheduling: '"cost", "immediate" or "epoch"',
	keepRawTokens: "a whole number of tokens (0 or more)",
	prices:
		'{"input": N, "output": N, "cacheRead": N, "cacheWrite": N} in dollars per million tokens, with optional "tiers": [{... , "inputTokensAbove": N}]',
	cacheTtlMs: "a positive whole number of milliseconds",
	foldPeekResults: "true or false",
	providerTotalWindow: "a positive whole number of tokens",
	toolActions: `a non-empty list of ${TOOL_ACTIONS.map((a) => `"${a}"`).join(", ")} ("unmark" not with "immediate")`,
	readOnlyTools: 'a list of tool names, like ["read", "grep", "find", "ls"]',
	evidenceIngestion: "true or false",
} as const;

type FileOption = keyof typeof FILE_OPTIONS;

/** Options only code can pass (they are functions): `registerPiFold(pi, { ... })`. */
export const CODE_ONLY_OPTIONS = [
	"summarizeContextSpan",
	"setProjectionProvider",
	"setSuggestionSourceRegistrar",
] as const;

/**
 * Options fixed when Pi loads pi-fold, before it knows the project: the names of the tool and the
 * commands pi-fold registers, and the namespace of its durable state. A project file cannot set them.
 */
export const LOAD_TIME_OPTIONS: readonly FileOption[] = [
	"toolName",
	"toolLabel",
	"commandPrefix",
	"commandNames",
	"entryTypePrefix",
];

export type SettingsScope = "global" | "project";
export type OptionSource = "default" | SettingsScope | "code";

/** A settings file as found: its values, or why none of them apply. */
export type SettingsFile =
	| { readonly scope: SettingsScope; readonly path: string; readonly state: "absent" | "untrusted" }
	| {
			readonly scope: SettingsScope;
			readonly path: string;
			readonly state: "read";
			readonly values: Readonly<Record<string, unknown>>;
	  }
	| { readonly scope: SettingsScope; readonly path: string; readonly state: "invalid"; readonly problem: string };

const FILE_NAMES = Object.keys(FILE_OPTIONS) as FileOption[];

function isFileOption(key: string): key is FileOption {
	return Object.hasOwn(FILE_OPTIONS, key);
}

/** Edit distance, for "did you mean" on a misspelt setting. */
function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		let previous = row[0] as number;
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const kept = row[j] as number;
			const same = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase();
			row[j] = Math.min(kept + 1, (row[j - 1] as number) + 1, previous + (same ? 0 : 1));
			previous = kept;
		}
	}
	return row[b.length] as number;
}

function unknownKey(key: string): string {
	const near = FILE_NAMES.map((name) => ({ name, d: distance(key, name) })).sort((x, y) => x.d - y.d)[0];
	const hint = near && near.d <= 3 ? `; did you mean ${near.name}?` : "";
	return `"${key}" is not a pi-fold setting${hint} (valid settings: ${FILE_NAMES.join(", ")})`;
}

/** Why `key` may not appear in a file of `scope`, or null when it may. */
function keyProblem(key: string, scope: SettingsScope): string | null {
	if (Object.hasOwn(REMOVED_OPTIONS, key)) return REMOVED_OPTIONS[key] as string;
	if ((CODE_ONLY_OPTIONS as readonly string[]).includes(key))
		return `${key} is a function, so only code can set it (registerPiFold(pi, { ${key} }))`;
	if (!isFileOption(key)) return unknownKey(key);
	if (scope === "project" && LOAD_TIME_OPTIONS.includes(key))
		return `${key} can be set only in the global file or in code: Pi registers pi-fold's tool and commands when it loads pi-fold, before it reads the project`;
	return null;
}

/** The value as a setting's message shows it. */
function shown(value: unknown): string {
	const text = JSON.stringify(value);
	return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** Converts JSON values to the option types (readOnlyTools: a list becomes a set). */
function toOptionValues(values: Record<string, unknown>): Record<string, unknown> | string {
	const raw = values.readOnlyTools;
	if (raw === undefined) return values;
	if (!Array.isArray(raw) || raw.some((v) => typeof v !== "string" || v.length === 0))
		return `readOnlyTools: ${shown(raw)} is not valid; valid: ${FILE_OPTIONS.readOnlyTools}`;
	return { ...values, readOnlyTools: new Set(raw) };
}

/** The problems zod found in `values`, each naming the field, the value and the valid values. */
function valueProblems(values: Record<string, unknown>): string[] {
	const parsed = optionsSchema.safeParse(values);
	if (parsed.success) return [];
	return parsed.error.issues.map((issue) => {
		const field = String(issue.path[0] ?? "");
		if (!isFileOption(field)) return issue.message;
		const valid = FILE_OPTIONS[field];
		const inner = issue.path.length > 1 ? ` (at ${issue.path.map(String).join(".")})` : "";
		if (issue.code === "custom") return `${field}: ${issue.message}`;
		return `${field}: ${shown(values[field])} is not valid${inner}; valid: ${valid}`;
	});
}

/** A settings file's text checked and turned into option values, or the file's problems. */
export function parseSettingsText(scope: SettingsScope, path: string, text: string): SettingsFile {
	const invalid = (problem: string): SettingsFile => ({ scope, path, state: "invalid", problem });
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		return invalid(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
	}
	if (json === null || typeof json !== "object" || Array.isArray(json))
		return invalid('must be one JSON object, like {"foldScheduling": "epoch"}');
	const entries = Object.entries(json as Record<string, unknown>).filter(([key]) => key !== "$schema");
	const keyProblems = entries.flatMap(([key]) => keyProblem(key, scope) ?? []);
	if (keyProblems.length > 0) return invalid(keyProblems.join("; "));
	const values = toOptionValues(Object.fromEntries(entries));
	if (typeof values === "string") return invalid(values);
	const problems = valueProblems(values);
	return problems.length > 0 ? invalid(problems.join("; ")) : { scope, path, state: "read", values };
}

/** The effective options, where each came from, and the files as they were used. */
export interface SettledOptions {
	readonly resolved: ResolvedOptions;
	readonly sources: Readonly<Record<string, OptionSource>>;
	readonly files: readonly SettingsFile[];
}

function defined(options: PiFoldOptions | undefined): Record<string, unknown> {
	return Object.fromEntries(Object.entries(options ?? {}).filter(([, v]) => v !== undefined));
}

/**
 * Combines `code` (registerPiFold's options: they win, and a bad one throws as before) with the
 * settings `files` in order (global, then project; later wins). A file whose values do not combine
 * with the layers below it and the code is ignored whole and comes back as "invalid", naming why.
 */
export function settleOptions(code: PiFoldOptions | undefined, files: readonly SettingsFile[]): SettledOptions {
	const fromCode = defined(code);
	resolveOptions(fromCode);
	let merged: Record<string, unknown> = {};
	const used: SettingsFile[] = [];
	const owner = new Map<string, SettingsScope>();
	for (const file of files) {
		if (file.state !== "read") {
			used.push(file);
			continue;
		}
		const candidate = { ...merged, ...file.values };
		try {
			resolveOptions({ ...candidate, ...fromCode });
		} catch (error) {
			const why = error instanceof OptionsError ? error.message.replace(/^pi-fold options: /, "") : String(error);
			used.push({
				scope: file.scope,
				path: file.path,
				state: "invalid",
				problem: `${why} (with the settings it adds to)`,
			});
			continue;
		}
		merged = candidate;
		for (const key of Object.keys(file.values)) owner.set(key, file.scope);
		used.push(file);
	}
	const sources: Record<string, OptionSource> = {};
	for (const key of Object.keys(optionsSchema.shape))
		sources[key] = key in fromCode ? "code" : (owner.get(key) ?? "default");
	return { resolved: resolveOptions({ ...merged, ...fromCode }), sources, files: used };
}
