// The pi-fold arms of the session benchmark: pi-fold loaded with `registerPiFold` next to the benchmark's own
// extension, Pi's native compaction left on (pi-fold must keep the window in its band itself), briefs written by the
// session's model (the faux model, answered by the policy's extractive brief writer). The arms differ in scheduling
// and in what the scripted agent does with the tool. Also reads each run's fold measures back from the session.

import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { PiFoldOptions } from "../../src/options/index.ts";
import { type PiFold, piChainKey, registerPiFold } from "../../src/pi/index.ts";
import { emptyState, replay } from "../../src/state/index.ts";
import type { ArmDefinition, ArmEnv, FoldMetrics } from "./arm-types.ts";
import { CONTEXT_TOOL } from "./folds.ts";
import { pifoldTotalWindow } from "./options.ts";
import { addPeekedReads, briefRoute, handIn, peekRoute, recoverFromFolds } from "./pifold-policy.ts";
import { textOf } from "./window.ts";

const runtimes = new WeakMap<ArmEnv, PiFold>();

function withPiFold(options: PiFoldOptions): (env: ArmEnv) => ReturnType<NonNullable<ArmDefinition["extensions"]>> {
	return (env) => [
		(pi) => {
			const code = { ...options, providerTotalWindow: pifoldTotalWindow(env.window) };
			runtimes.set(env, registerPiFold(pi, code, { agentDir: env.agentDir }));
		},
	];
}

/** Fold measures of one finished run, read from the session's entries and pi-fold's runtime. */
export function foldMetrics(session: AgentSession, env: ArmEnv): FoldMetrics {
	const runtime = runtimes.get(env)?.runtime;
	const decisionType = runtime?.names.decisionEntryType ?? "pi-fold:decision";
	let commits = 0;
	let agentMarks = 0;
	let topUpMarks = 0;
	for (const entry of session.sessionManager.getEntries()) {
		const e = entry as {
			type: string;
			customType?: string;
			data?: { kind?: string; agentMarks?: unknown[]; topUpMarks?: unknown[] };
		};
		if (e.type !== "custom" || e.customType !== decisionType || e.data?.kind !== "commit") continue;
		commits++;
		agentMarks += e.data.agentMarks?.length ?? 0;
		topUpMarks += e.data.topUpMarks?.length ?? 0;
	}
	const calls = new Map<string, Record<string, unknown>>();
	let peeks = 0;
	let peekBytes = 0;
	let expands = 0;
	let foldCalls = 0;
	let refusedCalls = 0;
	// The session's entries hold every message as it was sent (session.messages is the projected window).
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type !== "message") continue;
		const m = entry.message;
		if (m.role === "assistant")
			for (const b of m.content) if (b.type === "toolCall") calls.set(b.id, b.arguments as Record<string, unknown>);
		if (m.role !== "toolResult" || m.toolName !== CONTEXT_TOOL) continue;
		const args = calls.get(m.toolCallId);
		if (m.isError) refusedCalls++;
		else if (args?.action === "peek") {
			peeks++;
			const range = /^\[peek f[0-9a-f]+ · bytes (\d+)-(\d+)/.exec(textOf(m.content));
			if (range) peekBytes += Number(range[2]) - Number(range[1]);
		} else if (args?.action === "expand") expands++;
		else if (args?.action === "fold") foldCalls++;
	}
	const records = session.sessionManager
		.getBranch()
		.flatMap((e) => (e.type === "custom" && e.customType === decisionType ? [{ entryId: e.id, data: e.data }] : []));
	const state = replay(records, emptyState(), piChainKey());
	const folds = [...state.folds.values()];
	const counts = runtime?.telemetry.view().counters;
	return {
		commits,
		folds: folds.length,
		agentFolds: folds.filter((f) => f.origin === "agent").length,
		ladderFolds: folds.filter((f) => f.origin === "ladder").length,
		modelBriefs: folds.filter((f) => (f as { briefSource?: string }).briefSource === "model").length,
		pendingMarks: state.pendingMarks.size,
		agentMarks,
		topUpMarks,
		foldCalls,
		refusedCalls,
		peeks,
		peekBytes,
		expands,
		rewrites: counts?.rewrites ?? 0,
		unattributedRewrites: counts?.unattributedRewrites ?? 0,
	};
}

const common = {
	compaction: true,
	tools: [CONTEXT_TOOL],
	foldEvents: (session: AgentSession, env: ArmEnv) => foldMetrics(session, env).commits,
	metrics: foldMetrics,
} satisfies Partial<ArmDefinition>;

/**
 * The curating agent every tool-calling pi-fold arm runs (issue 3: when a fact is not visible it
 * uses what the arm offers, the brief's handle then peek or expand, before rereading from disk):
 * it folds each handed-in stage, answers from briefs and peeks, and takes revisited files back
 * from their folds.
 */
const agent = {
	routes: [briefRoute, peekRoute],
	beforeSubmit: handIn,
	augmentView: addPeekedReads,
	recoverFiles: recoverFromFolds,
} satisfies Partial<ArmDefinition>;

export const PIFOLD_ARMS: readonly ArmDefinition[] = [
	{
		...common,
		name: "pifold-ladder",
		description:
			"pi-fold's defaults (cost scheduling, session-model briefs when they pay), Pi's compaction on; the agent never calls the tool: the automatic ladder alone",
		extensions: withPiFold({}),
		routes: [briefRoute],
	},
	{
		...common,
		name: "pifold-immediate",
		description:
			"pi-fold, immediate scheduling; the agent folds each handed-in stage with its own brief and recovers old facts and revisited files through the brief's handle (peek, then expand) before rereading from disk",
		extensions: withPiFold({ foldScheduling: "immediate" }),
		...agent,
	},
	{
		...common,
		name: "pifold-epoch",
		description:
			"pifold-immediate's agent under epoch scheduling: its folds are free pending marks the runtime commits together",
		extensions: withPiFold({ foldScheduling: "epoch" }),
		...agent,
	},
	{
		...common,
		name: "pifold-agent",
		description:
			"pi-fold's defaults (cost scheduling) with the curating agent: it marks each handed-in stage with its own brief and recovers old facts through the brief's handle before rereading from disk",
		extensions: withPiFold({}),
		...agent,
	},
];
