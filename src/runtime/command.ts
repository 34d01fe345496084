// The human's `/fold-context` command as the runtime runs it, with no host of its own: its words
// parsed into the context tool's arguments (fold <first> [last] [brief] | expand|refold|unmark
// <fold-id> | peek <fold-id> [offset] [bytes] | search [--page <n>] [--regex] [--fold <fold-id>] <text> | expand-all
// | adopt | config [all]), then
// run through the same path as the agent's tool (`callTool`, actor "human"), `expandAll` or `adoptHeld`. The Pi adapter
// (src/pi/commands.ts) shows the reply; the simulator (src/simulate) types the same words. Pure
// apart from the decisions the actions record through the host.

import type { FoldState } from "../state/index.ts";
import { callTool } from "./actions/index.ts";
import { adoptHeld } from "./adopt.ts";
import { expandAll } from "./expand-all.ts";
import type { Host } from "./ports.ts";
import type { RuntimePort } from "./runtime-port.ts";

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
	| { ok: true; config: true; all: boolean }
	| { ok: false; error: string };

/** Each subcommand's arguments and what it does, one line each, in completion order. */
const SUBCOMMAND_HELP: Readonly<Record<(typeof FOLD_COMMAND_VERBS)[number], readonly [string, string]>> = {
	fold: ["fold <first-id> [last-id] [brief...]", "fold entries (ids: /context entries)"],
	expand: ["expand <fold-id>", "bring a fold's original back"],
	"expand-all": ["expand-all", "bring every fold back"],
	refold: ["refold <fold-id>", "fold an expanded fold again"],
	peek: ["peek <fold-id> [offset] [bytes]", "read part of a fold's original"],
	unmark: ["unmark <fold-id>", "withdraw a fold not yet landed"],
	search: ["search [--page <n>] <text>", "search the folded history"],
	adopt: ["adopt", "accept records held for review"],
	config: ["config [all]", "show the settings"],
};

/** The command's usage: `first` (what was wrong), then one line per subcommand. */
function usageText(name: string, first: string): string {
	const lines = Object.values(SUBCOMMAND_HELP).map(([args, what]) => `  ${args.padEnd(37)} ${what}`);
	return [`${first} Subcommands of /${name}:`, ...lines].join("\n");
}

/** Parses `/fold-context` arguments into tool arguments (or the config view), or a usage error. */
export function parseFoldCommand(args: string, name = "fold-context"): ParsedFoldCommand {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const [verb, id, ...rest] = words;
	const error = (first: string): ParsedFoldCommand => ({ ok: false, error: usageText(name, first) });
	if (verb === undefined) return error(`/${name} needs a subcommand.`);
	if (!(FOLD_COMMAND_VERBS as readonly string[]).includes(verb))
		return error(`/${name}: "${verb}" is not a subcommand.`);
	const extra = (from: number) => error(`/${name} ${verb}: unexpected "${words.slice(from).join(" ")}".`);
	if (verb === "config") {
		if (words.length === 1 || (words.length === 2 && id === "all"))
			return { ok: true, config: true, all: id === "all" };
		return extra(1);
	}
	if (verb === "search") {
		if (!id) return error(`/${name} search needs the text to search for.`);
		return parseSearch(args.trim().slice(6).trim(), (first) => error(`/${name} search: ${first}`));
	}
	if (!id) {
		const needs = verb === "fold" ? "an entry id (/context entries lists them)" : "a fold id (/context lists them)";
		return error(`/${name} ${verb} needs ${needs}.`);
	}
	if (verb === "fold") {
		const [to, ...brief] = rest;
		return {
			ok: true,
			raw: { action: "fold", from: id, to: to ?? id, ...(brief.length > 0 ? { brief: brief.join(" ") } : {}) },
		};
	}
	if (verb === "peek") {
		const bad = rest.findIndex((w) => !/^\d+$/.test(w));
		if (bad >= 0) return error(`/${name} peek: "${rest[bad]}" is not a number (offset and bytes are).`);
		if (rest.length > 2) return extra(4);
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
	return rest.length > 0 ? extra(2) : { ok: true, raw: { action: verb, id } };
}

/** The fold ids a subcommand takes, for tab completion: folds in force, expanded folds or pending marks. */
export function foldIdsFor(verb: string, state: FoldState): string[] {
	const { folds, expanded, pendingMarks } = state;
	switch (verb) {
		case "expand":
			return [...folds.keys()].filter((id) => !expanded.has(id));
		case "refold":
			return [...expanded];
		case "peek":
			return [...folds.keys()];
		case "unmark":
			return [...pendingMarks.keys()];
		default:
			return [];
	}
}

/** `search [--page <n>] [--regex] [--fold <fold-id>] <text>`: the options the next-page command names, then the text. */
function parseSearch(rest: string, error: (first: string) => ParsedFoldCommand): ParsedFoldCommand {
	const raw: Record<string, unknown> = { action: "search" };
	let text = rest;
	for (;;) {
		const option = /^--(page|fold)\s+(\S+)\s+|^--(regex)\s+/.exec(text);
		if (!option) break;
		if (option[3]) raw.regex = true;
		else if (option[1] === "page") {
			if (!/^[1-9]\d*$/.test(option[2] as string)) return error(`--page takes a page number, got "${option[2]}".`);
			raw.page = Number(option[2]);
		} else raw.fold = option[2];
		text = text.slice(option[0].length);
	}
	return text ? { ok: true, raw: { ...raw, pattern: text } } : error("it needs the text to search for.");
}

/** What a command run shows the human: a text at a level, or the config view (the adapter renders it). */
export type FoldCommandReply = { text: string; level: "info" | "warning" } | { config: true; all: boolean };

/** Runs `/fold-context <args>` for the human: adopt, or the parsed action through the tool's path. */
export async function runFoldCommand(runtime: RuntimePort, host: Host, args: string): Promise<FoldCommandReply> {
	const name = runtime.options.commandNames.fold;
	if (args.trim() === "adopt") return { text: (await adoptHeld(runtime, host)).text, level: "info" };
	if (args.trim() === "expand-all") {
		const result = await expandAll(runtime, host);
		return { text: result.text, level: result.isError ? "warning" : "info" };
	}
	const parsed = parseFoldCommand(args, name);
	if (!parsed.ok) return { text: parsed.error, level: "warning" };
	if ("config" in parsed) return { config: true, all: parsed.all };
	if (parsed.raw.action === "unmark" && runtime.options.foldScheduling === "immediate")
		return { text: `/${name} unmark: immediate scheduling has no marks; nothing changed`, level: "warning" };
	const result = await callTool(runtime, host, parsed.raw, "human");
	return { text: result.text, level: result.isError ? "warning" : "info" };
}
