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

/**
 * What the runtime reads of a pi-ai model: window, output cap, prices (with tiers), cache lifetime
 * and, when `pi` is given, the room Pi keeps for a reply on it (its compaction reserve) and whether
 * Pi compacts on its own.
 */
function modelInfo(model: Model<Api> | undefined, pi?: ExtensionAPI): ModelInfo | undefined {
	if (!model) return undefined;
	const replyReserve = pi ? piReserveTokens(pi, model) : undefined;
	const hostCompaction = pi ? piCompactionEnabled(pi) : undefined;
	return {
		...model,
		cacheTtlMs: getPromptCacheTtlMs(model, undefined),
		...(replyReserve === undefined ? {} : { replyReserve }),
		...(hostCompaction === undefined ? {} : { hostCompaction }),
	};
}

/**
 * Pi's compaction `reserveTokens` for `model`, as Pi resolves it (the model's override, else the
 * setting), or undefined when Pi's settings cannot be read or say nothing (the budget then takes Pi's default).
 */
export function piReserveTokens(pi: ExtensionAPI, model: Pick<Model<Api>, "provider" | "id">): number | undefined {
	try {
		const compaction = pi.getSettings().compaction;
		const value =
			compaction?.modelOverrides?.[`${model.provider}/${model.id}`]?.reserveTokens ?? compaction?.reserveTokens;
		return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
	} catch {
		return undefined; // before Pi's runtime is bound; Pi's default applies
	}
}

/** Whether Pi compacts on its own (`compaction.enabled`, on by default), or undefined when its settings cannot be read. */
export function piCompactionEnabled(pi: ExtensionAPI): boolean | undefined {
	try {
		return pi.getSettings().compaction?.enabled !== false;
	} catch {
		return undefined;
	}
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
		model: () => modelInfo(ctx.model, pi),
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
