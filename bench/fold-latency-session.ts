// The fold-latency benchmark's session: a persisted Pi session of N messages written through Pi's own
// SessionManager (one user prompt, then tool rounds of an assistant `probe` call and its result), and
// one real in-process AgentSession per run that resumes a copy of it with pi-fold registered on the
// faux provider. pi-fold gets a timing proxy of the ExtensionAPI: every hook it registers and its
// tool's `execute` are timed without adding a handler of their own (Pi rebuilds a boundary's preview
// after every handler, so an extra handler would change what is measured). Nothing in Pi is mocked.

import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import {
	type AssistantMessage,
	type FauxResponseStep,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	type Message,
} from "@earendil-works/pi-ai";
import {
	type AgentSession,
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionAPI,
	ModelRuntime,
	SessionManager,
	SettingsManager,
	type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { registerPiFold } from "../src/pi/index.ts";

/** A built session: its file and the ids of its tool-round entries (assistant call, result, ...). */
export interface BaseSession {
	readonly file: string;
	readonly roundIds: readonly string[];
}

/** One timed call of a pi-fold hook or of its tool. */
export interface Span {
	readonly name: string;
	readonly start: number;
	readonly end: number;
}

const RESULT_TEXT = "probe result: lorem ipsum dolor sit amet, consectetur adipiscing elit.";

function callMessage(i: number): AssistantMessage {
	return fauxAssistantMessage(fauxToolCall("probe", { key: `k${i}` }, { id: `call_${i}` }), {
		stopReason: "toolUse",
	});
}

function resultMessage(i: number): Message {
	return {
		role: "toolResult",
		toolCallId: `call_${i}`,
		toolName: "probe",
		content: [{ type: "text", text: `${RESULT_TEXT} #${i}` }],
		isError: false,
		timestamp: Date.now(),
	};
}

/** Writes a session of `messages` messages (a prompt, then call/result rounds) under `dir`. */
export function buildBaseSession(dir: string, cwd: string, messages: number): BaseSession {
	const sm = SessionManager.create(cwd, dir);
	sm.appendMessage({ role: "user", content: "Probe every key.", timestamp: Date.now() });
	const roundIds: string[] = [];
	for (let i = 0; roundIds.length + 1 < messages; i++) {
		roundIds.push(sm.appendMessage(callMessage(i)));
		roundIds.push(sm.appendMessage(resultMessage(i)));
	}
	const file = sm.getSessionFile();
	if (!file) throw new Error("the base session has no file");
	return { file, roundIds };
}

/** The ExtensionAPI pi-fold registers on, with every hook handler and tool execution timed into `spans`. */
export function timedApi(pi: ExtensionAPI, spans: Span[]): ExtensionAPI {
	const time = async <R>(name: string, run: () => Promise<R> | R): Promise<R> => {
		const start = performance.now();
		try {
			return await run();
		} finally {
			spans.push({ name, start, end: performance.now() });
		}
	};
	const on = (event: string, handler: (...args: unknown[]) => unknown) =>
		(pi.on as (e: string, h: (...args: unknown[]) => unknown) => void)(event, (...args) =>
			time(event, () => handler(...args)),
		);
	const registerTool = (tool: ToolDefinition) =>
		pi.registerTool({ ...tool, execute: (...args) => time(`tool:${tool.name}`, () => tool.execute(...args)) });
	return new Proxy(pi, {
		get(target, key) {
			if (key === "on") return on;
			if (key === "registerTool") return registerTool;
			const value = Reflect.get(target, key);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

const probeTool: ToolDefinition = {
	name: "probe",
	label: "Probe",
	description: "Returns a fixed text for a key.",
	parameters: Type.Object({ key: Type.String() }),
	async execute() {
		return { content: [{ type: "text", text: RESULT_TEXT }], details: undefined };
	},
};

/** A resumed copy of the base session with pi-fold, ready to prompt. */
/**
 * The offline model runtime the latency benchmarks share: one faux model (`id`, its window, a
 * 4,096-token output cap) and no network, with Pi's compaction off in in-memory settings (on, with
 * Pi's default thresholds, when `compaction` is set).
 */
export async function offlineRuntime(agentDir: string, id: string, contextWindow: number, compaction = false) {
	const faux = fauxProvider({ models: [{ id, contextWindow, maxTokens: 4_096 }] });
	const modelRuntime = await ModelRuntime.create({
		authPath: join(agentDir, "auth.json"),
		modelsPath: null,
		allowModelNetwork: false,
	});
	modelRuntime.registerNativeProvider(faux.provider);
	const settingsManager = SettingsManager.inMemory({ compaction: { enabled: compaction } });
	return { faux, modelRuntime, settingsManager };
}

export interface BenchSession {
	readonly session: AgentSession;
	readonly spans: Span[];
	/** When the faux provider received each request (performance.now()). */
	readonly requestTimes: number[];
	script(steps: FauxResponseStep[]): void;
	dispose(): void;
}

/** Resumes a copy of `base` (under `root`) in a real AgentSession with pi-fold registered. */
export async function openBenchSession(base: BaseSession, root: string, cwd: string): Promise<BenchSession> {
	const agentDir = join(root, "agent");
	const sessionDir = join(root, "sessions");
	mkdirSync(sessionDir, { recursive: true });
	const file = join(sessionDir, "session.jsonl");
	copyFileSync(base.file, file);
	const { faux, modelRuntime, settingsManager } = await offlineRuntime(agentDir, "faux-1", 2_000_000);
	const spans: Span[] = [];
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		extensionFactories: [
			(pi: ExtensionAPI) => void registerPiFold(timedApi(pi, spans), { foldScheduling: "immediate" }, { agentDir }),
		],
		noContextFiles: true,
	});
	await resourceLoader.reload();
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		model: faux.getModel(),
		modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager: SessionManager.open(file, sessionDir),
		customTools: [probeTool],
		tools: ["probe", "active_context"],
		sessionStartEvent: { type: "session_start", reason: "resume", previousSessionFile: file },
	});
	const errors: string[] = [];
	await session.bindExtensions({ onError: (error) => errors.push(`${error.event}: ${error.error}`) });
	if (errors.length > 0) throw new Error(`extension errors: ${errors.join("; ")}`);
	const requestTimes: number[] = [];
	return {
		session,
		spans,
		requestTimes,
		script(steps) {
			faux.appendResponses(
				steps.map(
					(step): FauxResponseStep =>
						(context, options, state, model) => {
							requestTimes.push(performance.now());
							return typeof step === "function" ? step(context, options, state, model) : step;
						},
				),
			);
		},
		dispose: () => session.dispose(),
	};
}

/**
 * Pi applying `size` context_edit drafts (the fold's: a brief, then omissions) once, timed: onto an
 * in-memory copy of the base session's branch, exactly as Pi builds a boundary's preview
 * (`SessionManager.inMemory(cwd, undefined, [header, ...branch])`, then `appendContextEdit` per draft).
 * The boundary path does this once per boundary handler and once more to commit.
 */
export function applyDraftsOnceMs(base: BaseSession, root: string, cwd: string, size: number): number {
	const source = SessionManager.open(base.file, join(root, "apply"));
	const header = source.getHeader();
	if (!header) throw new Error("the base session has no header");
	const preview = SessionManager.inMemory(cwd, undefined, [header, ...source.getBranch()]);
	const start = performance.now();
	for (const [i, id] of base.roundIds.slice(0, size).entries())
		preview.appendContextEdit(id, i === 0 ? { content: [{ type: "text", text: "brief" }] } : null);
	return performance.now() - start;
}
