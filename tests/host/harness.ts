// Test harness for host-behaviour probes: a real in-process Pi AgentSession driven by the faux provider.
// Every provider request is recorded (a deep copy of the transcript the provider received, plus the usage
// the faux provider's positional prefix cache reported for it), so tests can compare requests message by
// message. Boundary hooks forward to mutable callbacks so each test scripts its own commit behaviour.
// No part of Pi is mocked; the harness only owns temp directories and the scripted replies.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	type AssistantMessage,
	type FauxProviderHandle,
	type FauxResponseStep,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	type Message,
	type Usage,
} from "@earendil-works/pi-ai";
import {
	type AgentBeforeSettleEvent,
	type AgentSession,
	type BoundaryResult,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionAPI,
	type ExtensionContext,
	ModelRuntime,
	SessionManager,
	type SessionStartEvent,
	SettingsManager,
	type ToolDefinition,
	type TurnEndEvent,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** One provider request as the faux provider received it. */
export interface RecordedRequest {
	/** Deep copy of `context.messages` (system head included). */
	messages: Message[];
	/** Usage the faux provider billed for this request (filled in when the response lands). */
	usage?: Usage;
}

type Handler<E> = (event: E, ctx: ExtensionContext) => BoundaryResult | undefined | Promise<BoundaryResult | undefined>;

/** Mutable hook slots the test extension forwards to. */
export interface HookSlots {
	turnEnd?: Handler<TurnEndEvent>;
	beforeSettle?: Handler<AgentBeforeSettleEvent>;
	/** Extra registration (tools, other events) run once at extension load. */
	setup?: (pi: ExtensionAPI) => void;
}

export interface HarnessOptions {
	/** Persist to a JSONL session under a temp dir (default: in-memory). */
	persistent?: boolean;
	/** Open an existing session file instead of creating one (implies persistent). */
	openFile?: string;
	/** Reuse a session directory (for resume tests). */
	sessionDir?: string;
	contextWindow?: number;
	/** Native compaction settings; default disabled. */
	compaction?: { enabled: boolean; reserveTokens?: number; keepRecentTokens?: number };
	hooks?: HookSlots;
	/** Extra tool names to allow (tools registered by `hooks.setup`); `probe` is always allowed. */
	extraTools?: string[];
}

/** What the harness saw at one `turn_end` (before any test hook ran). */
export interface TurnRecord {
	turnIndex: number;
	messageEntryId: string;
	toolResultEntryIds: string[];
	/** `event.context.llmMessages` as the first handler saw it. */
	preview: Message[];
}

export interface Harness {
	session: AgentSession;
	faux: FauxProviderHandle;
	requests: RecordedRequest[];
	turns: TurnRecord[];
	hooks: HookSlots;
	/** The latest ExtensionContext any hook saw (for getContextUsage, sessionManager reads). */
	ctx(): ExtensionContext;
	/** Queue scripted replies; each is wrapped so the request it answers is recorded. */
	script(steps: FauxResponseStep[]): void;
	/** Prompt and wait until Pi settles. */
	run(text: string): Promise<void>;
	sessionFile(): string | undefined;
	sessionDir: string;
	dispose(): void;
}

/** Content text of a probe tool result: ~540 chars, or ~5,400 for keys starting with "big". */
export function probeResultText(key: string): string {
	return `probe ${key}: ${"lorem ipsum dolor sit amet ".repeat(key.startsWith("big") ? 200 : 20)}`;
}

/** A deterministic custom tool: its result depends only on its argument. */
export const probeTool: ToolDefinition = {
	name: "probe",
	label: "Probe",
	description: "Returns a fixed text for a key.",
	parameters: Type.Object({ key: Type.String() }),
	async execute(_id, params) {
		const key = (params as { key: string }).key;
		return { content: [{ type: "text", text: probeResultText(key) }], details: undefined };
	},
};

/** An assistant reply that calls `probe` once per key (one tool batch). */
export function callProbes(...keys: string[]): AssistantMessage {
	return fauxAssistantMessage(
		keys.map((key) => fauxToolCall("probe", { key }, { id: `call_${key}` })),
		{ stopReason: "toolUse" },
	);
}

/** A plain text reply. */
export function say(text: string): AssistantMessage {
	return fauxAssistantMessage(text);
}

const tempDirs: string[] = [];
const liveSessions: AgentSession[] = [];

export function tempDir(prefix = "pi-fold-host-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	tempDirs.push(dir);
	return dir;
}

/** Dispose every session the harness created, then remove its temp directories (use in afterAll). */
export function cleanupTempDirs(): void {
	for (const session of liveSessions.splice(0)) session.dispose();
	for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	const root = tempDir();
	const agentDir = join(root, "agent");
	const cwd = join(root, "cwd");
	const sessionDir = options.sessionDir ?? join(root, "sessions");
	const faux = fauxProvider({
		models: [{ id: "faux-1", contextWindow: options.contextWindow ?? 128_000, maxTokens: 4096 }],
	});
	const modelRuntime = await ModelRuntime.create({
		authPath: join(agentDir, "auth.json"),
		modelsPath: null,
		allowModelNetwork: false,
	});
	modelRuntime.registerNativeProvider(faux.provider);
	const settingsManager = SettingsManager.inMemory({ compaction: options.compaction ?? { enabled: false } });
	const hooks: HookSlots = options.hooks ?? {};
	let lastCtx: ExtensionContext | undefined;
	const turns: TurnRecord[] = [];
	const extension = (pi: ExtensionAPI): void => {
		pi.on("turn_end", async (event, ctx) => {
			lastCtx = ctx;
			turns.push({
				turnIndex: event.turnIndex,
				messageEntryId: event.messageEntryId,
				toolResultEntryIds: [...event.toolResultEntryIds],
				preview: structuredClone(event.context.llmMessages),
			});
			return hooks.turnEnd?.(event, ctx);
		});
		pi.on("agent_before_settle", async (event, ctx) => {
			lastCtx = ctx;
			return hooks.beforeSettle?.(event, ctx);
		});
		pi.on("session_start", async (_event, ctx) => {
			lastCtx = ctx;
		});
		hooks.setup?.(pi);
	};
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		extensionFactories: [extension],
		noContextFiles: true,
	});
	await resourceLoader.reload();
	const persistent = options.persistent === true || options.openFile !== undefined;
	const sessionManager = options.openFile
		? SessionManager.open(options.openFile, sessionDir)
		: persistent
			? SessionManager.create(cwd, sessionDir)
			: SessionManager.inMemory(cwd);
	const sessionStartEvent: SessionStartEvent | undefined = options.openFile
		? { type: "session_start", reason: "resume", previousSessionFile: options.openFile }
		: undefined;
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		model: faux.getModel(),
		modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager,
		customTools: [probeTool],
		tools: ["probe", ...(options.extraTools ?? [])],
		...(sessionStartEvent ? { sessionStartEvent } : {}),
	});
	liveSessions.push(session);
	const errors: string[] = [];
	await session.bindExtensions({ onError: (error) => errors.push(`${error.event}: ${error.error}`) });
	const requests: RecordedRequest[] = [];
	session.subscribe((event) => {
		if (event.type !== "message_end" || event.message.role !== "assistant") return;
		const pending = requests.findLast((request) => request.usage === undefined);
		if (pending) pending.usage = structuredClone((event.message as AssistantMessage).usage);
	});
	const record =
		(step: FauxResponseStep): FauxResponseStep =>
		(context, streamOptions, state, model) => {
			requests.push({ messages: structuredClone(context.messages) });
			return typeof step === "function" ? step(context, streamOptions, state, model) : step;
		};
	return {
		session,
		faux,
		requests,
		turns,
		hooks,
		sessionDir,
		ctx() {
			if (!lastCtx) throw new Error("no extension context seen yet");
			return lastCtx;
		},
		script(steps) {
			faux.appendResponses(steps.map(record));
		},
		async run(text) {
			await session.prompt(text);
			await session.waitForIdle();
			if (errors.length > 0) throw new Error(`extension errors: ${errors.join("; ")}`);
		},
		sessionFile: () => session.sessionFile,
		dispose() {
			session.dispose();
		},
	};
}

