// Handling `turn_end` only where it may commit. Pi builds a preview of the whole branch for every
// `turn_end` that has a handler (twice: before the handlers and after each, an in-memory copy of the
// branch each time), then rebuilds its own context: on a long session that was most of each
// request's time, and almost every boundary commits nothing. So pi-fold's `turn_end` handler is
// registered only for a turn whose boundary may commit. At the `message_end` of the turn's last tool
// result (Pi appends that message right after its `message_end` handlers, then ends the turn), the
// runtime forecasts the boundary (runtime.ts `forecast`: the same decision on the branch with that
// message in hand, and the next request's size as the preview will hold it: Pi's projection, kept
// as entries are appended by projection-tokens.ts, with that message after it). The handler is
// taken off only when the forecast is that nothing commits, and put back at the next reply, or as
// soon as a decision is recorded after the forecast (the human's command while a tool runs:
// boundary-hooks.ts). A reply without tool calls, a turn whose results do not all arrive, and any
// forecast that fails keep the handler. The forecast reads the result as pi-fold's own `message_end`
// handler gets it: an extension registered after pi-fold that replaces the message there is not
// seen. The audit seam (tests) keeps the handler always and reports each turn's forecast beside what
// its boundary did.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { convertToLlm } from "@earendil-works/pi-coding-agent";
import { requestMessageTokens } from "../policy/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import { projectionTokens } from "./branch.ts";
import type { PiFold } from "./host.ts";

/**
 * One turn as the audit sees it: the forecast made for its boundary (null: none), whether the
 * boundary did anything (drafts returned, or a record appended: an excerpt, an unmark), and the
 * estimated tokens of the boundary preview's messages beside those the forecast reads.
 */
export interface BoundaryAuditEntry {
	readonly forecast: boolean | null;
	readonly committed: boolean;
	readonly previewTokens: number;
	readonly trackedTokens: number;
}

export type BoundaryAudit = (entry: BoundaryAuditEntry) => void;

/** The ids of the tool calls in an assistant message. */
function toolCallIds(message: { content?: unknown }): Set<string> {
	const ids = new Set<string>();
	if (!Array.isArray(message.content)) return ids;
	for (const block of message.content as { type?: string; id?: unknown }[])
		if (block.type === "toolCall" && typeof block.id === "string") ids.add(block.id);
	return ids;
}

/**
 * Registers the forecast: `arm(true)` when a reply arrives, `arm(false, ctx)` when the turn's
 * boundary cannot commit. Returns the forecast of the turn in progress, for the audit.
 */
export function registerTurnEndForecast(
	pi: ExtensionAPI,
	fold: PiFold,
	arm: (may: boolean, ctx: ExtensionContext) => void,
): () => boolean | null {
	let waiting: Set<string> | null = null;
	let forecast: boolean | null = null;
	pi.on("message_end", async (event, ctx) => {
		const message = event.message as { role?: string; content?: unknown; toolCallId?: unknown };
		if (message.role === "assistant") {
			const ids = toolCallIds(message);
			waiting = ids.size > 0 ? ids : null;
			forecast = null;
			arm(true, ctx);
			return undefined;
		}
		if (message.role !== "toolResult" || !waiting || typeof message.toolCallId !== "string") return undefined;
		if (!waiting.delete(message.toolCallId) || waiting.size > 0) return undefined;
		waiting = null;
		try {
			// The preview's messages as the runtime counts them: Pi's projection of the branch (kept as
			// entries are appended, projection-tokens.ts), and the result in hand after it.
			const { runtime } = fold;
			const next =
				projectionTokens(ctx.sessionManager, runtime.names.decisionEntryType, runtime.receiptType) +
				requestMessageTokens(convertToLlm([event.message]));
			forecast = await fold.runtime.forecast(fold.host(ctx), "turn_end", next, [
				event.message as unknown as TranscriptMessage,
			]);
		} catch {
			// A forecast that fails forecasts nothing: the boundary runs as it always did.
			forecast = true;
		}
		arm(forecast, ctx);
		return undefined;
	});
	return () => forecast;
}
