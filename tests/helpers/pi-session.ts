// Test helper: a real in-process Pi AgentSession on Pi's faux provider, shared by the host-behaviour
// harness (tests/host/harness.ts) and the folding-runtime harness (tests/pi/harness.ts).
// It owns: the model runtime (no network) with the faux provider registered, in-memory settings with
// the compaction settings, the resource loader carrying the caller's extension factory, the session
// manager (in-memory, new JSONL file, or an opened file resumed with a `session_start` resume event),
// createAgentSession with the caller's tool allowlist and custom tools, bindExtensions with collected
// errors (and, on request, a recording UI in TUI or RPC mode), the recording of every provider request (a deep copy of `context.messages`, with the usage
// billed for it filled in at `message_end`), `script`/`run`, the latest ExtensionContext, temp
// directories and session cleanup, the `probe` tool factory, reply builders and transcript helpers.
// The harnesses own their extension wiring (hook slots, pi-fold registration) and their own exports.
// No part of Pi is mocked.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
	type AgentSession,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionAPI,
	type ExtensionContext,
	type ExtensionUIContext,
	ModelRuntime,
	SessionManager,
	type SessionStartEvent,
	SettingsManager,
	type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** One provider request as the faux provider received it. */
export interface RecordedRequest {
	/** Deep copy of `context.messages` (system head included). */
	messages: Message[];
	/** Usage the faux provider billed for this request (filled in when the response lands). */
	usage?: Usage;
}

/** Pi's native compaction settings. */
export interface CompactionSettings {
	enabled: boolean;
	reserveTokens?: number;
	keepRecentTokens?: number;
}

/** The session's own directories: Pi's agent directory and the project's working directory. */
export interface SessionDirs {
	readonly agentDir: string;
	readonly cwd: string;
}

/**
 * A provider from `models.json` to run the session on instead of the faux provider: pi-ai's real
 * client for `config.api`, pointed at `config.baseUrl` (tests/helpers/wire/ serves one locally).
 */
export interface ModelsJsonProvider {
	readonly name: string;
	/** The provider's `models.json` entry (baseUrl, api, apiKey, models). */
	readonly config: Record<string, unknown>;
	readonly modelId: string;
	/** Pi's thinking level for the session (default off). */
	readonly thinkingLevel?: "off" | "minimal" | "low" | "medium" | "high";
}

/** Session settings the harnesses accept from tests unchanged. */
export interface PiSessionSettings {
	/** Run on a real provider client from models.json instead of the faux provider. */
	provider?: ModelsJsonProvider;
	/** Persist to a JSONL session under a temp dir (default: in-memory). */
	persistent?: boolean;
	/** Open an existing session file instead of creating one (implies persistent; resumes it). */
	openFile?: string;
	/** Reuse a session directory (for resume tests). */
	sessionDir?: string;
	contextWindow?: number;
	/** More faux models beside `faux-1` (a session can switch to one with `setModel`). */
	extraModels?: { id: string; contextWindow: number; maxTokens?: number }[];
	/** The faux model the session starts on (default `faux-1`; a resume runs on it too). */
	modelId?: string;
	/** Native compaction settings; default disabled. */
	compaction?: CompactionSettings;
	/** Bind a recording UI in this mode (default: none, as in print mode: `ctx.hasUI` is false). */
	ui?: "tui" | "rpc";
	/** Whether Pi trusts the project (default true). */
	projectTrusted?: boolean;
}

/** What a session with a recording UI showed the human. */
export interface UiRecord {
	/** Every `ctx.ui.notify` call, in order. */
	readonly notices: { message: string; level: string }[];
	/** The footer statuses set through `ctx.ui.setStatus`, by key (the latest text). */
	readonly statuses: Map<string, string>;
}

/** A UI context that records notify and setStatus; every other method does nothing. */
function recordingUi(record: UiRecord): ExtensionUIContext {
	const known: Partial<ExtensionUIContext> = {
		notify: (message, level) => void record.notices.push({ message, level: level ?? "info" }),
		setStatus: (key, text) => {
			if (text === undefined) record.statuses.delete(key);
			else record.statuses.set(key, text);
		},
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		getEditorText: () => "",
		onTerminalInput: () => () => {},
	};
	return new Proxy(known as ExtensionUIContext, {
		get: (target, key) => (key in target ? target[key as keyof ExtensionUIContext] : () => undefined),
	});
}

/** How a harness wires its session: what only the harness knows. */
export interface PiSessionWiring {
	/** Prefix of the temp directory holding agent dir, cwd and (by default) sessions. */
	tempPrefix: string;
	/** The extension factory; `see` records the latest ExtensionContext for `ctx()`; `dirs` are the session's. */
	extension: (pi: ExtensionAPI, see: (ctx: ExtensionContext) => void, dirs: SessionDirs) => void;
	customTools: ToolDefinition[];
	/** The tool allowlist. */
	tools: string[];
}

export interface PiSession {
	session: AgentSession;
	faux: FauxProviderHandle;
	requests: RecordedRequest[];
	/** Extension errors collected by bindExtensions (`run` throws if any). */
	errors: string[];
	/** What the recording UI showed (empty without `ui`). */
	ui: UiRecord;
	sessionDir: string;
	/** The latest ExtensionContext any hook saw (for getContextUsage, sessionManager reads). */
	ctx(): ExtensionContext;
	/** Queue scripted replies; each is wrapped so the request it answers is recorded. */
	script(steps: FauxResponseStep[]): void;
	/** Prompt and wait until Pi settles (throws on extension errors). */
	run(text: string): Promise<void>;
	sessionFile(): string | undefined;
}