/** Canonical bytes of one provider-visible message (JSON as recorded). */
export function messageBytes(message: Message): string {
	return JSON.stringify(message);
}

export type RequestRelation =
	| { kind: "identical" }
	| { kind: "append"; added: number }
	| { kind: "rewrite"; firstDivergence: number };

/** Classify `next` against `previous` by per-message byte comparison. */
export function relation(previous: RecordedRequest, next: RecordedRequest): RequestRelation {
	const a = previous.messages.map(messageBytes);
	const b = next.messages.map(messageBytes);
	let index = 0;
	while (index < a.length && index < b.length && a[index] === b[index]) index++;
	if (index === a.length)
		return index === b.length ? { kind: "identical" } : { kind: "append", added: b.length - index };
	return { kind: "rewrite", firstDivergence: index };
}

/** Roles of a request's messages, for readable assertions. */
export function roles(request: RecordedRequest): string[] {
	return request.messages.map((message) => message.role);
}

/** The single text of a message's content (joined text blocks), for readable assertions. */
export function textOf(message: Message | undefined): string {
	if (!message) return "";
	const content = message.content as string | { type: string; text?: string }[];
	if (typeof content === "string") return content;
	return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("");
}

/**
 * Tool-call pairing problems in a provider transcript: a tool call with no result before the next
 * assistant/user message, or a tool result whose call is not pending. Empty means valid.
 */
export function pairingProblems(messages: Message[]): string[] {
	const problems: string[] = [];
	let pending = new Set<string>();
	const close = (): void => {
		for (const id of pending) problems.push(`call ${id} has no result`);
		pending = new Set();
	};
	for (const message of messages) {
		if (message.role === "assistant") {
			close();
			for (const block of message.content) if (block.type === "toolCall") pending.add(block.id);
		} else if (message.role === "toolResult") {
			if (pending.has(message.toolCallId)) pending.delete(message.toolCallId);
			else problems.push(`result ${message.toolCallId} has no call`);
		} else if (message.role === "user") {
			close();
		}
	}
	close();
	return problems;
}
