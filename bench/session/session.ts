// Runs one arm end to end: a temporary workspace holding the plan's files, a real Pi session (SDK, persistent
// JSONL session file) on the benchmark's faux model, the built-in read-only tools plus `repo_stage`, one user
// message, one agentic turn. Returns the ledger, the run record and the wall time. Does its own file I/O.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArmDefinition, ArmEnv, FoldMetrics } from "./arms.ts";
import { type Corpus, materializeCorpus } from "./corpus.ts";
import { loadPiHost } from "./host.ts";
import type { RequestRecord } from "./ledger.ts";
import type { Plan } from "./plan.ts";
import { createPolicyFactory } from "./policy.ts";
import { STAGE_TOOL, taskMessage } from "./protocol.ts";
import { createBenchProvider, REQUEST_CAP_ERROR } from "./provider.ts";
import { createRunRecord, type RunRecord } from "./record.ts";
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
	/** Answers per recovery route ("window", "reread", arm routes, "none"). */
	routes: Record<string, number>;
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

export async function runArm(arm: ArmDefinition, plan: Plan, corpus: Corpus, options: RunArmOptions): Promise<ArmRun> {
	const host = await loadPiHost();
	const { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } = host.agent;
	const tmp = mkdtempSync(join(tmpdir(), "pi-fold-demo-"));
	try {
		const workspace = join(tmp, "work");
		const agentDir = join(tmp, "agent");
		const sessionDir = join(tmp, "sessions");
		for (const dir of [workspace, agentDir, sessionDir]) mkdirSync(dir, { recursive: true });
		materializeCorpus(
			corpus,
			plan.files.map((f) => f.path),
			workspace,
		);
		const env: ArmEnv = { plan, workspace, sessionDir, agentDir, window: options.window };
		const record = createRunRecord();
		const routes: Record<string, number> = {};
		const factory = createPolicyFactory({
			routes: arm.routes ?? [],
			...(arm.beforeSubmit ? { beforeSubmit: arm.beforeSubmit } : {}),
			...(arm.augmentView ? { augmentView: arm.augmentView } : {}),
			...(arm.recoverFiles ? { recoverFiles: arm.recoverFiles } : {}),
			...(options.summaryMaxChars ? { summaryMaxChars: options.summaryMaxChars } : {}),
			observer: {
				answered: (_s, _q, route) => {
					routes[route] = (routes[route] ?? 0) + 1;
				},
			},
		});
		const bench = createBenchProvider(host.ai, {
			window: options.window,
			maxTokens: options.maxTokens,
			factory,
			maxRequests: plan.stageCount * 12 + 64,
			stageNow: () => record.opened,
		});
		const modelRuntime = await ModelRuntime.create({
			authPath: join(agentDir, "auth.json"),
			modelsPath: null,
			allowModelNetwork: false,
		});
		modelRuntime.registerNativeProvider(bench.provider);
		const settingsManager = SettingsManager.inMemory({ compaction: { enabled: arm.compaction } });
		const progress = progressReporter(arm.name, plan, record, bench.ledger, options.onProgress);
		const loader = new DefaultResourceLoader({
			cwd: workspace,
			agentDir,
			settingsManager,
			extensionFactories: [
				stageToolExtension(host, { plan, record, currentRequest: bench.lastAgentRequest, onStage: progress }),
				...(arm.extensions?.(env) ?? []),
			],
			noContextFiles: true,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			systemPrompt: SYSTEM_PROMPT,
		});
		await loader.reload();
		const { session } = await createAgentSession({
			cwd: workspace,
			agentDir,
			model: bench.model,
			thinkingLevel: "off",
			modelRuntime,
			settingsManager,
			resourceLoader: loader,
			sessionManager: SessionManager.create(workspace, sessionDir),
			tools: ["read", "ls", "find", STAGE_TOOL, ...(arm.tools ?? [])],
		});
		let error: string | undefined;
		await session.bindExtensions({
			onError: (e) => {
				error = `${e.event}: ${e.error}`;
			},
		});
		const started = performance.now();
		try {
			await session.prompt(taskMessage(plan));
		} catch (e) {
			error = e instanceof Error ? e.message : String(e);
		}
		const wallMs = performance.now() - started;
		const lastError = [...session.messages]
			.reverse()
			.find((m) => m.role === "assistant" && (m as { errorMessage?: string }).errorMessage) as
			| { errorMessage?: string }
			| undefined;
		error ??= lastError?.errorMessage;
		const foldEvents = arm.foldEvents?.(session, env) ?? 0;
		const metrics = arm.metrics?.(session, env);
		const sessionFile = session.sessionManager.getSessionFile();
		session.dispose();
		if (options.keepSessionIn && sessionFile)
			copyFileSync(sessionFile, join(options.keepSessionIn, `${arm.name}.session.jsonl`));
		const status: ArmStatus = record.complete
			? "complete"
			: bench.ledger.some((r) => r.rejected)
				? "overflow"
				: !error || error.startsWith(REQUEST_CAP_ERROR)
					? "stalled"
					: "error";
		record.rejectedCalls = bench.ledger.filter((r) => r.rejected).length;
		return {
			arm: arm.name,
			status,
			...(error && !record.complete ? { error } : {}),
			wallMs,
			ledger: bench.ledger,
			record,
			routes,
			foldEvents,
			...(metrics ? { metrics } : {}),
		};
	} finally {
		rmSync(tmp, { recursive: true, force: true });
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
