// Test harness for the folding runtime: a real in-process Pi AgentSession with pi-fold registered
// (through registerPiFold, as the package entry does) and the faux provider. Every provider
// request is recorded (a deep copy of what the provider received, plus the usage the faux prefix
// cache billed), so tests compare requests message by message, independently of pi-fold's own
// observer. Adapted from tests/host/harness.ts; nothing in Pi is mocked.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
	ModelRuntime,
	SessionManager,
	type SessionStartEvent,
	SettingsManager,
	type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { PiFoldOptions } from "../../src/pi/options.ts";
import { type RegisterExtras, registerPiFold } from "../../src/pi/register.ts";
import type { FoldRuntime } from "../../src/pi/runtime.ts";
import { blobPath } from "../../src/verify/layout.ts";

export interface RecordedRequest {
	/** Deep copy of `context.messages` (system head included). */
	messages: Message[];
	usage?: Usage;
}

export interface HarnessOptions {
	persistent?: boolean;
	openFile?: string;
	sessionDir?: string;
	contextWindow?: number;
	options?: PiFoldOptions;
	/** registerPiFold's extras (test seams such as the model-brief timeout). */
	extras?: RegisterExtras;
	/** Pi's compaction settings (default: disabled). */
	compaction?: { enabled: boolean; reserveTokens?: number; keepRecentTokens?: number };
	/** Extra registration run at extension load (after pi-fold). */
	setup?: (pi: ExtensionAPI) => void;
}

export interface Harness {
	session: AgentSession;
	faux: FauxProviderHandle;
	runtime: FoldRuntime;
	requests: RecordedRequest[];
	errors: string[];
	notices: string[];
	ctx(): ExtensionContext;
	script(steps: FauxResponseStep[]): void;
	run(text: string): Promise<void>;
	sessionFile(): string | undefined;
	sessionDir: string;
}

export function probeResultText(key: string): string {
	const repeat = key.startsWith("huge") ? 2_700 : key.startsWith("big") ? 200 : 20;
	return `probe ${key}: ${"lorem ipsum dolor sit amet ".repeat(repeat)}`;
}

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

/** An assistant reply that calls `probe` once per key (one tool batch); call ids are `call_<key>`. */
export function callProbes(...keys: string[]): AssistantMessage {
	return fauxAssistantMessage(
		keys.map((key) => fauxToolCall("probe", { key }, { id: `call_${key}` })),
		{ stopReason: "toolUse" },
	);
}

/** An assistant reply that calls the context tool once per argument object. */
export function callTool(...calls: Record<string, unknown>[]): AssistantMessage {
	return fauxAssistantMessage(
		calls.map((args, i) => fauxToolCall("active_context", args as never, { id: `ctx_${counter++}_${i}` })),
		{ stopReason: "toolUse" },
	);
}
let counter = 0;

export function say(text: string): AssistantMessage {
	return fauxAssistantMessage(text);
}

/** pi-fold's out-of-band lines (stderr without a UI), captured for assertions. */
export const allNotices: string[] = [];
let capturing = false;
function captureNotices(): void {
	if (capturing) return;
	capturing = true;
	const stderr = process.stderr.write.bind(process.stderr);
	process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
		if (typeof chunk === "string" && chunk.startsWith("[pi-fold]")) {
			allNotices.push(chunk.trim());
			return true;
		}
		return (stderr as (...a: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof process.stderr.write;
}

const tempDirs: string[] = [];
const liveSessions: AgentSession[] = [];

export function tempDir(prefix = "pi-fold-runtime-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	tempDirs.push(dir);
	return dir;
}

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
	let lastCtx: ExtensionContext | undefined;
	let runtime: FoldRuntime | undefined;
	const extension = (pi: ExtensionAPI): void => {
		runtime = registerPiFold(pi, options.options, options.extras);
		pi.on("session_start", async (_event, ctx) => {
			lastCtx = ctx;
		});
		pi.on("turn_end", async (_event, ctx) => {
			lastCtx = ctx;
		});
		options.setup?.(pi);
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
		tools: ["probe", "active_context"],
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
	if (!runtime) throw new Error("pi-fold did not register");
	captureNotices();
	const notices = allNotices;
	return {
		session,
		faux,
		runtime,
		requests,
		errors,
		notices,
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

/** Canonical bytes of one provider-visible message (JSON as recorded). */
export function messageBytes(message: Message): string {
	return JSON.stringify(message);
}

/** The request's messages without system messages (what the `context` hook observes). */
export function conversation(request: RecordedRequest): Message[] {
	return request.messages.filter((m) => m.role !== "system");
}

export type RequestRelation =
	| { kind: "identical" }
	| { kind: "append"; added: number }
	| { kind: "rewrite"; firstDivergence: number };

/** Classify `next` against `previous` by per-message byte comparison (system messages excluded). */
export function relation(previous: RecordedRequest, next: RecordedRequest): RequestRelation {
	const a = conversation(previous).map(messageBytes);
	const b = conversation(next).map(messageBytes);
	let index = 0;
	while (index < a.length && index < b.length && a[index] === b[index]) index++;
	if (index === a.length)
		return index === b.length ? { kind: "identical" } : { kind: "append", added: b.length - index };
	return { kind: "rewrite", firstDivergence: index };
}

export function textOf(message: Message | undefined): string {
	if (!message) return "";
	const content = message.content as string | { type: string; text?: string }[];
	if (typeof content === "string") return content;
	return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("");
}

/** Tool results of the context tool, in order, as text. */
export function toolTexts(h: Harness): string[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) =>
			e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "active_context"
				? [textOf(e.message as Message)]
				: [],
		);
}

/** Pairing problems in a provider transcript (empty means every call has its result and vice versa). */
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

/** Overwrites a stored fold source (tamper test): the blob file is 0444, so chmod first. */
export function tamperBlob(storeDir: string, sha256: string, text: string): void {
	const path = blobPath(storeDir, sha256);
	chmodSync(path, 0o644);
	writeFileSync(path, text);
}

/** The entry id of the tool result answering `callId` on the active branch. */
export function resultEntryId(h: Harness, callId: string): string {
	const entry = h.session.sessionManager
		.getBranch()
		.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolCallId === callId);
	if (!entry) throw new Error(`no result for ${callId}`);
	return entry.id;
}
