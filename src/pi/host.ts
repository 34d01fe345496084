// The runtime's `Host` over Pi: the active branch from Pi's session manager (branch.ts), decision
// records appended with `pi.appendEntry`, Pi's agent directory (`getAgentDir()`: where the records'
// key lives), the session's model, Pi's own context estimate, the system
// prompt, model-written briefs through Pi's model registry (model-briefs.ts) and the out-of-band
// notifier. Built per hook or tool call, because Pi may replace its session between calls.

import { type Api, getPromptCacheTtlMs, type Model } from "@earendil-works/pi-ai";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "@earendil-works/pi-coding-agent";
import type { BriefedKind } from "../lattice/index.ts";
import { type BriefOut, type FoldRuntime, type Host, loadChainKey, type ModelInfo } from "../runtime/index.ts";
import type { ChainKey } from "../state/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { branchRecords, compactionCount, readBranch } from "./branch.ts";
import { notifierFor } from "./notify.ts";

/** What registerPiFold returns: the runtime, and its host for a Pi context (tests and hosts read status). */
export interface PiFold {
	readonly runtime: FoldRuntime;
	host(ctx: ExtensionContext): Host;
}

/** Writes a brief for a ladder fold through Pi (model-briefs.ts builds one per runtime). */
export type PiBriefWriter = (
	ctx: ExtensionContext,
	leaves: readonly TranscriptEntry[],
	kind: BriefedKind,
	shown?: readonly TranscriptEntry[],
) => Promise<BriefOut>;

/** What the runtime reads of a pi-ai model: window, output cap, prices (with tiers) and cache lifetime. */
function modelInfo(model: Model<Api> | undefined): ModelInfo | undefined {
	if (!model) return undefined;
	return { ...model, cacheTtlMs: getPromptCacheTtlMs(model, undefined) };
}

/** The key Pi's host signs and verifies decision records with: the one in Pi's agent directory. */
export function piChainKey(): ChainKey {
	return loadChainKey(getAgentDir()).key;
}

export function piHost(pi: ExtensionAPI, runtime: FoldRuntime, ctx: ExtensionContext, writeBrief: PiBriefWriter): Host {
	const sm = ctx.sessionManager;
	const decisionType = runtime.names.decisionEntryType;
	return {
		readBranch: () => readBranch(sm, decisionType, runtime.receiptType),
		branchRecords: () => branchRecords(sm, decisionType, runtime.receiptType),
		compactionCount: () => compactionCount(sm, decisionType, runtime.receiptType),
		appendRecord: (record) => pi.appendEntry(decisionType, record),
		session: () => ({ id: sm.getSessionId(), dir: sm.getSessionFile() ? sm.getSessionDir() : undefined }),
		agentDir: () => getAgentDir(),
		model: () => modelInfo(ctx.model),
		briefModel: () => {
			const s = runtime.options.summarizer;
			return typeof s === "object" ? modelInfo(ctx.modelRegistry.find(s.provider, s.model)) : undefined;
		},
		contextTokens: () => {
			const usage = ctx.getContextUsage?.();
			return usage && typeof usage.tokens === "number" ? usage.tokens : null;
		},
		contextUsage: () => {
			const usage = ctx.getContextUsage?.();
			return usage ? { tokens: usage.tokens, window: usage.contextWindow, percent: usage.percent } : undefined;
		},
		systemPrompt: () => ctx.getSystemPrompt?.() ?? "",
		cwd: () => ctx.cwd,
		writeBrief: (leaves, kind, shown) => writeBrief(ctx, leaves, kind, shown),
		notify: notifierFor(ctx),
		now: () => Date.now(),
	};
}
