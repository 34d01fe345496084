// The human commands (names from options.commandNames). `/context [details|tree|entries] [page]`:
// the plain-words views (src/runtime/status: a headline with the window as Pi's footer shows it,
// then folds, the fold tree or the unfolded entries; the details behind it). `/fold-context
// <fold|expand|refold|peek|unmark> ...` records a decision the agent's next turn brings into the
// model's context, and says so in slash-command words; `/fold-context adopt` vouches for held
// decision records; `/fold-context search <text>` searches folded history (recording nothing);
// `/fold-context config` shows each effective option and where it came from.
// Output goes to the UI (notify) or, without a UI (print/json mode), to stdout, with unsafe
// characters escaped visibly; never into the model's window.

import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { errorMessage, escapeUnsafe } from "../common/index.ts";
import {
	adoptHeld,
	CONTEXT_VIEWS,
	type ContextView,
	callTool,
	renderConfig,
	renderContext,
	renderDetails,
	statusModel,
} from "../runtime/index.ts";
import type { PiFold } from "./host.ts";
import { refreshFooter } from "./notices.ts";
import { displayPath, type PiFoldSettings } from "./settings.ts";

function show(ctx: ExtensionCommandContext, raw: string, level: "info" | "warning" | "error" = "info"): void {
	const text = escapeUnsafe(raw);
	if (ctx.hasUI) ctx.ui.notify(text, level);
	else process.stdout.write(`${text}\n`);
}

const VERBS = ["fold", "expand", "refold", "peek", "unmark", "search", "adopt", "config"] as const;

type Parsed = { ok: true; raw: Record<string, unknown> } | { ok: true; config: true } | { ok: false; error: string };

/** Parses `/fold-context` arguments into tool arguments (or the config view), or a usage error. */
function parseFoldCommand(args: string, name = "fold-context"): Parsed {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const [verb, id, ...rest] = words;
	const usage = `usage: /${name} fold <first-id> [last-id] [brief...] | expand <fold-id> | refold <fold-id> | peek <fold-id> [offset] [bytes] | unmark <fold-id> | search <text> | adopt | config`;
	if (verb === "config") return words.length === 1 ? { ok: true, config: true } : { ok: false, error: usage };
	if (verb === "search" && id) return { ok: true, raw: { action: "search", pattern: args.trim().slice(6).trim() } };
	if (!verb || !(VERBS as readonly string[]).includes(verb) || !id) return { ok: false, error: usage };
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

/** Parses `/context` arguments: a view and a page, or a usage error. */
function parseContextCommand(
	args: string,
	name = "context",
): { ok: true; view: ContextView; page?: number } | { ok: false; error: string } {
	const words = args.trim().split(/\s+/).filter(Boolean);
	const usage = `usage: /${name} [details | tree | entries] [page]`;
	const number = (w: string | undefined) => (w !== undefined && /^[1-9]\d*$/.test(w) ? Number(w) : undefined);
	const [first, second, ...more] = words;
	if (more.length > 0) return { ok: false, error: usage };
	if (first === undefined) return { ok: true, view: "summary" };
	if (number(first) !== undefined && second === undefined) return { ok: true, view: "summary", page: number(first) };
	if (!(CONTEXT_VIEWS as readonly string[]).includes(first)) return { ok: false, error: usage };
	if (second !== undefined && number(second) === undefined) return { ok: false, error: usage };
	const page = number(second);
	return { ok: true, view: first as ContextView, ...(page !== undefined ? { page } : {}) };
}

export function registerCommands(pi: ExtensionAPI, piFold: PiFold, settings: PiFoldSettings): void {
	const { runtime } = piFold;
	const { status, fold } = runtime.options.commandNames;
	pi.registerCommand(status, {
		description: "Show how full the context window is and what pi-fold folded: [details | tree | entries] [page]",
		getArgumentCompletions: (prefix) => {
			const words = prefix.trimStart().split(/\s+/);
			if (words.length > 1) return null;
			const views = CONTEXT_VIEWS.filter((v) => v !== "summary" && v.startsWith(words[0] ?? ""));
			return views.map((v) => ({ value: `${v} `, label: v }));
		},
		handler: async (args, ctx) => {
			try {
				const parsed = parseContextCommand(args, status);
				if (!parsed.ok) return show(ctx, parsed.error, "warning");
				const model = statusModel(runtime, piFold.host(ctx));
				const names = runtime.options.commandNames;
				const text =
					parsed.view === "details"
						? renderDetails(model, names)
						: renderContext(model, parsed.view, names, parsed.page);
				show(ctx, text);
			} catch (error) {
				show(ctx, `/${status} failed: ${errorMessage(error)}`, "error");
			}
		},
	});
	pi.registerCommand(fold, {
		description:
			"Fold, expand, refold, peek or unmark by id, search folded history, adopt held records, show the settings: fold <first> [last] [brief] | expand|refold|peek|unmark <fold-id> | search <text> | adopt | config",
		getArgumentCompletions: (prefix) => {
			const words = prefix.trimStart().split(/\s+/);
			if (words.length > 1) return null;
			return VERBS.filter((v) => v.startsWith(words[0] ?? "")).map((v) => ({ value: `${v} `, label: v }));
		},
		handler: async (args, ctx) => {
			if (args.trim() === "adopt") return show(ctx, (await adoptHeld(runtime, piFold.host(ctx))).text);
			const parsed = parseFoldCommand(args, fold);
			if (!parsed.ok) return show(ctx, parsed.error, "warning");
			if ("config" in parsed) return show(ctx, renderConfig(settings.current, displayPath));
			if (parsed.raw.action === "unmark" && runtime.options.foldScheduling === "immediate")
				return show(ctx, `/${fold} unmark: immediate scheduling has no marks; nothing changed`, "warning");
			const result = await callTool(runtime, piFold.host(ctx), parsed.raw, "human");
			show(ctx, result.text, result.isError ? "warning" : "info");
			refreshFooter(piFold, ctx);
		},
	});
}
