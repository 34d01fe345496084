// Drives a FoldRuntime through a transcript with no Pi: the messages of a session (user prompts,
// assistant replies with their tool calls, tool results) are replayed in order into a simulated
// session, as Pi's agent loop would produce them: before each assistant reply the request is built
// (the window as pi-fold's edits leave it), observed, fenced and billed by a positional prefix cache;
// the context tool's calls run through the runtime (a recorded result is kept byte for byte, and a
// result the runtime words differently is listed as a divergence); the other results are appended
// as recorded (or as the caller's `resultFor` words them); every turn ends at a `turn_end` boundary
// and every agent run at a `settle` boundary, whose drafts are applied as Pi applies them. With
// compaction settings, Pi's native compaction runs where Pi runs it (native-compaction.ts); the human's steps
// a message carries (`/fold-context` commands, a manual `/compact`) run before it (human-commands.ts). Fast
// enough to replay hundreds of synthetic sessions in seconds.

import { errorMessage } from "../common/index.ts";
import { type BoundaryKind, callTool, type FoldRuntime, type Host } from "../runtime/index.ts";
import { contentText, type TranscriptMessage, toolCallsOf } from "../transcript/index.ts";
import { type HumanLine, type HumanStep, typeCommand } from "./human-commands.ts";
import { NativeCompaction, type NativeNote } from "./native-compaction.ts";
import type { CompactionSettings } from "./pi-compaction.ts";
import { PrefixCache, type SimUsage } from "./prefix-cache.ts";
import type { SimSession } from "./sim-session.ts";

/** One message to replay, with the entry id it had (a recorded session's) or none (a new id). */
export interface ReplayMessage {
	readonly id?: string;
	readonly message: TranscriptMessage;
	/** Milliseconds of idle time before this message (the clock advances; a cache may expire). */
	readonly idleMs?: number;
	/** What the human does before this message: `/fold-context` commands, a manual `/compact`. */
	readonly before?: readonly HumanStep[];
}

/** One billed request of the replay. */
export interface SimRequest extends SimUsage {
	/** Index of the assistant message it produced among the replayed messages. */
	readonly at: number;
	/** The observer's classification (first / identical / append / rewrite). */
	readonly kind: string;
	/** The commit a rewrite is attributed to, or null. */
	readonly commitSeq: number | null;
	/** What explained a rewrite (a commit, a native compaction), or null. */
	readonly cause: "commit" | "compaction" | null;
	readonly fenced: boolean;
}

export interface SimResult {
	readonly requests: readonly SimRequest[];
	/** True when a fenced request ended the replay (as Pi's abort ends the run). */
	readonly stopped: boolean;
	readonly errors: readonly string[];
	/** Context-tool calls whose runtime result differs from the recorded result (recorded one kept). */
	readonly divergences: readonly { callId: string; recorded: string; replayed: string }[];
	/** What the fence said when it stopped the replay (null: not stopped by the fence). */
	readonly fence: string | null;
	/** Native compactions Pi would have run or tried, in order. */
	readonly compactions: readonly NativeNote[];
	/** The human's `/fold-context` commands and their replies, in order. */
	readonly human: readonly HumanLine[];
	/** The usage total each response billed, by assistant entry id (Pi's compaction estimate reads it). */
	readonly usage: ReadonlyMap<string, number>;
}

/** The usage a recorded reply carries (Pi stores the provider's), or null. */
function recordedUsage(reply: TranscriptMessage): { input: number; cacheRead: number; cacheWrite: number } | null {
	const u = (reply as { usage?: { input?: number; cacheRead?: number; cacheWrite?: number } }).usage;
	if (!u || typeof u.input !== "number") return null;
	return { input: u.input, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0 };
}

function asUsage(u: SimUsage): { input: number; cacheRead: number; cacheWrite: number } {
	return { input: 0, cacheRead: u.cacheRead, cacheWrite: u.fresh };
}