const tempDirs: string[] = [];
const liveSessions: AgentSession[] = [];

export function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	tempDirs.push(dir);
	return dir;
}

/** Dispose every session created here, then remove the temp directories (use in afterAll). */
export function cleanupTempDirs(): void {
	for (const session of liveSessions.splice(0)) session.dispose();
	for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Build the session from the test's `settings` (only its session fields are read) and the harness's `wiring`. */
export async function createPiSession(settings: PiSessionSettings, wiring: PiSessionWiring): Promise<PiSession> {
	const root = tempDir(wiring.tempPrefix);
	const agentDir = join(root, "agent");
	const cwd = join(root, "cwd");
	const sessionDir = settings.sessionDir ?? join(root, "sessions");
	const faux = fauxProvider({
		models: [
			{ id: "faux-1", contextWindow: settings.contextWindow ?? 128_000, maxTokens: 4096 },
			...(settings.extraModels ?? []).map((m) => ({ maxTokens: 4096, ...m })),
		],
	});
	const provider = settings.provider;
	let modelsPath: string | null = null;
	if (provider) {
		mkdirSync(agentDir, { recursive: true });
		modelsPath = join(agentDir, "models.json");
		writeFileSync(modelsPath, JSON.stringify({ providers: { [provider.name]: provider.config } }));
	}
	const modelRuntime = await ModelRuntime.create({
		authPath: join(agentDir, "auth.json"),
		modelsPath,
		allowModelNetwork: false,
	});
	modelRuntime.registerNativeProvider(faux.provider);
	const model = provider
		? modelRuntime.getModel(provider.name, provider.modelId)
		: settings.modelId
			? faux.getModel(settings.modelId)
			: faux.getModel();
	if (!model) throw new Error(`model ${provider?.name ?? "faux"}/${provider?.modelId ?? settings.modelId} not found`);
	const settingsManager = SettingsManager.inMemory({ compaction: settings.compaction ?? { enabled: false } });
	if (settings.projectTrusted === false) settingsManager.setProjectTrusted(false);
	let lastCtx: ExtensionContext | undefined;
	const see = (ctx: ExtensionContext): void => {
		lastCtx = ctx;
	};
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		extensionFactories: [(pi: ExtensionAPI) => wiring.extension(pi, see, { agentDir, cwd })],
		noContextFiles: true,
	});
	await resourceLoader.reload();
	const persistent = settings.persistent === true || settings.openFile !== undefined;
	const sessionManager = settings.openFile
		? SessionManager.open(settings.openFile, sessionDir)
		: persistent
			? SessionManager.create(cwd, sessionDir)
			: SessionManager.inMemory(cwd);
	const sessionStartEvent: SessionStartEvent | undefined = settings.openFile
		? { type: "session_start", reason: "resume", previousSessionFile: settings.openFile }
		: undefined;
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		model,
		...(provider?.thinkingLevel ? { thinkingLevel: provider.thinkingLevel } : {}),
		modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager,
		customTools: wiring.customTools,
		tools: wiring.tools,
		...(sessionStartEvent ? { sessionStartEvent } : {}),
	});
	liveSessions.push(session);
	const errors: string[] = [];
	const ui: UiRecord = { notices: [], statuses: new Map() };
	await session.bindExtensions({
		onError: (error) => errors.push(`${error.event}: ${error.error}`),
		...(settings.ui ? { uiContext: recordingUi(ui), mode: settings.ui } : {}),
	});
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
		errors,
		ui,
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
	};
}

/** The probe tool's result text for `key`: the key, then the filler phrase `repeat` times. */
export function probeText(key: string, repeat: number): string {
	return `probe ${key}: ${"lorem ipsum dolor sit amet ".repeat(repeat)}`;
}

/** A deterministic custom tool `probe`: its result depends only on its `key` argument. */
export function createProbeTool(resultText: (key: string) => string): ToolDefinition {
	return {
		name: "probe",
		label: "Probe",
		description: "Returns a fixed text for a key.",
		parameters: Type.Object({ key: Type.String() }),
		async execute(_id, params) {
			const key = (params as { key: string }).key;
			return { content: [{ type: "text", text: resultText(key) }], details: undefined };
		},
	};
}

/** An assistant reply that calls `probe` once per key (one tool batch); call ids are `call_<key>`. */
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

/** Canonical bytes of one provider-visible message (JSON as recorded). */
export function messageBytes(message: Message): string {
	return JSON.stringify(message);
}

export type RequestRelation =
	| { kind: "identical" }
	| { kind: "append"; added: number }
	| { kind: "rewrite"; firstDivergence: number };

/** Classify the `next` message list against `previous` by per-message byte comparison. */
export function classifyMessages(previous: Message[], next: Message[]): RequestRelation {
	const a = previous.map(messageBytes);
	const b = next.map(messageBytes);
	let index = 0;
	while (index < a.length && index < b.length && a[index] === b[index]) index++;
	if (index === a.length)
		return index === b.length ? { kind: "identical" } : { kind: "append", added: b.length - index };
	return { kind: "rewrite", firstDivergence: index };
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
