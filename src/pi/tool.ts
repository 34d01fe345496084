// Registers the context tool (options.toolName / toolLabel) with Pi: its description, prompt
// snippet and guidelines (each naming the tool), the parameter JSON Schema generated from the one
// zod schema, and `execute`, which hands the raw arguments to the runtime's `callTool` (validation,
// the lock, the action) with a host for the call. Nothing throws past the tool.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { callTool, type FoldRuntime, toolParameters } from "../runtime/index.ts";
import type { PiFold } from "./host.ts";

function description(runtime: FoldRuntime): string {
	const t = runtime.options.toolName;
	return [
		"Fold your own transcript losslessly. A fold replaces a finished span of the conversation in your context window with a short brief; the exact original stays on disk, verified by SHA-256, and comes back with peek (read it, window unchanged) or expand (restore it in place).",
		`Actions: ${runtime.options.toolActions.join(", ")}.`,
		'status: folds, window occupancy and cache counters (detail:"tree" lists every fold). search: find text (or a regex with regex:true) in the exact sources of every fold, each verified by SHA-256 before any byte is shown; each match gives its fold, entry, byte offset, an excerpt and a ready peek call. peek: read a fold\'s exact source (offset/bytes page it). fold: collapse entries from..to (entry or fold ids) with an optional brief. expand/refold: open a fold one level / close it again. protect/unprotect: keep entries (ids) or a fold (id) from folding. rebrief: replace a brief. reboundary: dissolve folds back to raw, or merge adjacent folds.',
		runtime.options.foldScheduling !== "immediate"
			? `fold records a free pending mark (nothing in the window moves; unmark withdraws it); the runtime commits every pending mark in one rewrite when the window needs room. Other decisions land at the next request. Name spans by entry ids (${t} status with detail "entries" lists them), by fold ids, or by your own tool call ids.`
			: `Decisions land in the window at the next request. Name spans by entry ids (${t} status with detail "entries" lists them), by fold ids, or by your own tool call ids.`,
	].join("\n");
}

export function registerTool(pi: ExtensionAPI, fold: PiFold): void {
	const { runtime } = fold;
	const t = runtime.options.toolName;
	pi.registerTool({
		name: t,
		label: runtime.options.toolLabel,
		description: description(runtime),
		promptSnippet: `${t}: fold finished spans of this conversation into briefs (lossless, SHA-256 verified), search, peek or expand them later`,
		promptGuidelines: [
			`Use ${t} fold on spans you have finished with (completed tool batches, closed sub-tasks) so the window keeps room for current work; folding is lossless, the exact original stays on disk.`,
			`When you need a detail from folded history, use ${t} search first (one call scans every fold's verified source and points at the exact offset), then ${t} peek at that offset (it reads the exact source without changing the window); use ${t} expand only when you need the span back in place.`,
			`Give ${t} fold a brief that says what the span found or decided, not which tools ran.`,
			`Use ${t} protect on entries that must stay raw, and ${t} rebrief or reboundary to fix a brief or a boundary that reads wrong.`,
		],
		parameters: toolParameters(runtime.options.toolActions) as never,
		async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
			const result = await callTool(runtime, fold.host(ctx), params, "agent");
			return {
				content: [{ type: "text", text: result.text }],
				details: result.details,
				...(result.isError ? { isError: true } : {}),
			};
		},
	});
}
