// Runs one arm end to end: a temporary workspace holding the plan's files, a real Pi session (SDK, persistent
// JSONL session file) on the benchmark's faux model, the built-in read-only tools plus `repo_stage`, one user
// message, one agentic turn. Returns the ledger, the run record and the wall time. Does its own file I/O.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentSession, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import type { ArmDefinition, ArmEnv, FoldMetrics } from "./arms.ts";
import { createBenchProvider, REQUEST_CAP_ERROR } from "./bench-model.ts";
import type { RequestRecord } from "./ledger.ts";
import { loadPiHost, type PiHost } from "./pi-packages.ts";
import type { Plan } from "./plan.ts";
import { createPolicyFactory } from "./policy.ts";
import { STAGE_TOOL, taskMessage } from "./protocol.ts";
import { createRunRecord, type RunRecord } from "./record.ts";
import type { QuestionTrace } from "./reuse-tally.ts";
import { type Corpus, materializeCorpus } from "./session-corpus.ts";
import { stageToolExtension } from "./stage-tool.ts";

/** The system prompt every arm's session runs with (replaces Pi's default, which names install paths). */
export const SYSTEM_PROMPT =
	"You are a coding agent working through a staged repository assignment. Use the tools to read files and open stages.";

/**
 * "complete": every stage handed in; "overflow": the provider rejected a request over the window; "stalled": the turn
 * ended (or hit the request cap) without finishing; "error": the session reported another error.
 */
export type ArmStatus = "complete" | "overflow" | "stalled" | "error";

export interface ArmRun {
	arm: string;
	status: ArmStatus;
	/** The last error the session reported, if any. */
	error?: string;
	wallMs: number;
	ledger: RequestRecord[];
	record: RunRecord;
	/** Answers per recovery route ("window", "reread", arm routes, "none", "blind"). */
	routes: Record<string, number>;
	/** Per question ("<stage>/<id>"): the route that answered it and the tool calls it asked for on the way. */
	questions: QuestionTrace;
	foldEvents: number;
	/** pi-fold arms: what pi-fold did (commits, folds, marks, peeks, expands, rewrites). */
	metrics?: FoldMetrics;
}

export interface RunArmOptions {
	window: number;
	maxTokens: number;
	summaryMaxChars?: number;
	/** Copy the session JSONL here as `<arm>.session.jsonl`. */
	keepSessionIn?: string;
	onProgress?: (line: string) => void;
}

/** The temporary folders of one run: the workspace holding the plan's files, the agent dir, the sessions. */
interface RunDirs {
	tmp: string;
	workspace: string;
	agentDir: string;
	sessionDir: string;
}

function prepareDirs(plan: Plan, corpus: Corpus): RunDirs {
	const tmp = mkdtempSync(join(tmpdir(), "pi-fold-demo-"));
	const dirs = { tmp, workspace: join(tmp, "work"), agentDir: join(tmp, "agent"), sessionDir: join(tmp, "sessions") };
	for (const dir of [dirs.workspace, dirs.agentDir, dirs.sessionDir]) mkdirSync(dir, { recursive: true });
	materializeCorpus(
		corpus,
		plan.files.map((f) => f.path),
		dirs.workspace,
	);
	return dirs;
}

/** The scripted agent's response factory for `arm`, counting answers per recovery route. */
function policyFor(
	arm: ArmDefinition,
	options: RunArmOptions,
	routes: Record<string, number>,
	questions: QuestionTrace,
) {
	const trace = (stage: number, id: string) => {
		const key = `${stage}/${id}`;
		questions[key] ??= { route: "", calls: 0 };
		return questions[key];
	};
	return createPolicyFactory({
		routes: arm.routes ?? [],
		...(arm.beforeSubmit ? { beforeSubmit: arm.beforeSubmit } : {}),
		...(arm.augmentView ? { augmentView: arm.augmentView } : {}),
		...(arm.recoverFiles ? { recoverFiles: arm.recoverFiles } : {}),
		...(options.summaryMaxChars ? { summaryMaxChars: options.summaryMaxChars } : {}),
		windowTokens: options.window,
		observer: {
			answered: (stage, id, route) => {
				routes[route] = (routes[route] ?? 0) + 1;
				trace(stage, id).route = route;
			},
			called: (stage, id, calls) => {
				trace(stage, id).calls += calls;
			},
		},
	});
}

