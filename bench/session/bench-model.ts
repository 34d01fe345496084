// The benchmark's model: Pi's faux provider (positional prefix cache keyed by session id, tokens = chars / 4),
// wrapped so that (1) a request larger than the context window is rejected with a context-overflow error, the way
// a real provider rejects it, and (2) every request lands in the ledger with the usage the provider reported.

import type { AssistantMessage, FauxResponseFactory, Message, Model, Provider } from "@earendil-works/pi-ai";
import { isBriefRequest } from "./brief-writer.ts";
import { isSummaryRequest } from "./compaction-summarizer.ts";
import { PRICES, type RequestRecord } from "./ledger.ts";
import type { PiHost } from "./pi-packages.ts";
import { NO_USAGE } from "./policy.ts";

export const PROVIDER_ID = "pifold-bench";
export const MODEL_ID = "faux-bench";
/** The error a session sees once it has used up its request cap. */
export const REQUEST_CAP_ERROR = "benchmark request cap reached";

export interface BenchProviderOptions {
	window: number;
	maxTokens: number;
	factory: FauxResponseFactory;
	/** Requests allowed; past this the provider answers with REQUEST_CAP_ERROR and records nothing. */
	maxRequests: number;
	/** Stage open right now, stamped on each record. */
	stageNow: () => number;
}

export interface BenchProvider {
	provider: Provider;
	model: Model<string>;
	ledger: RequestRecord[];
	/** Sequence number of the latest agent request (0 before the first). */
	lastAgentRequest: () => number;
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	return (content as { type: string; text?: string; mimeType?: string; data?: string }[])
		.map((b) => (b.type === "text" ? (b.text ?? "") : `[image:${b.mimeType}:${b.data?.length ?? 0}]`))
		.join("\n");
}

/** One message as the faux provider serializes it (its prompt is these, role-prefixed, joined by blank lines). */
export function messageText(ai: PiHost["ai"], message: Message): string {
	switch (message.role) {
		case "system":
			return [
				ai.getSystemMessageText(message),
				...(message.toolsRemoved?.map((t) => `tool-:${JSON.stringify(t)}`) ?? []),
				...(message.toolsAdded?.map((t) => `tool+:${JSON.stringify(t)}`) ?? []),
			]
				.filter((p) => p.length > 0)
				.join("\n");
		case "user":
			return contentText(message.content);
		case "assistant":
			return message.content
				.map((b) =>
					b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : `${b.name}:${JSON.stringify(b.arguments)}`,
				)
				.join("\n");
		default:
			return [message.toolName, ...message.content.map((b) => contentText([b]))].join("\n");
	}
}

/** The price table as the model states it (pi-ai `ModelCost`), so pi-fold's cost policy reads the benchmark's prices. */
export const MODEL_COST = {
	...PRICES.base,
	cacheWrite: PRICES.base.input,
	tiers: [{ ...PRICES.long, cacheWrite: PRICES.long.input, inputTokensAbove: PRICES.longContextThreshold }],
};

/** What the provider keeps across requests: the ledger, and the latest agent request's prompt and number. */
interface LedgerState {
	ledger: RequestRecord[];
	previousAgent: string[] | undefined;
	lastAgent: number;
}

export function createBenchProvider(ai: PiHost["ai"], options: BenchProviderOptions): BenchProvider {
	const core = createCore(ai, options);
	const state: LedgerState = { ledger: [], previousAgent: undefined, lastAgent: 0 };
	const stream = ((model: Model<string>, context: { messages: Message[] }, streamOptions?: unknown) => {
		// Past the cap nothing is sent or recorded: the session ends with this error (a policy that loops stops here).
		if (state.ledger.length >= options.maxRequests)
			return rejection(ai, model, `${REQUEST_CAP_ERROR} (${options.maxRequests})`);
		const started = performance.now();
		const record = recordRequest(ai, state, context.messages, options.stageNow);
		if (record.context > options.window) {
			record.rejected = true;
			record.stopReason = "error";
			return rejection(ai, model, `prompt is too long: ${record.context} tokens > ${options.window} maximum`);
		}
		// biome-ignore lint/suspicious/noExplicitAny: the faux core's stream takes Pi's internal option type
		const inner = core.stream(model, context as any, streamOptions as any);
		inner.result().then((message) => recordUsage(record, message, started));
		return priced(ai, model, inner);
	}) as unknown as typeof core.stream;
	const provider = ai.createProvider({
		id: PROVIDER_ID,
		auth: { apiKey: { name: "Faux", resolve: async () => ({ auth: {} }) } },
		models: core.models,
		api: { stream, streamSimple: stream },
	} as unknown as Parameters<typeof ai.createProvider>[0]);
	return { provider, model: core.models[0], ledger: state.ledger, lastAgentRequest: () => state.lastAgent };
}

