// Resolves pi-fold's options: validates what a caller passes with the one zod schema, fills every
// default, and names what was wrong (an unknown option lists the valid names). Also the custom
// entry types, status sources and directories derived from `entryTypePrefix`. Pure.

import { nounFor } from "../common/index.ts";
import { DEFAULT_READ_ONLY_TOOLS } from "../transcript/index.ts";
import { commandNamesOf, optionsSchema, REMOVED_OPTIONS, type ResolvedOptions, TOOL_ACTIONS } from "./option-schema.ts";

export class OptionsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "OptionsError";
	}
}

const VALID_NAMES = Object.keys(optionsSchema.shape ?? {}).join(", ");

/** Validates `input` and fills every default; throws an OptionsError naming what was wrong. */
export function resolveOptions(input: unknown = {}): ResolvedOptions {
	const removed = Object.keys(input ?? {}).filter((key) => Object.hasOwn(REMOVED_OPTIONS, key));
	if (removed.length > 0)
		throw new OptionsError(`pi-fold options: ${removed.map((k) => REMOVED_OPTIONS[k]).join("; ")}`);
	const parsed = optionsSchema.safeParse(input ?? {});
	if (!parsed.success) {
		const problems = parsed.error.issues.map((issue) => {
			if (issue.code === "unrecognized_keys")
				return `unknown ${nounFor(issue.keys.length, "option")} ${issue.keys.join(", ")} (valid options: ${VALID_NAMES})`;
			return `${issue.path.map(String).join(".") || "options"}: ${issue.message}`;
		});
		throw new OptionsError(`pi-fold options: ${problems.join("; ")}`);
	}
	const o = parsed.data;
	const marks = o.foldScheduling !== "immediate";
	const defaultActions = TOOL_ACTIONS.filter((a) => a !== "unmark" || marks);
	return {
		...o,
		summarizer: o.summarizeContextSpan ? "custom" : (o.summarizer ?? "session"),
		foldPeekResults: o.foldPeekResults ?? marks,
		toolActions: o.toolActions ?? defaultActions,
		readOnlyTools: o.readOnlyTools ?? DEFAULT_READ_ONLY_TOOLS,
		commandNames: commandNamesOf(o.commandPrefix, o.commandNames),
	};
}

/** Custom entry types, status sources and directories derived from `entryTypePrefix`. */
export function derivedNames(options: Pick<ResolvedOptions, "entryTypePrefix">) {
	const p = options.entryTypePrefix;
	return {
		decisionEntryType: `${p}:decision`,
		measurementEntryType: `${p}:measurement`,
		compactionEntryType: `${p}:compaction`,
		statusSource: p,
		storeDirName: "pi-fold-store",
	} as const;
}