/** A real Pi session on the benchmark's model, with the arm's settings, extensions and tools. */
async function createArmSession(
	host: PiHost,
	arm: ArmDefinition,
	env: ArmEnv & RunDirs,
	bench: ReturnType<typeof createBenchProvider>,
	stageTool: ExtensionFactory,
) {
	const { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } = host.agent;
	const modelRuntime = await ModelRuntime.create({
		authPath: join(env.agentDir, "auth.json"),
		modelsPath: null,
		allowModelNetwork: false,
	});
	modelRuntime.registerNativeProvider(bench.provider);
	const settingsManager = SettingsManager.inMemory({
		compaction: { enabled: arm.compaction, ...arm.compactionSettings?.(env) },
	});
	const loader = new DefaultResourceLoader({
		cwd: env.workspace,
		agentDir: env.agentDir,
		settingsManager,
		extensionFactories: [stageTool, ...(arm.extensions?.(env) ?? [])],
		noContextFiles: true,
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		systemPrompt: SYSTEM_PROMPT,
	});
	await loader.reload();
	const { session } = await createAgentSession({
		cwd: env.workspace,
		agentDir: env.agentDir,
		model: bench.model,
		thinkingLevel: "off",
		modelRuntime,
		settingsManager,
		resourceLoader: loader,
		sessionManager: SessionManager.create(env.workspace, env.sessionDir),
		tools: ["read", "ls", "find", STAGE_TOOL, ...(arm.tools ?? [])],
	});
	return session;
}

/** Prompts the task once and waits for the turn to end; the last error the session reported, if any. */
async function runTask(session: AgentSession, plan: Plan): Promise<string | undefined> {
	let error: string | undefined;
	await session.bindExtensions({
		onError: (e) => {
			error = `${e.event}: ${e.error}`;
		},
	});
	try {
		await session.prompt(taskMessage(plan));
	} catch (e) {
		error = e instanceof Error ? e.message : String(e);
	}
	const last = [...session.messages]
		.reverse()
		.find((m) => m.role === "assistant" && (m as { errorMessage?: string }).errorMessage) as
		| { errorMessage?: string }
		| undefined;
	return error ?? last?.errorMessage;
}

function statusOf(record: RunRecord, ledger: readonly RequestRecord[], error: string | undefined): ArmStatus {
	if (record.complete) return "complete";
	if (ledger.some((r) => r.rejected)) return "overflow";
	return !error || error.startsWith(REQUEST_CAP_ERROR) ? "stalled" : "error";
}

/** Runs `fn` with Pi's agent directory pointed at `dir` (the run's own; nothing lands in the user's ~/.pi). */
async function withAgentDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
	const before = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = dir;
	try {
		return await fn();
	} finally {
		if (before === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = before;
	}
}

export async function runArm(arm: ArmDefinition, plan: Plan, corpus: Corpus, options: RunArmOptions): Promise<ArmRun> {
	const host = await loadPiHost();
	const dirs = prepareDirs(plan, corpus);
	try {
		return await withAgentDir(dirs.agentDir, async () => {
			const env = { ...dirs, plan, window: options.window };
			const record = createRunRecord();
			const routes: Record<string, number> = {};
			const questions: QuestionTrace = {};
			const bench = createBenchProvider(host.ai, {
				window: options.window,
				maxTokens: options.maxTokens,
				factory: policyFor(arm, options, routes, questions),
				maxRequests: plan.stageCount * 12 + 64,
				stageNow: () => record.opened,
			});
			const progress = progressReporter(arm.name, plan, record, bench.ledger, options.onProgress);
			const stageTool = stageToolExtension(host, {
				plan,
				record,
				currentRequest: bench.lastAgentRequest,
				onStage: progress,
			});
			const session = await createArmSession(host, arm, env, bench, stageTool);
			const started = performance.now();
			const error = await runTask(session, plan);
			const wallMs = performance.now() - started;
			const foldEvents = arm.foldEvents?.(session, env) ?? 0;
			const metrics = arm.metrics?.(session, env);
			const sessionFile = session.sessionManager.getSessionFile();
			session.dispose();
			if (options.keepSessionIn && sessionFile)
				copyFileSync(sessionFile, join(options.keepSessionIn, `${arm.name}.session.jsonl`));
			record.rejectedCalls = bench.ledger.filter((r) => r.rejected).length;
			const status = statusOf(record, bench.ledger, error);
			return {
				arm: arm.name,
				status,
				...(error && !record.complete ? { error } : {}),
				wallMs,
				ledger: bench.ledger,
				record,
				routes,
				questions,
				foldEvents,
				...(metrics ? { metrics } : {}),
			};
		});
	} finally {
		rmSync(dirs.tmp, { recursive: true, force: true });
	}
}

function progressReporter(
	arm: string,
	plan: Plan,
	record: RunRecord,
	ledger: RequestRecord[],
	onProgress: ((line: string) => void) | undefined,
): () => void {
	const every = Math.max(1, Math.round(plan.stageCount / 8));
	return () => {
		if (!onProgress || (record.opened % every !== 0 && record.opened <= plan.stageCount)) return;
		const last = ledger.filter((r) => !r.rejected).at(-1);
		const where = record.complete ? "all stages handed in" : `stage ${record.opened}/${plan.stageCount}`;
		onProgress(`${arm}: ${where}, ${ledger.length} requests, context ${last?.context ?? 0}`);
	};
}
