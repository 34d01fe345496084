// Registers the context tool (options.toolName / toolLabel): validates each call with the one zod
// schema, serializes it through the runtime's lock, dispatches to the action, and returns a text
// result. Nothing throws past the tool: a bad call or a failure comes back as an error result that
// changes nothing. The prompt snippet and guidelines name the tool on every line.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Actor } from "../state/index.ts";
import { foldAction, reboundaryAction } from "./actions/fold.ts";
import { peekAction } from "./actions/peek.ts";
import type { ActionInput, ActionResult } from "./actions/shared.ts";
import { expandAction, protectAction, rebriefAction, refoldAction, unmarkAction } from "./actions/view.ts";
import type { FoldRuntime } from "./runtime.ts";
import { statusReport } from "./status.ts";
import { parseToolArgs, type ToolArgs, toolParameters } from "./tool-schema.ts";

/** Runs one validated action. Decisions run one at a time (the runtime's lock). */
export async function runAction(input: ActionInput, args: ToolArgs): Promise<ActionResult> {
	switch (args.action) {
		case "status":
			return statusReport(input.runtime, input.ctx, args);
		case "peek":
			return peekAction(input, args);
		case "fold":
			return input.runtime.exclusive(() => foldAction(input, args));
		case "expand":
			return input.runtime.exclusive(() => expandAction(input, args));
		case "refold":
			return input.runtime.exclusive(async () => refoldAction(input, args));
		case "protect":
		case "unprotect":
			return input.runtime.exclusive(async () => protectAction(input, args));
		case "rebrief":
			return input.runtime.exclusive(async () => rebriefAction(input, args));
		case "reboundary":
			return input.runtime.exclusive(() => reboundaryAction(input, args));
		case "unmark":
			return input.runtime.exclusive(async () => unmarkAction(input, args));
	}
}

/** Validates and runs raw arguments; never throws. */
export async function callTool(
	runtime: FoldRuntime,
	ctx: ExtensionContext,
	raw: unknown,
	actor: Actor,
): Promise<ActionResult> {
	const parsed = parseToolArgs(raw, runtime.options.toolActions);
	if (!parsed.ok)
		return { text: `${runtime.options.toolName}: ${parsed.error}`, details: { error: parsed.error }, isError: true };
	try {
		return await runAction({ runtime, ctx, actor }, parsed.args);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return {
			text: `${runtime.options.toolName} ${parsed.args.action} failed (nothing was recorded): ${message}`,
			details: { action: parsed.args.action, error: message },
			isError: true,
		};
	}
}

function description(runtime: FoldRuntime): string {
	const t = runtime.options.toolName;
	return [
		"Fold your own transcript losslessly. A fold replaces a finished span of the conversation in your context window with a short brief; the exact original stays on disk, verified by SHA-256, and comes back with peek (read it, window unchanged) or expand (restore it in place).",
		`Actions: ${runtime.options.toolActions.join(", ")}.`,
		'status: folds, window occupancy and cache counters (detail:"tree" lists every fold). peek: read a fold\'s exact source (offset/bytes page it). fold: collapse entries from..to (entry or fold ids) with an optional brief. expand/refold: open a fold one level / close it again. protect/unprotect: keep entries (ids) or a fold (id) from folding. rebrief: replace a brief. reboundary: dissolve folds back to raw, or merge adjacent folds.',
		runtime.options.foldScheduling === "epoch"
			? `fold records a free pending mark (nothing in the window moves; unmark withdraws it); the runtime commits every pending mark in one rewrite when the window needs room. Other decisions land at the next request. Name spans by entry ids (${t} status with detail "entries" lists them), by fold ids, or by your own tool call ids.`
			: `Decisions land in the window at the next request. Name spans by entry ids (${t} status with detail "entries" lists them), by fold ids, or by your own tool call ids.`,
	].join("\n");
}

export function registerTool(pi: ExtensionAPI, runtime: FoldRuntime): void {
	const t = runtime.options.toolName;
	pi.registerTool({
		name: t,
		label: runtime.options.toolLabel,
		description: description(runtime),
		promptSnippet: `${t}: fold finished spans of this conversation into briefs (lossless, SHA-256 verified), peek or expand them later`,
		promptGuidelines: [
			`Use ${t} fold on spans you have finished with (completed tool batches, closed sub-tasks) so the window keeps room for current work; folding is lossless, the exact original stays on disk.`,
			`When a brief from ${t} lacks a detail you need, use ${t} peek first (it reads the exact source without changing the window); use ${t} expand only when you need the span back in place.`,
			`Give ${t} fold a brief that says what the span found or decided, not which tools ran.`,
			`Use ${t} protect on entries that must stay raw, and ${t} rebrief or reboundary to fix a brief or a boundary that reads wrong.`,
		],
		parameters: toolParameters(runtime.options.toolActions) as never,
		async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
			const result = await callTool(runtime, ctx, params, "agent");
			return {
				content: [{ type: "text", text: result.text }],
				details: result.details,
				...(result.isError ? { isError: true } : {}),
			};
		},
	});
}
