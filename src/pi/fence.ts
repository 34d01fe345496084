// The provider-window fence, wired: in the `context` hook (which sees every request, unlike
// `before_provider_request`, which the faux provider never fires) the request's estimated size is
// checked against the serving budget. Folds land only at boundaries, so nothing can make room inside
// a request: the boundary before it already committed everything the pressure backstop allowed. An
// over-budget request is aborted with `ctx.abort()` before transmission and the human is told out of
// band (notify with a UI, else one stderr line); the window gets nothing.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { fence } from "../policy/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import { budgetFor } from "./budget.ts";
import { requestMessageTokens } from "./ladder-input.ts";
import { type FoldRuntime, notifierFor } from "./runtime.ts";

/** Checks one request; aborts it when over budget. Returns true when it was aborted. */
export function fenceRequest(runtime: FoldRuntime, ctx: ExtensionContext, messages: readonly unknown[]): boolean {
	const budget = budgetFor(ctx.model, runtime.options.providerTotalWindow);
	const tokens = requestMessageTokens(messages) + estimateTokens(ctx.getSystemPrompt?.() ?? "");
	const verdict = fence(tokens, 0, budget);
	if (!verdict.abort || !verdict.message) return false;
	runtime.fenced.push(verdict.message);
	ctx.abort();
	notifierFor(ctx)(
		`${runtime.options.brandNoun} fence: ${verdict.message}; /compact (Pi's native compaction) can make room`,
		"error",
	);
	return true;
}
