// The per-session folding controller: owns the decision log view, the fold store handle, the window
// observer and a lock that serializes decisions and commits. Hooks and the tool call into it; it
// reads the branch through branch.ts, plans commits with commit.ts and writes decisions with
// `pi.appendEntry` (the only write it does itself; the fold store writes files).
//
// `commit` is the one boundary path: scheduler.ts gates it with the policy scheduler (src/policy
// `planCommit`) before any edit is planned, records the ladder's folds or marks first, and the
// commit's proposal carries the edits, the chained commit record and the bounded receipt
// (receipt.ts). The fence (fence.ts) and native compaction (compaction.ts) read the same budget.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { deterministicBrief } from "../briefs/index.ts";
import type { FoldKind, FoldRecord } from "../lattice/index.ts";
import { type RequestObservation, type Usage, WindowObserver } from "../projection/index.ts";
import { type Actor, chainRecord, type DecisionBody, type DecisionRecord } from "../state/index.ts";
import { FoldStore, resolveStoreDir } from "../store/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { branchRecords, readBranch } from "./branch.ts";
import { budgetFor } from "./budget.ts";
import { DecisionLog } from "./decision-log.ts";
import { requestMessageTokens } from "./ladder-input.ts";
import { derivedNames, type ResolvedOptions } from "./options.ts";
import type { Notify, SourceStore } from "./ports.ts";
import { RECEIPT_MAX_CHARS, receiptText, receiptType } from "./receipt.ts";
import { type BoundaryCommit, type ScheduleNote, scheduleBoundary } from "./scheduler.ts";
import { buildSnapshot, type Snapshot } from "./snapshot.ts";

/** Estimated tokens of the next request: the boundary preview when given, else Pi's context usage. */
export function requestTokens(
	ctx: Pick<ExtensionContext, "getContextUsage">,
	messages: readonly unknown[] | undefined,
): { tokens: number; source: string } {
	if (messages)
		return { tokens: requestMessageTokens(messages), source: "estimate of the next request (boundary preview)" };
	const usage = ctx.getContextUsage?.();
	if (usage && typeof usage.tokens === "number") return { tokens: usage.tokens, source: "Pi's context usage" };
	return { tokens: 0, source: "unknown" };
}

/** Observations kept for status (the newest). */
export const OBSERVATION_HISTORY = 64;

/** Where decisions and hooks report to the human: UI notify when there is a UI, else stderr. */
export function notifierFor(ctx: Pick<ExtensionContext, "hasUI" | "ui">): Notify {
	return (message, level) => {
		if (ctx.hasUI) ctx.ui.notify(message, level);
		else process.stderr.write(`[pi-fold] ${message}\n`);
	};
}

export interface CommitInfo {
	readonly seq: number;
	readonly reason: string;
	readonly edits: number;
	readonly applied: readonly string[];
	/** The scheduler's estimate of the tokens the commit freed. */
	readonly freedTokens: number;
}

export class FoldRuntime {
	readonly options: ResolvedOptions;
	readonly names: ReturnType<typeof derivedNames>;
	private readonly pi: ExtensionAPI;
	private readonly storeFactory: (dir: string) => SourceStore;
	private log = new DecisionLog();
	private sourceStore: SourceStore | null = null;
	private storeDir: string | null = null;
	observer = new WindowObserver();
	private tail: Promise<unknown> = Promise.resolve();
	private notified = new Set<string>();
	private actors = new Set<Actor>();
	readonly observations: RequestObservation[] = [];
	lastUsage: Usage | null = null;
	lastCommit: CommitInfo | null = null;
	/** Refusals of the last commit (sources that failed verification). */
	lastCommitRefusals: readonly { foldId: string; reason: string }[] = [];
	/** Evidence artifacts written this session (set by registerIntegrations). */
	evidence: { readonly records: readonly unknown[]; refused: number } = { records: [], refused: 0 };
	/** Baseline resets of the observer (session start, /tree navigation), for status. */
	baselineNote = "since session start";
	/** What the last boundary's scheduler decided (status). */
	lastSchedule: ScheduleNote | null = null;
	/** The receipt of the last commit that carried one (status). */
	lastReceipt: string | null = null;
	/** Native compaction decisions this session (status). */
	readonly compactions: { reason: string; decision: "cancelled" | "passed"; why: string }[] = [];
	/** Requests the fence aborted this session (status). */
	readonly fenced: string[] = [];
	/** Model-written brief requests this session and their usage (status). */
	readonly summarizerUsage = { calls: 0, fallbacks: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	/** Why the last model brief fell back to the deterministic one (status). */
	lastSummarizerFallback: string | null = null;
	/** Brief generator for ladder chapter/span/consolidation folds (set by register.ts; summarizer.ts). */
	briefWriter: (
		ctx: ExtensionContext,
		leaves: readonly TranscriptEntry[],
		kind: FoldKind,
	) => Promise<{ brief: string; source: FoldRecord["briefSource"] }> = async (_ctx, leaves) => ({
		brief: deterministicBrief(leaves),
		source: "deterministic",
	});

	constructor(pi: ExtensionAPI, options: ResolvedOptions, storeFactory?: (dir: string) => SourceStore) {
		this.pi = pi;
		this.options = options;
		this.names = derivedNames(options);
		this.storeFactory = storeFactory ?? ((dir) => new FoldStore(dir));
	}

	/** Runs `fn` after every earlier decision or commit has finished (one at a time). */
	exclusive<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.tail.then(fn, fn);
		this.tail = run.catch(() => undefined);
		return run;
	}

