// The scripted agent: a faux response factory that decides every step from what the provider was actually sent.
// It has no memory of its own: the stage it works on, the files still to read, the key for the next stage and
// every answer come from the window (or, for a fact no longer visible, from the recovery routes its arm offers).
// Compaction summary requests and pi-fold's brief requests both go to the one stand-in writer (stand-in-writer.ts,
// through the reader of each request). Pure apart from the observer callback.

import type { AssistantMessage, Message, ToolCall } from "@earendil-works/pi-ai";
import { isBriefRequest, writeBrief } from "./brief-writer.ts";
import { isSummaryRequest, summarize } from "./compaction-summarizer.ts";
import { countLines, findDefinitions } from "./facts.ts";
import { STAGE_TOOL } from "./protocol.ts";
import { BLIND_ROUTE, reuseTerms, windowNames } from "./reuse-gate.ts";
import { type RecoveryRoute, rereadRoute, type ToolCallSpec, UNKNOWN_ANSWER, visibleRoute } from "./routes.ts";
import { buildView, callsSince, type StageView, summaryStage, visibleKey, type WindowView } from "./window-view.ts";

/** Words in every note the policy writes (inside the 200-400 the stages ask for). */
export const NOTE_WORDS = 300;

export interface PolicyObserver {
	/** Called once per question when its stage is handed in, with the route that produced the answer. */
	answered?(stage: number, questionId: string, route: string, answer: string): void;
	/** Called each time a question asks for tool calls (a recall's steps), with how many. */
	called?(stage: number, questionId: string, calls: number): void;
}

export interface PolicyOptions {
	/** Routes tried after the window and before rereading from disk (pi-fold arms: handle, peek, expand). */
	routes?: RecoveryRoute[];
	/** Extra calls made alongside handing in a stage (pi-fold agent arm: mark finished spans). */
	beforeSubmit?(view: WindowView, stage: StageView): ToolCallSpec[];
	/** Adds file texts the arm can see another way (pi-fold: pages of a peeked fold) to `view.reads`. */
	augmentView?(view: WindowView): void;
	/** For listed files it cannot see: calls that recover some without a disk read (pi-fold: peek), and the rest. */
	recoverFiles?(view: WindowView, stage: StageView, missing: string[]): { calls: ToolCallSpec[]; rest: string[] };
	observer?: PolicyObserver;
	/** Upper bound of characters in one compaction summary. */
	summaryMaxChars?: number;
	/** The model's context window in tokens (the agent sizes what it asks for by it). */
	windowTokens?: number;
}

export interface Decision {
	text: string;
	calls: ToolCallSpec[];
}

export function decide(messages: readonly Message[], options: PolicyOptions = {}): Decision {
	const view = buildView(messages);
	if (options.windowTokens !== undefined) view.windowTokens = options.windowTokens;
	options.augmentView?.(view);
	if (view.complete) return { text: "Assignment complete: every stage was opened, read and handed in.", calls: [] };
	const current = view.stages.at(-1);
	const stage = Math.max(current?.stage ?? 0, summaryStage(view));
	if (stage === 0) return openFirstStage(view);
	if (!current || current.stage < stage)
		return {
			text: `Stage ${stage}'s instructions are no longer in view; asking for them again.`,
			calls: [reissue(stage)],
		};
	const retry = retryFailedOpen(view, current);
	if (retry) return retry;
	const reading = readMissingFiles(view, current, options);
	if (reading) return reading;
	const resolution = resolveQuestions(view, current, [visibleRoute, ...(options.routes ?? []), rereadRoute]);
	for (const [id, calls] of Object.entries(resolution.callsBy)) options.observer?.called?.(current.stage, id, calls);
	if (resolution.pending.length > 0)
		return {
			text: `Stage ${current.stage}: checking earlier material for its questions.`,
			calls: dedupe(resolution.pending),
		};
	return handIn(view, current, resolution, options);
}

/** Before any stage is open: open stage 1 with its visible key. */
function openFirstStage(view: WindowView): Decision {
	const key = visibleKey(view, 1);
	if (!key) return { text: "I cannot find the key for stage 1, so I cannot start.", calls: [] };
	return { text: "Opening stage 1.", calls: [{ name: STAGE_TOOL, args: { stage: 1, key } }] };
}

/** After a failed stage call: ask for the stage again once, then give up; null when the last call did not fail. */
function retryFailedOpen(view: WindowView, current: StageView): Decision | null {
	const last = view.results.at(-1);
	if (last?.toolName !== STAGE_TOOL || !last.isError) return null;
	if (last.call?.args.reissue || current.reissued)
		return { text: `Stage ${current.stage} cannot be recovered; stopping.`, calls: [] };
	return {
		text: `Opening the next stage failed; asking for stage ${current.stage} again.`,
		calls: [reissue(current.stage)],
	};
}

/**
 * Calls that bring the stage's listed files into view: those it cannot see and has not tried to read since the
 * stage opened (a failed read is not retried). Null when nothing needs a call.
 */
function readMissingFiles(view: WindowView, current: StageView, options: PolicyOptions): Decision | null {
	const tried = new Set(
		callsSince(view, current.index)
			.filter((c) => c.name === "read")
			.map((c) => String(c.args.path)),
	);
	const missing = current.files.filter((f) => !view.reads.has(f) && !tried.has(f));
	if (missing.length === 0) return null;
	const recovered = options.recoverFiles?.(view, current, missing) ?? { calls: [], rest: missing };
	// A file the arm holds another way (a fold with a current read of it) needs no call: go on to the questions.
	if (recovered.calls.length + recovered.rest.length === 0) return null;
	return {
		text: `Stage ${current.stage}: reading ${missing.length} file${missing.length === 1 ? "" : "s"}.`,
		calls: [...dedupe(recovered.calls), ...recovered.rest.map((path) => ({ name: "read", args: { path } }))],
	};
}

