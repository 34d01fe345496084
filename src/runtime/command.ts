// The human's `/fold-context` command as the runtime runs it, with no host of its own: its words
// parsed into the context tool's arguments (fold <first> [last] [brief] | expand|refold|unmark
// <fold-id> | peek <fold-id> [offset] [bytes] | search [--page <n>] <text> | expand-all | adopt | config), then
// run through the same path as the agent's tool (`callTool`, actor "human"), `expandAll` or `adoptHeld`. The Pi adapter
// (src/pi/commands.ts) shows the reply; the simulator (src/simulate) types the same words. Pure
// apart from the decisions the actions record through the host.

import { callTool } from "./actions/index.ts";
import { adoptHeld } from "./adopt.ts";
import { expandAll } from "./expand-all.ts";
import type { Host } from "./ports.ts";
import type { FoldRuntime } from "./runtime.ts";

/** The command's verbs, in the order its completion offers them. */
export const FOLD_COMMAND_VERBS = [
	"fold",
	"expand",
	"expand-all",
	"refold",
	"peek",
	"unmark",
	"search",
	"adopt",
	"config",
] as const;

export type ParsedFoldCommand =
	| { ok: true; raw: Record<string, unknown> }
	| { ok: true; config: true }
	| { ok: false; error: string };

/** Parses `/fold-context` arguments into tool arguments (or the config view), or a usage error. */
export function parseFoldCommand(args: string, name = "fold-context"): ParsedFoldCommand {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const [verb, id, ...rest] = words;
	const usage = `usage: /${name} fold <first-id> [last-id] [brief...] | expand <fold-id> | refold <fold-id> | peek <fold-id> [offset] [bytes] | unmark <fold-id> | search <text> | expand-all | adopt | config`;
	if (verb === "config") return words.length === 1 ? { ok: true, config: true } : { ok: false, error: usage };
	if (verb === "search" && id) return parseSearch(args.trim().slice(6).trim(), usage);
	if (!verb || !(FOLD_COMMAND_VERBS as readonly string[]).includes(verb) || !id) return { ok: false, error: usage };
	if (verb === "fold") {
		const [to, ...brief] = rest;
		return {
			ok: true,
			raw: { action: "fold", from: id, to: to ?? id, ...(brief.length > 0 ? { brief: brief.join(" ") } : {}) },
		};
	}
	if (verb === "peek") {
		if (rest.some((w) => !/^\d+$/.test(w)) || rest.length > 2) return { ok: false, error: usage };
		const [offset, bytes] = rest.map(Number);
		return {
			ok: true,
			raw: {
				action: "peek",
				id,
				...(offset !== undefined ? { offset } : {}),
				...(bytes !== undefined ? { bytes } : {}),
			},
		};
	}
	return rest.length > 0 ? { ok: false, error: usage } : { ok: true, raw: { action: verb, id } };
}

/** `search [--page <n>] [--regex] [--fold <fold-id>] <text>`: the options the next-page command names, then the text. */
function parseSearch(rest: string, usage: string): ParsedFoldCommand {
	const raw: Record<string, unknown> = { action: "search" };
	let text = rest;
	for (;;) {
		const option = /^--(page|fold)\s+(\S+)\s+|^--(regex)\s+/.exec(text);
		if (!option) break;
		if (option[3]) raw.regex = true;
		else if (option[1] === "page") {
			if (!/^[1-9]\d*$/.test(option[2] as string)) return { ok: false, error: usage };
			raw.page = Number(option[2]);
		} else raw.fold = option[2];
		text = text.slice(option[0].length);
	}
	return text ? { ok: true, raw: { ...raw, pattern: text } } : { ok: false, error: usage };
}

/** What a command run shows the human: a text at a level, or the config view (the adapter renders it). */
export type FoldCommandReply = { text: string; level: "info" | "warning" } | { config: true };

/** Runs `/fold-context <args>` for the human: adopt, or the parsed action through the tool's path. */
export async function runFoldCommand(runtime: FoldRuntime, host: Host, args: string): Promise<FoldCommandReply> {
	const name = runtime.options.commandNames.fold;
	if (args.trim() === "adopt") return { text: (await adoptHeld(runtime, host)).text, level: "info" };
	if (args.trim() === "expand-all") {
		const result = await expandAll(runtime, host);
		return { text: result.text, level: result.isError ? "warning" : "info" };
	}
	const parsed = parseFoldCommand(args, name);
	if (!parsed.ok) return { text: parsed.error, level: "warning" };
	if ("config" in parsed) return { config: true };
	if (parsed.raw.action === "unmark" && runtime.options.foldScheduling === "immediate")
		return { text: `/${name} unmark: immediate scheduling has no marks; nothing changed`, level: "warning" };
	const result = await callTool(runtime, host, parsed.raw, "human");
	return { text: result.text, level: result.isError ? "warning" : "info" };
}
