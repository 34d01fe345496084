// `/fold-context config` for the human: each option a Pi user sets, its effective value, where it
// came from (default, the global file, the project file, an extension's code) and one plain line on
// what it does (options/option-help.ts), then the settings files as pi-fold found them.
// `/fold-context config all` adds the internals (record names, hooks for other extensions' code),
// which the plain view lists only when something set them. Plain lines that fit an 80-column
// terminal except for long values. Pure over the settled options.

import { nounFor } from "../../common/index.ts";
import {
	CODE_ONLY_OPTIONS,
	INTERNAL_OPTIONS,
	LOAD_TIME_OPTIONS,
	OPTION_HELP,
	type OptionKey,
	type OptionSource,
	type SettingsFile,
	type SettledOptions,
} from "../../options/index.ts";
import { VIEW_WIDTH } from "./context-views.ts";

const SOURCE_LABEL: Record<OptionSource, string> = {
	default: "default",
	global: "global file",
	project: "project file",
	code: "extension",
};

/** One option's effective value as the human reads it. */
function valueText(key: string, value: unknown): string {
	if (key === "providerTotalWindow" && value === undefined) return "the model's context window";
	if (key === "prices" && value === undefined) return "the model's prices";
	if (key === "cacheTtlMs" && value === undefined) return "the model's cache lifetime";
	if (key === "summarizer" && value === "custom") return "custom (summarizeContextSpan)";
	if (typeof value === "function") return "a function";
	if (value === undefined) return "not set";
	return spaced(JSON.stringify(value instanceof Set ? [...value] : value));
}

/** JSON with a space after each separator, so a long value wraps between items. */
function spaced(json: string): string {
	return json.replace(/("(?:[^"\\]|\\.)*")|([,:])/g, (_m, str: string | undefined, sep: string | undefined) =>
		str !== undefined ? str : `${sep} `,
	);
}

/** `head` then `value`, the value wrapped between its items onto lines indented under its start. */
function hanging(head: string, value: string, width = VIEW_WIDTH): string[] {
	if (head.length + value.length <= width) return [`${head}${value}`];
	const pad = " ".repeat(head.length);
	const lines: string[] = [];
	let line = head;
	for (const piece of value.split(/(?<=, )/)) {
		if (line.length + piece.length > width && line.trim().length > 0 && line !== head) {
			lines.push(line.trimEnd());
			line = pad;
		}
		line += piece;
	}
	lines.push(line.trimEnd());
	return lines;
}

function fileState(file: SettingsFile): string {
	switch (file.state) {
		case "absent":
			return "not found";
		case "untrusted":
			return "not read: Pi does not trust this project";
		case "read": {
			const n = Object.keys(file.values).length;
			return `read, ${n} ${nounFor(n, "setting")}`;
		}
		case "invalid":
			return `ignored: ${file.problem}`;
	}
}

/**
 * The config view; `all` adds the internals. `display` shortens a file path for the human (the
 * adapter passes one that writes the home directory as ~).
 */
export function renderConfig(
	settled: SettledOptions,
	display: (path: string) => string = (p) => p,
	all = false,
): string {
	const { resolved, sources } = settled;
	const command = `/${resolved.commandNames.fold} config`;
	const lines = ["pi-fold settings (this project's pi-fold.json beats the global one):"];
	const values = resolved as unknown as Record<string, unknown>;
	const keys = (Object.keys(sources) as OptionKey[]).filter(
		(key) => all || !INTERNAL_OPTIONS.has(key) || sources[key] !== "default",
	);
	const width = Math.max(...keys.map((key) => key.length)) + 2;
	for (const key of keys) {
		const value = valueText(key, values[key]);
		const head = `  ${key.padEnd(width)}${SOURCE_LABEL[sources[key] as OptionSource].padEnd(13)} `;
		lines.push(...hanging(head, value), `      ${OPTION_HELP[key]}`);
	}
	lines.push("Settings files:");
	for (const file of settled.files) lines.push(`  ${file.scope.padEnd(8)} ${display(file.path)}: ${fileState(file)}`);
	if (all) lines.push(`Only an extension's code (registerPiFold) can set ${CODE_ONLY_OPTIONS.join(", ")}.`);
	else lines.push(`Internals (record names, hooks for other extensions): ${command} all`);
	lines.push(
		`A project file cannot set ${LOAD_TIME_OPTIONS.join(", ")}.`,
		"After editing a settings file, /reload applies it.",
	);
	return lines.join("\n");
}
