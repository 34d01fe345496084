// The human at the keyboard, for the simulator: what a person types between (or during) the agent's
// runs. A generator names `/fold-context` commands symbolically (a span by tool-call ids; a fold by
// its position among the folds the verb applies to, since fold ids exist only once the session
// runs); they are resolved against the runtime's state into the words a person would type, and run
// through the runtime's own command (`runFoldCommand`), exactly as Pi's command handler runs them.
// A manual `/compact` is the driver's (native-compaction.ts). Pure apart from the decisions the command records.

import { type FoldRuntime, type Host, runFoldCommand } from "../runtime/index.ts";

/** One `/fold-context` command, named before the session runs. */
type HumanCommand =
	| { readonly verb: "fold"; readonly from: string; readonly to: string; readonly brief?: string }
	| { readonly verb: "expand" | "refold" | "peek" | "unmark"; readonly pick: number }
	| { readonly verb: "search"; readonly text: string };

/** What the human does before a message is replayed: a `/fold-context` command, or a manual `/compact`. */
export type HumanStep = { readonly kind: "command"; readonly command: HumanCommand } | { readonly kind: "compact" };

/** A command the human typed and what it showed. */
export interface HumanLine {
	readonly words: string;
	readonly text: string;
	readonly level: string;
}

/** The fold ids a verb applies to now, oldest decision first. */
function candidates(runtime: FoldRuntime, host: Host, verb: "expand" | "refold" | "peek" | "unmark"): string[] {
	const state = runtime.snapshot(host).state;
	const folds = [...state.folds.keys()];
	if (verb === "expand") return folds.filter((id) => !state.expanded.has(id));
	if (verb === "refold") return folds.filter((id) => state.expanded.has(id));
	if (verb === "unmark") return [...state.pendingMarks.keys()];
	return [...folds, ...state.pendingMarks.keys()];
}

/** The words the human types for `command` now (after `/fold-context `), or null when no fold fits. */
export function commandWords(runtime: FoldRuntime, host: Host, command: HumanCommand): string | null {
	if (command.verb === "fold") return `fold ${command.from} ${command.to}${command.brief ? ` ${command.brief}` : ""}`;
	if (command.verb === "search") return `search ${command.text}`;
	const ids = candidates(runtime, host, command.verb);
	if (ids.length === 0) return null;
	return `${command.verb} ${ids[command.pick % ids.length]}`;
}

/** Types `command` (resolved now) and runs it through the runtime's command; null when nothing fit. */
export async function typeCommand(runtime: FoldRuntime, host: Host, command: HumanCommand): Promise<HumanLine | null> {
	const words = commandWords(runtime, host, command);
	if (words === null) return null;
	const reply = await runFoldCommand(runtime, host, words);
	if ("config" in reply) return { words, text: "(config view)", level: "info" };
	return { words, text: reply.text, level: reply.level };
}
