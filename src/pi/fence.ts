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

/** Per-message estimates of the last request, by message digest, and the last system prompt's. */
const estimates = new WeakMap<FoldRuntime, { byDigest: Map<string, number>; system: string; systemTokens: number }>();

/**
 * The request's estimated size: `requestMessageTokens` per message, reusing the previous request's
 * estimate of any message whose digest is unchanged (between commits every request is the previous
 * one plus appended messages, so only the new ones are estimated), plus the system prompt.
 */
function estimateRequest(
	runtime: FoldRuntime,
	ctx: ExtensionContext,
	messages: readonly unknown[],
	digests: readonly Uint8Array[],
): number {
	const previous = estimates.get(runtime);
	const byDigest = new Map<string, number>();
	let total = 0;
	messages.forEach((message, i) => {
		const key = Buffer.from(digests[i] as Uint8Array).toString("hex");
		const tokens = byDigest.get(key) ?? previous?.byDigest.get(key) ?? requestMessageTokens([message]);
		byDigest.set(key, tokens);
		total += tokens;
	});
	const system = ctx.getSystemPrompt?.() ?? "";
	const systemTokens = previous && previous.system === system ? previous.systemTokens : estimateTokens(system);
	estimates.set(runtime, { byDigest, system, systemTokens });
	return total + systemTokens;
}

/** Checks one request; aborts it when over budget. Returns true when it was aborted. */
export function fenceRequest(
	runtime: FoldRuntime,
	ctx: ExtensionContext,
	messages: readonly unknown[],
	digests: readonly Uint8Array[],
): boolean {
	const budget = budgetFor(ctx.model, runtime.options.providerTotalWindow);
	const tokens = estimateRequest(runtime, ctx, messages, digests);
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
