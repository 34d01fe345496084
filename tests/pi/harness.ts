// Test harness for the folding runtime: a real in-process Pi AgentSession with pi-fold registered
// (through registerPiFold, as the package entry does) and the faux provider. Every provider
// request is recorded (a deep copy of what the provider received, plus the usage the faux prefix
// cache billed), so tests compare requests message by message, independently of pi-fold's own
// observer. The session itself (provider, settings, loader, session manager, request recording,
// script/run, temp dirs) is built by tests/helpers/pi-session.ts, shared with tests/host/harness.ts;
// this file owns the pi-fold wiring, notices and the pi-fold-specific helpers. Nothing in Pi is mocked.

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxToolCall, type Message } from "@earendil-works/pi-ai";
import type { ExtensionAPI, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { PiFoldOptions } from "../../src/options/index.ts";
import { type PiFold, type RegisterExtras, registerPiFold } from "../../src/pi/index.ts";
import type { FoldRuntime, Host } from "../../src/runtime/index.ts";
import { blobPath } from "../../src/verify/layout.ts";
import {
	classifyMessages,
	createPiSession,
	createProbeTool,
	type PiSession,
	type PiSessionSettings,
	probeText,
	type RecordedRequest,
	type RequestRelation,
	type SessionDirs,
	tempDir as sharedTempDir,
	textOf,
} from "../helpers/pi-session.ts";

export {
	callProbes,
	cleanupTempDirs,
	messageBytes,
	pairingProblems,
	type RecordedRequest,
	type RequestRelation,
	say,
	textOf,
} from "../helpers/pi-session.ts";

export interface HarnessOptions extends PiSessionSettings {
	options?: PiFoldOptions;
	/** registerPiFold's extras (test seams such as the model-brief timeout). */
	extras?: RegisterExtras;
	/** Extra registration run at extension load (after pi-fold). */
	setup?: (pi: ExtensionAPI) => void;
	/** Settings files written before pi-fold loads: `<agentDir>/pi-fold.json`, `<cwd>/.pi/pi-fold.json`. */
	settingsFiles?: { global?: string; project?: string };
	/** The `probe` tool to offer (default {@link probeTool}). */
	probe?: ToolDefinition;
	/** Pi's tool allowlist (default: probe and active_context). */
	tools?: string[];
}

export interface Harness extends PiSession {
	runtime: FoldRuntime;
	/** The runtime's host for the session's latest context (what pi-fold's hooks see). */
	host(): Host;
	/** pi-fold's out-of-band lines ({@link allNotices}). */
	notices: string[];
}

export function probeResultText(key: string): string {
	return probeText(key, key.startsWith("huge") ? 2_700 : key.startsWith("big") ? 200 : 20);
}

export const probeTool: ToolDefinition = createProbeTool(probeResultText);

/** An assistant reply that calls the context tool once per argument object. */
export function callTool(...calls: Record<string, unknown>[]): AssistantMessage {
	return fauxAssistantMessage(
		calls.map((args, i) => fauxToolCall("active_context", args as never, { id: `ctx_${counter++}_${i}` })),
		{ stopReason: "toolUse" },
	);
}
let counter = 0;

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

export function tempDir(prefix = "pi-fold-runtime-"): string {
	return sharedTempDir(prefix);
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	// Capture before the session starts: session_start may already tell the human something.
	captureNotices();
	let fold: PiFold | undefined;
	const pi = await createPiSession(options, {
		tempPrefix: "pi-fold-runtime-",
		customTools: [options.probe ?? probeTool],
		tools: options.tools ?? ["probe", "active_context"],
		extension: (api, see, dirs) => {
			writeSettingsFiles(dirs, options.settingsFiles);
			// Most runtime tests pin immediate scheduling's mechanics; cost scheduling (the default) has its own
			// tests. A test of settings files pins nothing in code, since code would win over the files.
			const code = options.settingsFiles
				? options.options
				: { foldScheduling: "immediate" as const, ...options.options };
			// The session's own agent dir, never the user's ~/.pi/agent.
			fold = registerPiFold(api, code, { agentDir: dirs.agentDir, ...options.extras });
			api.on("session_start", async (_event, ctx) => {
				see(ctx);
			});
			api.on("turn_end", async (_event, ctx) => {
				see(ctx);
			});
			options.setup?.(api);
		},
	});
	const registered = fold;
	if (!registered) throw new Error("pi-fold did not register");
	const notices = allNotices;
	return { ...pi, runtime: registered.runtime, host: () => registered.host(pi.ctx()), notices };
}

function writeSettingsFiles(dirs: SessionDirs, files: HarnessOptions["settingsFiles"]): void {
	if (files?.global !== undefined) {
		mkdirSync(dirs.agentDir, { recursive: true });
		writeFileSync(join(dirs.agentDir, "pi-fold.json"), files.global);
	}
	if (files?.project !== undefined) {
		mkdirSync(join(dirs.cwd, ".pi"), { recursive: true });
		writeFileSync(join(dirs.cwd, ".pi", "pi-fold.json"), files.project);
	}
}

/** The request's messages without system messages (what the `context` hook observes). */
export function conversation(request: RecordedRequest): Message[] {
	return request.messages.filter((m) => m.role !== "system");
}

/** Classify `next` against `previous` by per-message byte comparison (system messages excluded). */
export function relation(previous: RecordedRequest, next: RecordedRequest): RequestRelation {
	return classifyMessages(conversation(previous), conversation(next));
}

/**
 * The same over the whole request the provider receives: the system head compared by what a
 * provider is sent of it (its prompt text and tool declarations, not Pi's timestamp), then every message.
 */
export function requestRelation(previous: RecordedRequest, next: RecordedRequest): RequestRelation {
	const sent = (r: RecordedRequest) =>
		r.messages.map((m) => {
			if (m.role !== "system") return m;
			const { timestamp: _t, ...rest } = m as Message & { timestamp?: number };
			return rest as Message;
		});
	return classifyMessages(sent(previous), sent(next));
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

/** Runs a slash command as the human types it and returns what it showed (the UI notices it added, joined). */
export async function slashCommand(h: Harness, line: string): Promise<string> {
	const before = h.ui.notices.length;
	await h.session.prompt(line);
	return h.ui.notices
		.slice(before)
		.map((n) => n.message)
		.join("\n");
}
