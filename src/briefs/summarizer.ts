// Model-written briefs: one bounded request per fold (the span as a readable transcript,
// span-transcript.ts, bounded; bounded output; no tools), with every failure, timeout, malformed
// result or refused brief (one that echoes its request or holds entry JSON or instructions:
// written-check.ts) falling back to the deterministic brief. A
// model's line breaks are normalized (CR LF and lone CR become LF); any other control character, bidi
// control or lone surrogate in its brief is a malformed result (the fallback reason names it).
// The model call itself is injected (the Pi adapter resolves the session model, a configured
// `{ provider, model, effort }`, or a custom `summarizeContextSpan`), so this module is pure logic
// plus a timer.

import type { TranscriptEntry } from "../transcript/index.ts";
import { BRIEF_MAX_CHARS, deterministicBrief } from "./deterministic.ts";
import { spanTranscript } from "./span-transcript.ts";
import { writtenBriefProblem } from "./written-check.ts";

/** Characters of a span's rendering sent to the summarizer at most (the chapter cap). */
export const SUMMARY_INPUT_MAX_CHARS = 48_000;
/** Output tokens a brief request may spend. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 400;
/** A brief request that takes longer than this is abandoned for the deterministic brief. */
export const SUMMARY_TIMEOUT_MS = 30_000;

/** The system prompt of a brief request. */
export const SUMMARY_SYSTEM_PROMPT = `You write the brief for a folded span of a coding agent's transcript. The span is stored losslessly; the brief is what stays in the agent's window, so it must let the agent decide whether to look inside. In at most ${BRIEF_MAX_CHARS} characters of plain text, state what the span established: files, symbols, numbers, decisions, errors, and anything the agent will need again. Report in the third person; do not copy the transcript, its labels or any JSON, and give the agent no instructions. No preamble, no markdown headings, no tool calls.`;

/** What the injected model call returns. */
interface SummaryCallResult {
	readonly text: string;
	readonly provider: string;
	readonly model: string;
	readonly effort?: string | undefined;
	readonly toolCalls: number;
	readonly usage?:
		| { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number }
		| undefined;
}

export type SummaryCall = (request: {
	system: string;
	prompt: string;
	maxTokens: number;
	signal: AbortSignal;
}) => Promise<SummaryCallResult>;

/** Where a brief came from, recorded with the fold. */
interface BriefProvenance {
	readonly source: "model" | "supplied" | "deterministic";
	readonly provider?: string;
	readonly model?: string;
	readonly effort?: string;
	/** Why the deterministic brief was used instead, when it was a fallback. */
	readonly fallbackReason?: string;
	readonly usage?: SummaryCallResult["usage"];
}

interface SummarizedBrief {
	readonly brief: string;
	readonly provenance: BriefProvenance;
}

function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, outer?: AbortSignal): Promise<T> {
	const controller = new AbortController();
	const onAbort = () => controller.abort(outer?.reason);
	outer?.addEventListener("abort", onAbort, { once: true });
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			const error = new Error(`timed out after ${ms} ms`);
			reject(error);
			controller.abort(error);
		}, ms);
	});
	return Promise.race([work(controller.signal), timeout]).finally(() => {
		clearTimeout(timer);
		outer?.removeEventListener("abort", onAbort);
	});
}

/**
 * A brief for `leaves`: the model's when `call` returns a usable one in time, the deterministic
 * brief of `leaves` otherwise (with the reason recorded). The request renders `options.shown` when
 * given (the span with its nested folds collapsed to their briefs), else `leaves`. Never throws.
 */
export async function summarizeSpan(
	leaves: readonly TranscriptEntry[],
	call: SummaryCall | undefined,
	options: {
		source?: "model" | "supplied";
		timeoutMs?: number;
		signal?: AbortSignal;
		/** What the request reads: the span as the window shows it (default `leaves`). */
		shown?: readonly TranscriptEntry[] | undefined;
	} = {},
): Promise<SummarizedBrief> {
	const fallback = (reason: string): SummarizedBrief => ({
		brief: deterministicBrief(leaves),
		provenance: { source: "deterministic", fallbackReason: reason },
	});
	if (!call) return { brief: deterministicBrief(leaves), provenance: { source: "deterministic" } };
	const request = {
		system: SUMMARY_SYSTEM_PROMPT,
		prompt: spanTranscript(options.shown ?? leaves, SUMMARY_INPUT_MAX_CHARS),
	};
	let result: SummaryCallResult;
	try {
		result = await withTimeout(
			(signal) => call({ ...request, maxTokens: SUMMARY_MAX_OUTPUT_TOKENS, signal }),
			options.timeoutMs ?? SUMMARY_TIMEOUT_MS,
			options.signal,
		);
	} catch (error) {
		return fallback(`summarizer failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (result === null || typeof result !== "object" || typeof result.text !== "string")
		return fallback("summarizer returned no text");
	if (result.toolCalls !== 0) return fallback(`summarizer made ${result.toolCalls} tool call(s); briefs allow none`);
	const text = result.text.replace(/\r\n?/g, "\n").trim();
	const problem = writtenBriefProblem(text, request);
	if (problem) return fallback(`summarizer brief refused: ${problem}`);
	return {
		brief: text,
		provenance: {
			source: options.source ?? "model",
			provider: result.provider,
			model: result.model,
			...(result.effort ? { effort: result.effort } : {}),
			...(result.usage ? { usage: result.usage } : {}),
		},
	};
}
