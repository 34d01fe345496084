// The human commands (names from options.commandNames). `/context [details|tree|entries] [page]`:
// the plain-words views (src/runtime/status: a headline with the window as Pi's footer shows it,
// then folds, the fold tree or the unfolded entries; the details behind it). `/fold-context
// <fold|expand|refold|peek|unmark> ...` records a decision the agent's next turn brings into the
// model's context, and says so in slash-command words; `/fold-context expand-all` restores every
// fold of the branch (before uninstalling pi-fold: README "Uninstall"); `/fold-context adopt` vouches for held
// decision records; `/fold-context search <text>` searches folded history (recording nothing);
// `/fold-context config` shows each effective option and where it came from.
// Output goes to the UI (notify) or, without a UI (print/json mode), to stdout, with unsafe
// characters escaped visibly; never into the model's window.

import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { errorMessage, escapeUnsafe } from "../common/index.ts";
import {
	CONTEXT_VIEWS,
	type ContextView,
	FOLD_COMMAND_VERBS,
	foldIdsFor,
	renderConfig,
	renderContext,
	renderDetails,
	runFoldCommand,
	statusModel,
} from "../runtime/index.ts";
import type { PiFold } from "./host.ts";
import { refreshFooter } from "./notices.ts";
import { displayPath, type PiFoldSettings } from "./settings-loader.ts";

function show(ctx: ExtensionCommandContext, raw: string, level: "info" | "warning" | "error" = "info"): void {
	const text = escapeUnsafe(raw);
	if (ctx.hasUI) ctx.ui.notify(text, level);
	else process.stdout.write(`${text}\n`);
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
		description: "How full the context is and what was folded",
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
		description: "Fold, expand, peek or search folded history",
		getArgumentCompletions: (prefix) => {
			const words = prefix.trimStart().split(/\s+/);
			const [verb = "", id] = words;
			if (words.length === 1)
				return FOLD_COMMAND_VERBS.filter((v) => v.startsWith(verb)).map((v) => ({ value: `${v} `, label: v }));
			if (words.length > 2) return null;
			const ids = foldIdsFor(verb, runtime.foldState()).filter((f) => f.startsWith(id ?? ""));
			return ids.length === 0 ? null : ids.map((f) => ({ value: `${verb} ${f}`, label: f }));
		},
		handler: async (args, ctx) => {
			const reply = await runFoldCommand(runtime, piFold.host(ctx), args);
			if ("config" in reply) return show(ctx, renderConfig(settings.current, displayPath, reply.all));
			show(ctx, reply.text, reply.level);
			refreshFooter(piFold, ctx);
		},
	});
}