export interface DriveOptions {
	/** Cache lifetime of the simulated provider (default: forever). */
	readonly cacheTtlMs?: number;
	/**
	 * What the runtime is told the provider billed: "simulated" (default) the prefix cache's bill;
	 * "recorded" the usage a recorded reply carries (a real session's), when it has one.
	 */
	readonly usage?: "simulated" | "recorded";
	/** The provider's bill the runtime is told, from the simulator's (default: the simulator's own; the replay's calibration). */
	readonly bill?: (usage: SimUsage) => SimUsage;
	/** Called after each billed request with the messages the provider got (progress, assertions). */
	readonly onRequest?: (request: SimRequest, messages: readonly TranscriptMessage[]) => void;
	/** Called before the message at `index` is replayed (a fault: the store made unwritable, a model switch). */
	readonly beforeMessage?: (index: number) => void;
	/** Pi's native compaction settings (default: off, as in the tests' Pi sessions; a manual /compact still runs). */
	readonly compaction?: CompactionSettings;
	/**
	 * The result to send for a tool call other than the context tool, in place of the recorded one (the
	 * replay's rereads); `ask` runs the context tool as the agent would and gives its text. Undefined keeps the recorded one.
	 */
	readonly resultFor?: (
		call: { readonly id: string; readonly name: string },
		recorded: ReplayMessage,
		ask: (args: unknown) => Promise<string>,
	) => Promise<ReplayMessage | undefined> | ReplayMessage | undefined;
}

/** The recorded results that answer an assistant message's tool calls, by call id. */
function recordedResults(messages: readonly ReplayMessage[], from: number): Map<string, ReplayMessage> {
	const out = new Map<string, ReplayMessage>();
	for (let i = from; i < messages.length; i++) {
		const m = (messages[i] as ReplayMessage).message;
		if (m.role !== "toolResult" || typeof m.toolCallId !== "string") break;
		out.set(m.toolCallId, messages[i] as ReplayMessage);
	}
	return out;
}

/** One replay in progress: the runtime, its simulated session and provider, and what was billed. */
class Replay {
	readonly requests: SimRequest[] = [];
	readonly errors: string[] = [];
	readonly divergences: SimResult["divergences"][number][] = [];
	readonly human: HumanLine[] = [];
	readonly host: Host;
	readonly native: NativeCompaction;
	fence: string | null = null;
	/** Whether the agent's run is open (its last turn called tools, so the next request is a follow-up). */
	private running = false;
	private readonly cache: PrefixCache;
	private readonly runtime: FoldRuntime;
	private readonly session: SimSession;
	private readonly options: DriveOptions;

	constructor(runtime: FoldRuntime, session: SimSession, options: DriveOptions) {
		this.runtime = runtime;
		this.session = session;
		this.options = options;
		this.host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
		this.cache = new PrefixCache(options.cacheTtlMs);
		this.native = new NativeCompaction(runtime, session, this.host, options.compaction);
	}

	/** Builds, observes, fences and bills the request that produces `reply` (the message at `at`). */
	request(reply: TranscriptMessage, at: number): SimRequest {
		const { runtime, host } = this;
		const { verdict, observation } = runtime.request(host, this.session.requestMessages());
		const conversation = this.session.llmMessages();
		if (!observation) {
			this.fence = verdict.message;
			const fenced = {
				promptTokens: 0,
				cacheRead: 0,
				fresh: 0,
				output: 0,
				at,
				kind: "fenced",
				commitSeq: null,
				cause: null,
				fenced: verdict.abort,
			};
			this.requests.push(fenced);
			return fenced;
		}
		const system: TranscriptMessage = { role: "system", content: host.systemPrompt() };
		const usage = this.cache.request([system, ...conversation], host.now(), JSON.stringify(reply.content ?? "").length);
		const billed = asUsage(this.options.bill ? this.options.bill(usage) : usage);
		runtime.recordUsage(this.options.usage === "recorded" ? (recordedUsage(reply) ?? billed) : billed);
		const request = {
			...usage,
			at,
			kind: observation.kind,
			commitSeq: observation.commitSeq,
			cause: observation.cause,
			fenced: false,
		};
		this.requests.push(request);
		this.options.onRequest?.(request, conversation);
		return request;
	}

	/** The result of one tool call: the context tool runs through the runtime; others come from the recording. */
	async result(reply: TranscriptMessage, call: { id: string; name: string }, recorded: Map<string, ReplayMessage>) {
		const kept = recorded.get(call.id);
		if (call.name !== this.runtime.options.toolName) {
			const resultFor = this.options.resultFor;
			if (!kept || !resultFor) return kept;
			const ask = async (args: unknown) => (await callTool(this.runtime, this.host, args, "agent")).text;
			return (await resultFor(call, kept, ask)) ?? kept;
		}
		const replayed = await runContextTool(this.runtime, this.host, reply, call);
		const was = kept ? contentText(kept.message.content) : undefined;
		const now = contentText(replayed.message.content);
		if (was !== undefined && was !== now) this.divergences.push({ callId: call.id, recorded: was, replayed: now });
		return kept ?? replayed;
	}

