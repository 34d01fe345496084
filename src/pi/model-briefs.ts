// Model-written briefs for the ladder's chapter, span and consolidation folds, per the `summarizer`
// option: "session" asks the live session model (one bounded request, no tools, no cache
// retention) through `ctx.modelRegistry`; `{ provider, model, effort }` resolves that model through
// the registry (not found: one out-of-band error and the deterministic brief); "deterministic" makes
// no call; `summarizeContextSpan` is the custom generator ("supplied" provenance). Every failure,
// timeout or malformed result falls back to the deterministic brief (src/briefs `summarizeSpan`).
// Usage is counted in the runtime's telemetry for status: an extension cannot append Pi's `usage`
// session entry (no boundary draft type for it, and its session manager is read-only).

import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { deterministicBrief, type SummaryCall, summarizeSpan } from "../briefs/index.ts";
import { type BriefedKind, foldId } from "../lattice/index.ts";
import type { BriefOut, FoldRuntime } from "../runtime/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { notifierFor } from "./notify.ts";

/** A summary call through Pi's model registry for `model` (text only; usage and tool calls reported). */
function registryCall(ctx: ExtensionContext, model: Model<Api>, effort: string | undefined): SummaryCall {
	return async ({ system, prompt, maxTokens, signal }) => {
		const stream = ctx.modelRegistry.streamSimple(
			model,
			{ systemPrompt: system, messages: [{ role: "user", content: prompt, timestamp: Date.now() }] },
			{ maxTokens, signal, cacheRetention: "none", ...(effort ? { reasoning: effort as never } : {}) },
		);
		const message: AssistantMessage = await stream.result();
		if (message.stopReason === "error" || message.stopReason === "aborted")
			throw new Error(message.errorMessage ?? `the model stopped with ${message.stopReason}`);
		const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
		return {
			text,
			provider: model.provider,
			model: model.id,
			effort,
			toolCalls: message.content.filter((b) => b.type === "toolCall").length,
			usage: {
				input: message.usage.input,
				output: message.usage.output,
				cacheRead: message.usage.cacheRead,
				cacheWrite: message.usage.cacheWrite,
			},
		};
	};
}

/** The summary call the options ask for, or undefined for deterministic briefs (with why, if it is an error). */
function callFor(runtime: FoldRuntime, ctx: ExtensionContext, foldIdOf: string, kind: BriefedKind) {
	const s = runtime.options.summarizer;
	if (s === "deterministic") return { call: undefined, source: "model" as const };
	if (s === "custom") {
		const custom = runtime.options.summarizeContextSpan;
		if (!custom) return { call: undefined, source: "supplied" as const };
		const call: SummaryCall = async ({ prompt, signal }) => {
			const r = await custom({ foldId: foldIdOf, kind, source: prompt, signal });
			return { text: r.brief, provider: r.provider, model: r.model, effort: r.effort, toolCalls: r.toolCalls };
		};
		return { call, source: "supplied" as const };
	}
	if (s === "session") {
		const model = ctx.model as Model<Api> | undefined;
		if (!model) return { call: undefined, source: "model" as const, error: "no session model" };
		return { call: registryCall(ctx, model, undefined), source: "model" as const };
	}
	const model = ctx.modelRegistry.find(s.provider, s.model);
	if (!model)
		return {
			call: undefined,
			source: "model" as const,
			error: `summarizer model ${s.provider}/${s.model} is not in Pi's model registry; briefs fall back to the deterministic brief`,
		};
	return { call: registryCall(ctx, model, s.effort), source: "model" as const };
}

/** The brief writer the runtime uses for ladder folds that get a model-written brief. */
export function briefWriterFor(
	runtime: FoldRuntime,
	timeoutMs?: number,
): (
	ctx: ExtensionContext,
	leaves: readonly TranscriptEntry[],
	kind: BriefedKind,
	shown?: readonly TranscriptEntry[],
) => Promise<BriefOut> {
	return async (ctx, leaves, kind, shown) => {
		const chosen = callFor(runtime, ctx, foldId(leaves), kind);
		if ("error" in chosen && chosen.error)
			runtime.notifyOnce(
				{ notify: notifierFor(ctx) },
				`summarizer:${chosen.error}`,
				`${runtime.options.brandNoun}: ${chosen.error}`,
				"error",
			);
		if (!chosen.call) return { brief: deterministicBrief(leaves), source: "deterministic" };
		const result = await summarizeSpan(leaves, chosen.call, {
			source: chosen.source,
			shown,
			...(timeoutMs !== undefined ? { timeoutMs } : {}),
		});
		const fellBack = result.provenance.source === "deterministic";
		runtime.telemetry.recordBrief({
			fellBack,
			reason: result.provenance.fallbackReason,
			usage: result.provenance.usage,
		});
		return { brief: result.brief, source: result.provenance.source };
	};
}
