// The human commands: /context (a readable status: folds and the window band) and
// /fold-context <fold|expand|refold|peek> <id> [...] (names from options.commandNames). They record
// decisions that the next turn boundary commits, and say so; `/fold-context config` shows each
// effective option and where it came from. Output goes to the UI (notify) or, without a UI
// (print/json mode), to stdout; never into the model's window.

import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { callTool, renderConfig, renderStatus, statusModel } from "../runtime/index.ts";
import type { PiFold } from "./host.ts";
import { displayPath, type PiFoldSettings } from "./settings.ts";

function show(ctx: ExtensionCommandContext, text: string, level: "info" | "warning" | "error" = "info"): void {
	if (ctx.hasUI) ctx.ui.notify(text, level);
	else process.stdout.write(`${text}\n`);
}

const VERBS = ["fold", "expand", "refold", "peek"] as const;

/** Parses `/fold-context` arguments into tool arguments, or returns a usage error. */
function parseFoldCommand(
	args: string,
): { ok: true; raw: Record<string, unknown> } | { ok: false; error: string } {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const [verb, id, ...rest] = words;
	const usage =
		"usage: fold <from-id> [to-id] [brief...] | expand <fold-id> | refold <fold-id> | peek <fold-id> [offset] [bytes] | config";
	if (!verb || !(VERBS as readonly string[]).includes(verb) || !id) return { ok: false, error: usage };
	if (verb === "fold") {
		const [to, ...brief] = rest;
		return {
			ok: true,
			raw: { action: "fold", from: id, to: to ?? id, ...(brief.length > 0 ? { brief: brief.join(" ") } : {}) },
		};
	}
	if (verb === "peek") {
		const [offset, bytes] = rest.map(Number);
		if ((offset !== undefined && !Number.isInteger(offset)) || (bytes !== undefined && !Number.isInteger(bytes)))
			return { ok: false, error: usage };
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
	return { ok: true, raw: { action: verb, id } };
}

export function registerCommands(pi: ExtensionAPI, piFold: PiFold, settings: PiFoldSettings): void {
	const { runtime } = piFold;
	const { status, fold } = runtime.options.commandNames;
	pi.registerCommand(status, {
		description: "Show pi-fold's folds, the window's occupancy of the serving budget and the cache counters",
		handler: async (args, ctx) => {
			try {
				const detail = args.trim() === "tree" ? "tree" : "summary";
				show(ctx, renderStatus(statusModel(runtime, piFold.host(ctx)), { detail }).text);
			} catch (error) {
				show(ctx, `/${status} failed: ${errorMessage(error)}`, "error");
			}
		},
	});
	pi.registerCommand(fold, {
		description: "Fold, expand, refold or peek by handle: fold <from> [to] [brief] | expand|refold|peek <fold-id>",
		getArgumentCompletions: (prefix) => {
			const words = prefix.trimStart().split(/\s+/);
			if (words.length > 1) return null;
			return VERBS.filter((v) => v.startsWith(words[0] ?? "")).map((v) => ({ value: `${v} `, label: v }));
		},
		handler: async (args, ctx) => {
			if (args.trim() === "config") return show(ctx, renderConfig(settings.current, displayPath));
			const parsed = parseFoldCommand(args);
			if (!parsed.ok) {
				show(ctx, `/${fold}: ${parsed.error}`, "warning");
				return;
			}
			const result = await callTool(runtime, piFold.host(ctx), parsed.raw, "human");
			show(ctx, result.text, result.isError ? "warning" : "info");
		},
	});
}