	/** The fold store of the current session (opened at session start, or lazily). */
	store(ctx: Pick<ExtensionContext, "sessionManager">): SourceStore {
		const sm = ctx.sessionManager;
		const dir = resolveStoreDir({
			sessionDir: sm.getSessionFile() ? sm.getSessionDir() : undefined,
			sessionId: sm.getSessionId(),
			storeDirName: this.names.storeDirName,
		});
		if (!this.sourceStore || this.storeDir !== dir) {
			this.sourceStore = this.storeFactory(dir);
			this.storeDir = dir;
		}
		return this.sourceStore;
	}

	/** Rebuilds everything from the branch (session_start of every reason, and /tree navigation). */
	rebuild(ctx: ExtensionContext, why: string): void {
		this.log = new DecisionLog();
		this.observer = new WindowObserver();
		this.observations.length = 0;
		this.lastUsage = null;
		this.baselineNote = why;
		this.sourceStore = null;
		this.store(ctx);
		this.sync(ctx);
		this.reportRefusals(ctx);
	}

	/** Brings the decision log up to the branch's records; returns the state. */
	sync(ctx: Pick<ExtensionContext, "sessionManager">) {
		return this.log.sync(branchRecords(ctx.sessionManager, this.names.decisionEntryType));
	}

	/** One consistent picture of the branch for a decision or a commit. */
	snapshot(ctx: Pick<ExtensionContext, "sessionManager" | "model">): Snapshot {
		const view = readBranch(
			ctx.sessionManager,
			this.names.decisionEntryType,
			receiptType(this.options.entryTypePrefix),
		);
		const state = this.log.sync(view.records);
		return buildSnapshot(view, state, this.log.known, budgetFor(ctx.model, this.options.providerTotalWindow));
	}

	/** Why automatic folding is paused (refused decision records), or null. */
	pauseReason(): string | null {
		const refusals = this.log.state.refusals;
		if (refusals.length === 0) return null;
		const first = refusals[0] as { entryId: string; reason: string };
		return `automatic folding paused: ${refusals.length} decision record${refusals.length === 1 ? "" : "s"} refused (entry ${first.entryId}: ${first.reason})`;
	}

	/** Tells the human once per refused record, out of band. */
	reportRefusals(ctx: Pick<ExtensionContext, "hasUI" | "ui">): void {
		const fresh = this.log.state.refusals.filter((r) => !this.notified.has(r.entryId));
		if (fresh.length === 0) return;
		for (const r of fresh) this.notified.add(r.entryId);
		notifierFor(ctx)(this.pauseReason() ?? "", "warning");
	}

	/** Chains `body` after the branch's last record and appends it. Call inside `exclusive`. */
	decide(ctx: Pick<ExtensionContext, "sessionManager">, body: DecisionBody): DecisionRecord {
		const state = this.sync(ctx);
		const record = chainRecord(body, state.lastDigest);
		this.pi.appendEntry(this.names.decisionEntryType, record);
		this.actors.add(body.actor);
		this.sync(ctx);
		return record;
	}

	/** Every fold record an accepted decision named (dissolved ones included). */
	knownFolds(): ReadonlyMap<string, FoldRecord> {
		return this.log.known;
	}