/** The stage's questions worked through the routes in order: the answers, the route of each, and calls still due. */
interface Resolution {
	answers: Record<string, string>;
	answeredBy: Record<string, string>;
	pending: ToolCallSpec[];
	/** Calls each question asked for on this request. */
	callsBy: Record<string, number>;
}

/** Each question goes to the first route with an outcome; with none it is answered as unknown. */
function resolveQuestions(view: WindowView, current: StageView, routes: RecoveryRoute[]): Resolution {
	const resolution: Resolution = { answers: {}, answeredBy: {}, pending: [], callsBy: {} };
	for (const q of current.questions) {
		let settled = false;
		// A fact from earlier work: used when the window shows it, recalled when the window names where it is, else
		// a blind miss (reuse-gate.ts).
		const blind =
			q.reuse && routes[0]?.resolve(q, view, current) === undefined && !windowNames(view, current, reuseTerms(q));
		if (blind) {
			resolution.answers[q.id] = UNKNOWN_ANSWER;
			resolution.answeredBy[q.id] = BLIND_ROUTE;
			continue;
		}
		for (const route of routes) {
			const outcome = route.resolve(q, view, current);
			if (!outcome) continue;
			if ("answer" in outcome) {
				resolution.answers[q.id] = outcome.answer;
				resolution.answeredBy[q.id] = outcome.via ?? route.name;
			} else {
				resolution.pending.push(...outcome.calls);
				resolution.callsBy[q.id] = outcome.calls.length;
			}
			settled = true;
			break;
		}
		if (!settled) {
			resolution.answers[q.id] = UNKNOWN_ANSWER;
			resolution.answeredBy[q.id] = "none";
		}
	}
	return resolution;
}

/** Hands the stage in with its answers and note and opens the next one (or asks again when the key is missing). */
function handIn(view: WindowView, current: StageView, resolution: Resolution, options: PolicyOptions): Decision {
	const key = current.nextKey ?? visibleKey(view, current.stage + 1);
	if (!key)
		return {
			text: `Stage ${current.stage}'s result is missing its key; asking again.`,
			calls: [reissue(current.stage)],
		};
	const { answers, answeredBy } = resolution;
	for (const [id, route] of Object.entries(answeredBy))
		options.observer?.answered?.(current.stage, id, route, answers[id] as string);
	const args: Record<string, unknown> = { stage: current.stage + 1, key };
	if (current.questions.length > 0) args.answers = answers;
	if (current.note) args.note = composeNote(current, view);
	const extra = options.beforeSubmit?.(view, current) ?? [];
	return {
		text: `Stage ${current.stage} done; opening stage ${current.stage + 1}.`,
		calls: [...extra, { name: STAGE_TOOL, args }],
	};
}

function reissue(stage: number): ToolCallSpec {
	return { name: STAGE_TOOL, args: { stage, reissue: true } };
}

function dedupe(calls: ToolCallSpec[]): ToolCallSpec[] {
	const seen = new Set<string>();
	return calls.filter((c) => {
		const id = `${c.name}:${JSON.stringify(c.args)}`;
		if (seen.has(id)) return false;
		seen.add(id);
		return true;
	});
}

/** A note of exactly NOTE_WORDS words about the stage's files, built from their visible text. */
export function composeNote(stage: StageView, view: WindowView): string {
	const words: string[] = [`Stage ${stage.stage} note.`];
	const texts: string[] = [];
	for (const path of stage.files) {
		const text = view.reads.get(path)?.text ?? "";
		texts.push(text);
		const defs = findDefinitions(text)
			.slice(0, 3)
			.map((d) => d.symbol);
		words.push(`${path} has ${countLines(text)} lines${defs.length > 0 ? ` and defines ${defs.join(", ")}` : ""}.`);
	}
	const out = words.join(" ").split(/\s+/).filter(Boolean).slice(0, NOTE_WORDS);
	const vocabulary = texts.join(" ").match(/[A-Za-z]{4,}/g) ?? ["material"];
	for (let i = 0; out.length < NOTE_WORDS; i++) out.push((vocabulary[i % vocabulary.length] as string).toLowerCase());
	return out.join(" ");
}

/** Usage of a scripted reply: the faux provider fills in the real numbers. */
export const NO_USAGE: AssistantMessage["usage"] = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** An assistant reply; the faux provider fills in api, provider, model and usage. */
function reply(text: string, calls: ToolCall[] = []): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }, ...calls],
		api: "faux",
		provider: "faux",
		model: "faux",
		usage: NO_USAGE,
		stopReason: calls.length > 0 ? "toolUse" : "stop",
		timestamp: 0,
	};
}

/**
 * The faux response factory: summary requests get the extractive summary, everything else the policy's decision.
 * Call ids are numbered per factory so runs are reproducible.
 */
export function createPolicyFactory(
	options: PolicyOptions = {},
): (context: { messages: Message[] }) => AssistantMessage {
	let callNumber = 0;
	return (context) => {
		if (isSummaryRequest(context.messages)) return reply(summarize(context.messages, options.summaryMaxChars));
		if (isBriefRequest(context.messages)) return reply(writeBrief(context.messages));
		const decision = decide(context.messages, options);
		const calls = decision.calls.map(
			(c): ToolCall => ({
				type: "toolCall",
				id: `call_${++callNumber}`,
				name: c.name,
				arguments: c.args as ToolCall["arguments"],
			}),
		);
		return reply(decision.text, calls);
	};
}