	/** The boundary `at`: the runtime's drafts applied as Pi applies them. */
	async boundary(at: BoundaryKind): Promise<void> {
		const drafts = await this.runtime.boundary(this.host, at, this.session.llmMessages());
		if (drafts) this.session.applyDrafts(drafts);
	}

	/** The human's steps before a message: commands through the runtime, a manual /compact. */
	async humanSteps(steps: readonly HumanStep[]): Promise<void> {
		for (const step of steps) {
			if (step.kind === "compact") await this.native.manual();
			else {
				const line = await typeCommand(this.runtime, this.host, step.command);
				if (line) this.human.push(line);
			}
		}
	}

	/** A message that opens a run (Pi checks compaction first) or any other non-assistant message. */
	async open(item: ReplayMessage): Promise<void> {
		if (item.message.role === "user") {
			await this.native.atRunEdge();
			this.running = false;
		}
		this.session.appendMessage(item.message, item.id);
	}

	/** One assistant turn: the request, the reply, its tool results, the boundaries. Returns false when fenced. */
	async turn(item: ReplayMessage, at: number, recorded: Map<string, ReplayMessage>): Promise<boolean> {
		const reply = item.message;
		if (this.running) await this.native.beforeFollowUp();
		const billed = this.request(reply, at);
		if (billed.fenced) return false;
		const entryId = this.session.appendMessage(reply, item.id);
		this.native.responded({ entryId, ...billed, stopReason: reply.stopReason });
		const calls = toolCallsOf(reply);
		for (const call of calls) {
			// A recorded result's idle time is how long its tool ran: the clock moves before it lands.
			const idle = recorded.get(call.id)?.idleMs;
			if (idle) this.session.advance(idle);
			const result = await this.result(reply, call, recorded);
			if (result) this.session.appendMessage(result.message, result.id);
			else this.errors.push(`no result for tool call ${call.id} (${call.name})`);
		}
		await this.boundary("turn_end");
		this.running = calls.length > 0;
		if (!this.running) {
			await this.native.atRunEdge();
			await this.boundary("settle");
		}
		return true;
	}
}

export async function drive(
	runtime: FoldRuntime,
	session: SimSession,
	messages: readonly ReplayMessage[],
	options: DriveOptions = {},
): Promise<SimResult> {
	const replay = new Replay(runtime, session, options);
	runtime.rebuild(replay.host, "since the replay started");
	const done = (stopped: boolean): SimResult => ({
		requests: replay.requests,
		stopped,
		errors: replay.errors,
		divergences: replay.divergences,
		fence: replay.fence,
		compactions: replay.native.notes,
		human: replay.human,
		usage: replay.native.usage,
	});
	let i = 0;
	while (i < messages.length) {
		const item = messages[i] as ReplayMessage;
		options.beforeMessage?.(i);
		if (item.idleMs) session.advance(item.idleMs);
		if (item.before) await replay.humanSteps(item.before);
		if (item.message.role !== "assistant") {
			if (item.message.role !== "toolResult") await replay.open(item);
			i++;
			continue;
		}
		const recorded = recordedResults(messages, i + 1);
		if (!(await replay.turn(item, i, recorded))) return done(true);
		i += 1 + recorded.size;
	}
	return done(false);
}

/** Runs one call of the context tool through the runtime; its result message, as Pi would store it. */
async function runContextTool(
	runtime: FoldRuntime,
	host: Host,
	assistant: TranscriptMessage,
	call: { id: string; name: string },
): Promise<ReplayMessage> {
	const block = (assistant.content as { type?: string; id?: string; arguments?: unknown }[]).find(
		(b) => b.type === "toolCall" && b.id === call.id,
	);
	let text: string;
	let isError = false;
	try {
		const result = await callTool(runtime, host, block?.arguments ?? {}, "agent");
		text = result.text;
		isError = result.isError === true;
	} catch (error) {
		text = errorMessage(error);
		isError = true;
	}
	return {
		message: {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [{ type: "text", text }],
			isError,
		},
	};
}