/** Pi's faux core serving the one benchmark model, with the policy's factory queued for every allowed request. */
function createCore(ai: PiHost["ai"], options: BenchProviderOptions) {
	const core = ai.createFauxCore({
		provider: PROVIDER_ID,
		models: [
			{
				id: MODEL_ID,
				name: "Faux benchmark model",
				contextWindow: options.window,
				maxTokens: options.maxTokens,
				cost: MODEL_COST,
			},
		],
	});
	core.setResponses(Array.from({ length: options.maxRequests + 1 }, () => options.factory));
	return core;
}

/** Measures a request (size, kind, whether it only appends to the previous agent request) and adds it to the ledger. */
function recordRequest(
	ai: PiHost["ai"],
	state: LedgerState,
	messages: Message[],
	stageNow: () => number,
): RequestRecord {
	const texts = messages.map((m) => `${m.role}:${messageText(ai, m)}`);
	const chars = texts.reduce((n, t) => n + t.length, 0) + Math.max(0, texts.length - 1) * 2;
	const kind = isSummaryRequest(messages) ? "summary" : isBriefRequest(messages) ? "brief" : "agent";
	const record: RequestRecord = {
		seq: state.ledger.length + 1,
		kind,
		stage: stageNow(),
		messages: texts.length,
		chars,
		context: Math.ceil(chars / 4),
		input: 0,
		cacheRead: 0,
		cacheWrite: 0,
		output: 0,
		pureAppend: null,
		rejected: false,
		stopReason: "pending",
		ms: 0,
	};
	if (kind === "agent") {
		if (state.previousAgent) record.pureAppend = isPrefix(state.previousAgent, texts);
		state.previousAgent = texts;
		state.lastAgent = record.seq;
	}
	state.ledger.push(record);
	return record;
}

/** Fills in the usage the provider reported once the reply is complete. */
function recordUsage(record: RequestRecord, message: AssistantMessage, started: number): void {
	record.input = message.usage.input;
	record.cacheRead = message.usage.cacheRead;
	record.cacheWrite = message.usage.cacheWrite;
	record.output = message.usage.output;
	record.stopReason = message.stopReason;
	record.ms = performance.now() - started;
}

function isPrefix(previous: readonly string[], current: readonly string[]): boolean {
	if (previous.length > current.length) return false;
	for (let i = 0; i < previous.length; i++) if (previous[i] !== current[i]) return false;
	return true;
}

/**
 * The faux core's stream with each reply's cost filled in at the model's prices before the reply lands (the faux
 * core bills none), as a real provider's client does: the session files the demo keeps carry the benchmark's
 * prices, so `pi-fold replay` prices them without being told.
 */
function priced(
	ai: PiHost["ai"],
	model: Model<string>,
	inner: ReturnType<PiHost["ai"]["createAssistantMessageEventStream"]>,
) {
	const out = ai.createAssistantMessageEventStream();
	void (async () => {
		for await (const event of inner) {
			if (event.type === "done") ai.calculateCost(model, event.message.usage);
			out.push(event);
		}
		out.end();
	})();
	return out;
}

function rejection(ai: PiHost["ai"], model: Model<string>, errorMessage: string) {
	const out = ai.createAssistantMessageEventStream();
	const message: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: structuredClone(NO_USAGE),
		stopReason: "error",
		errorMessage,
		timestamp: Date.now(),
	};
	queueMicrotask(() => {
		out.push({ type: "error", reason: "error", error: message });
		out.end(message);
	});
	return out;
}
