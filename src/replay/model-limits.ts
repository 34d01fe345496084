// The window and the output reserve a replay runs with, and where each came from, in the words the
// report prints: the command line's, else pi-ai's catalog entry for the model the session file
// names (its replies record provider and model), else, for the reserve only, pi-fold's default
// with the reason (the file names no model, the catalog has no entry, no catalog). A session file
// does not record the window, so without --window and without an entry the replay cannot run. Pure;
// the catalog is injected (src/cli/commands/replay-model.ts loads pi-ai's through src/pi).

import { billedReplies } from "./recorded-session.ts";
import { DEFAULT_MAX_OUTPUT } from "./replay-session.ts";
import type { SessionFile } from "./session-file.ts";

/** A catalog's entry for a model: its context window and the output tokens a reply reserves. */
export type ModelLookup = (
	provider: string,
	id: string,
) => { readonly contextWindow: number; readonly maxTokens: number } | undefined;

/** The limits a replay runs with, each with where it came from. */
interface ModelLimits {
	readonly window: number;
	readonly maxOutput: number;
	readonly windowFrom: string;
	readonly maxOutputFrom: string;
}

/** The session's model, provider and id, as most of its replies name it. */
function sessionModel(file: SessionFile): { provider: string | undefined; id: string } | undefined {
	const counts = new Map<string, { provider: string | undefined; id: string; n: number }>();
	for (const { message } of billedReplies(file.branch)) {
		if (!message.model) continue;
		const key = `${message.provider ?? ""}/${message.model}`;
		const seen = counts.get(key) ?? { provider: message.provider, id: message.model, n: 0 };
		counts.set(key, { ...seen, n: seen.n + 1 });
	}
	const top = [...counts.values()].sort((a, b) => b.n - a.n)[0];
	return top ? { provider: top.provider, id: top.id } : undefined;
}

/**
 * The window and output reserve for replaying `file`: `given` (the command line's) first, then
 * `catalog`'s entry for the session's model. Throws a `LimitsError` when there is no window.
 */
export function modelLimits(
	file: SessionFile,
	given: { readonly window?: number | undefined; readonly maxOutput?: number | undefined },
	catalog: { lookup: ModelLookup } | { missing: string },
): ModelLimits {
	const model = sessionModel(file);
	const name = model ? (model.provider ? `${model.provider}/${model.id}` : model.id) : undefined;
	const entry = model?.provider && "lookup" in catalog ? catalog.lookup(model.provider, model.id) : undefined;
	const why = entry
		? ""
		: !model
			? "the file names no model"
			: !model.provider
				? `the file does not name ${name}'s provider`
				: "missing" in catalog
					? catalog.missing
					: `pi-ai's model list has no entry for ${name}`;
	const fromEntry = `from pi-ai's entry for ${name}`;
	const window = given.window ?? entry?.contextWindow;
	if (window === undefined)
		throw new LimitsError(
			`--window N is required: a session file does not record the model's context window, and ${why}`,
		);
	const maxOutput = given.maxOutput ?? entry?.maxTokens ?? DEFAULT_MAX_OUTPUT;
	return {
		window,
		maxOutput,
		windowFrom: given.window !== undefined ? "--window" : fromEntry,
		maxOutputFrom:
			given.maxOutput !== undefined
				? "--max-output"
				: entry
					? fromEntry
					: `pi-fold's default, since ${why}; --max-output N sets the model's own`,
	};
}

/** No window for the replay (the bin reports it as a usage error). */
export class LimitsError extends Error {
	override name = "LimitsError";
}
