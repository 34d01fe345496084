// The pi-fold arms of the session benchmark: pi-fold loaded with `registerPiFold` next to the benchmark's own
// extension as installed (its total window the model's; only `pifold-agent-272k` pins it to 272k), Pi's native
// compaction left on (pi-fold must keep the window in its band itself), briefs written by the session's model (the
// faux model, answered by the stand-in writer). The arms differ in scheduling
// and in what the scripted agent does with the tool. Also reads each run's fold measures back from the session.

import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { PiFoldOptions } from "../../src/options/index.ts";
import { type PiFold, piChainKey, registerPiFold } from "../../src/pi/index.ts";
import { emptyState, replay } from "../../src/state/index.ts";
import type { ArmDefinition, ArmEnv, FoldMetrics } from "./arm-types.ts";
import { pinnedTotalWindow } from "./demo-options.ts";
import { CONTEXT_TOOL } from "./folds.ts";
import { addPeekedReads, briefRoute, handIn, peekRoute } from "./pifold-policy.ts";
import { pointerRoute } from "./pointer-route.ts";
import { commitChecks } from "./predictions.ts";
import { recallMetrics } from "./recall-metrics.ts";
import { recoverListed, searchRoute } from "./search-route.ts";
import { textOf } from "./window-view.ts";

const runtimes = new WeakMap<ArmEnv, PiFold>();

/** pi-fold loaded with `options`, as installed: its total window is the model's unless `pinned` (272k). */
function withPiFold(
	options: PiFoldOptions,
	pinned = false,
): (env: ArmEnv) => ReturnType<NonNullable<ArmDefinition["extensions"]>> {
	return (env) => [
		(pi) => {
			const code = pinned ? { ...options, providerTotalWindow: pinnedTotalWindow(env.window) } : options;
			runtimes.set(env, registerPiFold(pi, code, { agentDir: env.agentDir }));
		},
	];
}

/** Commit records on the branch: how many, and the marks they applied by origin. */
function commitCounts(
	entries: readonly { type: string; customType?: string; data?: unknown; message?: { role?: string } }[],
	decisionType: string,
) {
	let commits = 0;
	let agentMarks = 0;
	let topUpMarks = 0;
	// Commits since the last reply: made at the run's last boundary, no request after them shows their rewrite.
	let unseenCommits = 0;
	for (const e of entries) {
		if (e.type === "message" && e.message?.role === "assistant") unseenCommits = 0;
		const data = e.data as { kind?: string; agentMarks?: unknown[]; topUpMarks?: unknown[] } | undefined;
		if (e.type !== "custom" || e.customType !== decisionType || data?.kind !== "commit") continue;
		commits++;
		unseenCommits++;
		agentMarks += data.agentMarks?.length ?? 0;
		topUpMarks += data.topUpMarks?.length ?? 0;
	}
	return { commits, unseenCommits, agentMarks, topUpMarks };
}

/** The agent's calls of the context tool, from the messages as they were sent (not the projected window). */
function contextToolCalls(session: AgentSession) {
	const calls = new Map<string, Record<string, unknown>>();
	const out = { foldCalls: 0, refusedCalls: 0, peeks: 0, peekBytes: 0, expands: 0 };
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type !== "message") continue;
		const m = entry.message;
		if (m.role === "assistant")
			for (const b of m.content) if (b.type === "toolCall") calls.set(b.id, b.arguments as Record<string, unknown>);
		if (m.role !== "toolResult" || m.toolName !== CONTEXT_TOOL) continue;
		const args = calls.get(m.toolCallId);
		if (m.isError) out.refusedCalls++;
		else if (args?.action === "peek") {
			out.peeks++;
			const range = /^\[peek f[0-9a-f]+ · bytes (\d+)-(\d+)/.exec(textOf(m.content));
			if (range) out.peekBytes += Number(range[2]) - Number(range[1]);
		} else if (args?.action === "expand") out.expands++;
		else if (args?.action === "fold") out.foldCalls++;
	}
	return out;
}

/** Fold measures of one finished run, read from the session's entries and pi-fold's runtime. */
export function foldMetrics(session: AgentSession, env: ArmEnv): FoldMetrics {
	const runtime = runtimes.get(env)?.runtime;
	const decisionType = runtime?.names.decisionEntryType ?? "pi-fold:decision";
	const branch = session.sessionManager.getBranch();
	const records = branch.flatMap((e) =>
		e.type === "custom" && e.customType === decisionType ? [{ entryId: e.id, data: e.data }] : [],
	);
	const state = replay(records, emptyState(), piChainKey());
	const folds = [...state.folds.values()];
	const counts = runtime?.telemetry.view().counters;
	return {
		...commitCounts(session.sessionManager.getEntries(), decisionType),
		folds: folds.length,
		agentFolds: folds.filter((f) => f.origin === "agent").length,
		ladderFolds: folds.filter((f) => f.origin === "ladder").length,
		modelBriefs: folds.filter((f) => (f as { briefSource?: string }).briefSource === "model").length,
		pendingMarks: state.pendingMarks.size,
		...contextToolCalls(session),
		rewrites: counts?.rewrites ?? 0,
		unattributedRewrites: counts?.unattributedRewrites ?? 0,
		fencedAborts: runtime?.telemetry.view().fenced.aborted ?? 0,
		commitChecks: commitChecks(branch, decisionType),
		providerTotalWindow: runtime?.options.providerTotalWindow ?? null,
		recall: recallMetrics(session, state),
	};
}

const common = {
	compaction: true,
	tools: [CONTEXT_TOOL],
	foldEvents: (session: AgentSession, env: ArmEnv) => foldMetrics(session, env).commits,
	metrics: foldMetrics,
} satisfies Partial<ArmDefinition>;

/**
 * How every tool-calling pi-fold arm's agent recalls (issue 3: when a fact is not visible it uses what
 * the tool offers, search, then the brief's handle, peek or expand, before rereading from disk): it
 * answers from briefs, search matches and peeks, and takes revisited files back from their folds.
 */
const recall = {
	routes: [briefRoute, searchRoute, pointerRoute, peekRoute],
	augmentView: addPeekedReads,
	recoverFiles: recoverListed,
} satisfies Partial<ArmDefinition>;

/** The curating agent: `recall`, and at each hand-in it marks the finished stages with its own briefs. */
const agent = { ...recall, beforeSubmit: handIn } satisfies Partial<ArmDefinition>;

export const PIFOLD_ARMS: readonly ArmDefinition[] = [
	{
		...common,
		name: "pifold-ladder",
		description:
			"pi-fold's defaults (cost scheduling, session-model briefs when they pay), Pi's compaction on; the agent never folds, so the automatic ladder alone does; a fact it cannot see it recalls as the tool's guidelines say (search, then peek or expand) before rereading from disk",
		extensions: withPiFold({}),
		...recall,
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
	{
		...common,
		name: "pifold-agent-272k",
		description:
			"pifold-agent with pi-fold's total window pinned to 272,000 (providerTotalWindow, where the long-context tier starts), as the spec's transport descriptor ran; not a default arm",
		extensions: withPiFold({}, true),
		...agent,
	},
	{
		...common,
		name: "pifold-ladder-blind",
		description:
			"pifold-ladder with an agent that never calls the tool at all: answers only from what the window shows, rereads from disk otherwise (the lower bound of recall); not a default arm",
		extensions: withPiFold({}),
		routes: [briefRoute],
	},
];