	/** A brief for a ladder fold of `leaves` (never throws: the writer falls back). */
	briefFor(ctx: ExtensionContext, leaves: readonly TranscriptEntry[], kind: FoldKind) {
		return this.briefWriter(ctx, leaves, kind).catch(() => ({
			brief: deterministicBrief(leaves),
			source: "deterministic" as const,
		}));
	}

	/**
	 * The boundary commit (turn_end / agent_before_settle): the scheduler decides whether this
	 * boundary commits; if it does, the context_edit drafts, the chained commit record and (for a
	 * commit the runtime chose the moment of) the bounded receipt, appended to the proposal so far;
	 * undefined when the window stays as it is. `nextRequest` is the boundary preview's llmMessages
	 * (the next request, byte for byte), whose estimated size is the occupancy the scheduler reads.
	 */
	async commit(
		ctx: ExtensionContext,
		entries: readonly unknown[],
		reason: string,
		nextRequest?: readonly unknown[],
	): Promise<{ entries: unknown[] } | undefined> {
		return this.exclusive(async () => {
			this.sync(ctx);
			this.reportRefusals(ctx);
			const actor: Actor = this.actors.has("agent") || this.actors.size === 0 ? "agent" : "human";
			const occupancy = requestTokens(ctx, nextRequest);
			const planned = await scheduleBoundary(this, ctx, reason, occupancy, actor);
			if (!planned) return undefined;
			return { entries: [...entries, ...this.drafts(planned)] };
		});
	}

	/** Tells the human `message` out of band, once per `key` this session. */
	notifyOnce(
		ctx: Pick<ExtensionContext, "hasUI" | "ui">,
		key: string,
		message: string,
		level: "warning" | "error",
	): void {
		if (this.notified.has(key)) return;
		this.notified.add(key);
		notifierFor(ctx)(message, level);
	}

	/** Reports refusals of a commit (named, once each) and keeps them for status. */
	noteCommitRefusals(
		ctx: Pick<ExtensionContext, "hasUI" | "ui">,
		refused: readonly { foldId: string; reason: string }[],
	): void {
		this.reportCommitRefusals(ctx, refused);
	}

	private drafts(planned: BoundaryCommit): unknown[] {
		const { body, snap } = planned;
		const record = chainRecord(body, snap.state.lastDigest);
		this.actors.clear();
		this.lastCommit = {
			seq: body.seq,
			reason: body.reason,
			edits: planned.drafts.length,
			applied: body.applied,
			freedTokens: planned.freedTokens,
		};
		const automatic = this.options.foldScheduling === "epoch" || planned.ladder.length > 0;
		const receipt = automatic ? receiptText(body, this.options.brandNoun, planned.ladder, planned.freedTokens) : null;
		const out: unknown[] = [
			...planned.drafts,
			{ type: "custom", customType: this.names.decisionEntryType, data: record },
		];
		if (receipt) {
			this.lastReceipt = receipt.slice(0, RECEIPT_MAX_CHARS);
			out.push({
				type: "custom_message",
				customType: receiptType(this.options.entryTypePrefix),
				content: this.lastReceipt,
				display: false,
			});
		}
		return out;
	}

	private reportCommitRefusals(
		ctx: Pick<ExtensionContext, "hasUI" | "ui">,
		refused: readonly { foldId: string; reason: string }[],
	): void {
		this.lastCommitRefusals = refused;
		for (const r of refused) {
			const key = `commit:${r.foldId}:${r.reason}`;
			if (this.notified.has(key)) continue;
			this.notified.add(key);
			notifierFor(ctx)(`fold ${r.foldId} stays collapsed: ${r.reason}`, "error");
		}
	}

	/** Observes one request's messages (the `context` hook); never changes them. */
	observe(
		ctx: Pick<ExtensionContext, "sessionManager">,
		messages: readonly unknown[],
		digests?: Uint8Array[],
	): RequestObservation {
		const state = this.sync(ctx);
		const observation = this.observer.observe(messages, state.commitSeq, digests);
		this.observations.push(observation);
		if (this.observations.length > OBSERVATION_HISTORY) this.observations.shift();
		return observation;
	}

	/** Records the provider's usage for the last observed request. */
	recordUsage(usage: Usage): void {
		this.lastUsage = usage;
		this.observer.recordUsage(usage);
	}
}
