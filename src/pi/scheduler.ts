// The scheduler-gated boundary commit: measures the next request, builds the ladder's input from the
// snapshot, asks the policy scheduler (src/policy `planCommit`) whether this boundary commits, and
// only then records the ladder's folds (immediate: `fold` records; epoch: `mark` records, actor
// `ladder`, top-up flagged), their sources written to the fold store first, then plans the edits
// with the committed marks placed as folds. Returns the proposal's drafts (edits, the chained commit
// record, the bounded receipt) or null when the window stays as it is. Runs under the runtime lock.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { deterministicBrief } from "../briefs/index.ts";
import { type FoldKind, type FoldRecord, foldId, foldSource, Lattice } from "../lattice/index.ts";
import {
	type CommitPlan,
	chapterProposals,
	consolidationProposals,
	type Proposal,
	planCommit,
	toolProposals,
} from "../policy/index.ts";
import type { Actor, DecisionBody, FoldState } from "../state/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { spanProblem } from "./actions/fold.ts";
import { planEdits } from "./commit.ts";
import { ladderInput, markViews, peekedFolds, windowTokens } from "./ladder-input.ts";
import type { FoldRuntime } from "./runtime.ts";
import { buildSnapshot, type Snapshot } from "./snapshot.ts";

/** What the last boundary decided, for status. */
export interface ScheduleNote {
	readonly at: string;
	readonly commit: boolean;
	readonly reason: string;
	readonly occupancyTokens: number;
	readonly occupancySource: string;
	readonly waiting: readonly string[];
}

/** A commit about to be proposed: the commit body and the edit drafts. */
export interface BoundaryCommit {
	readonly drafts: unknown[];
	readonly body: Extract<DecisionBody, { kind: "commit" }>;
	readonly snap: Snapshot;
	/** Ladder folds recorded at this boundary, by id. */
	readonly ladder: readonly string[];
	readonly freedTokens: number;
}

/** Whether an expand or refold was decided since the branch's last commit record. */
function expandSinceCommit(snap: Snapshot): boolean {
	for (let i = snap.view.records.length - 1; i >= 0; i--) {
		const kind = (snap.view.records[i]?.data as { kind?: unknown } | null)?.kind;
		if (kind === "commit") return false;
		if (kind === "expand" || kind === "refold") return true;
	}
	return false;
}

function kindFor(rung: Proposal["rung"]): FoldKind {
	return rung === "tools" ? "tools" : rung === "chapter" ? "chapter" : "consolidation";
}

/** Peek batches outside the fresh tail that ride any commit (foldPeekResults), not overlapping `taken`. */
function peekRiders(
	rt: FoldRuntime,
	snap: Snapshot,
	input: ReturnType<typeof ladderInput>,
	taken: readonly { start: number; end: number }[],
) {
	if (!rt.options.foldPeekResults) return [];
	const out: Proposal[] = [];
	for (const p of toolProposals(input)) {
		const unit = snap.units.find((u) => u.start === p.start);
		if (!unit || !peekedFolds(unit, snap.view.transcript, rt.options.toolName)) continue;
		if (taken.some((q) => q.start < p.end && p.start < q.end)) continue;
		out.push(p);
	}
	return out;
}

/** Writes the source of a ladder fold and returns its record (brief by rung: see docs/policy.md). */
async function ladderRecord(
	rt: FoldRuntime,
	ctx: ExtensionContext,
	leaves: readonly TranscriptEntry[],
	kind: FoldKind,
): Promise<FoldRecord> {
	const { sha256, bytes } = await rt.store(ctx).put(foldSource(leaves));
	const brief =
		kind === "tools"
			? { brief: deterministicBrief(leaves), source: "deterministic" as const }
			: await rt.briefFor(ctx, leaves, kind);
	return {
		id: foldId(leaves),
		kind,
		origin: "ladder",
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: brief.brief,
		briefSource: brief.source,
	};
}

/** The state a commit produces: the marks it applies placed as folds (one at a time, so a mark that does not nest refuses by name). */
function committedState(
	snap: Snapshot,
	apply: readonly string[],
	refused: { foldId: string; reason: string }[],
): { state: FoldState; applied: string[] } {
	const folds = new Map(snap.state.folds);
	const pending = new Map(snap.state.pendingMarks);
	const applied: string[] = [];
	for (const r of refused) pending.delete(r.foldId);
	for (const id of apply) {
		const mark = pending.get(id);
		if (!mark) continue;
		try {
			Lattice.build(snap.view.transcript, [...folds.values(), mark.fold]);
			folds.set(id, mark.fold);
			applied.push(id);
		} catch (error) {
			refused.push({
				foldId: id,
				reason: `does not nest with the folds in force: ${error instanceof Error ? error.message : String(error)}`,
			});
		}
		pending.delete(id);
	}
	return { state: { ...snap.state, folds, pendingMarks: pending }, applied };
}

/**
 * Runs one boundary: gate, record ladder folds, plan edits. `occupancyTokens` is the estimated size
 * of the next request (the boundary preview's llmMessages).
 */
export async function scheduleBoundary(
	rt: FoldRuntime,
	ctx: ExtensionContext,
	reason: string,
	occupancy: { tokens: number; source: string },
	actorHint: Actor,
): Promise<BoundaryCommit | null> {
	const epoch = rt.options.foldScheduling === "epoch";
	const snap0 = rt.snapshot(ctx);
	const tokens = windowTokens(snap0);
	const input = ladderInput(snap0, rt.options, tokens, occupancy.tokens / snap0.budget.budgetTokens);
	const marks = markViews(snap0, tokens);
	const dry = await planEdits(snap0, rt.store(ctx), rt.options, reason, actorHint);
	const plan: CommitPlan = planCommit({
		mode: rt.options.foldScheduling,
		budget: snap0.budget,
		occupancyTokens: occupancy.tokens,
		entryCount: snap0.view.transcript.length,
		marks,
		decisionsPending: dry.commit !== null,
		// Only an expand still waiting for the window opens the epoch (a refused restore does not keep it open).
		expandPending: dry.commit !== null && expandSinceCommit(snap0),
		tools: toolProposals(input),
		chapters: chapterProposals(input),
		consolidations: consolidationProposals(input),
		paused: rt.pauseReason() !== null,
	});
	rt.lastSchedule = {
		at: reason,
		commit: plan.commit,
		reason: plan.reason,
		occupancyTokens: occupancy.tokens,
		occupancySource: occupancy.source,
		waiting: plan.waiting,
	};
	if (!plan.commit) return null;

	// Ladder folds first: sources to the store, then one decision each, before any edit is planned.
	const riders = peekRiders(rt, snap0, input, [...plan.ladder, ...marks]);
	const ladderIds: string[] = [];
	const topUpIds = new Set<string>();
	let ladderFreed = 0;
	for (const p of [...plan.ladder, ...riders]) {
		const leaves = snap0.view.transcript.slice(p.start, p.end);
		const id = foldId(leaves);
		if (snap0.state.folds.has(id) || snap0.state.pendingMarks.has(id) || spanProblem(snap0, p.start, p.end)) continue;
		const record = await ladderRecord(rt, ctx, leaves, kindFor(p.rung));
		const topUp = p.rung !== "consolidation";
		rt.decide(
			ctx,
			epoch ? { kind: "mark", actor: "ladder", topUp, fold: record } : { kind: "fold", actor: "ladder", fold: record },
		);
		ladderIds.push(id);
		ladderFreed += p.freedTokens;
		if (topUp && epoch) topUpIds.add(id);
	}

	const snap1 = rt.snapshot(ctx);
	const markRefused = plan.refused.map((r) => ({ foldId: r.id, reason: r.reason }));
	const marksBefore = new Map(snap1.state.pendingMarks);
	let snap2 = snap1;
	let appliedMarks: string[] = [];
	if (epoch) {
		const placed = committedState(snap1, [...plan.apply, ...ladderIds], markRefused);
		appliedMarks = placed.applied;
		snap2 = buildSnapshot(snap1.view, placed.state, rt.knownFolds(), snap1.budget);
	}
	const actor: Actor = appliedMarks.some((id) => marksBefore.get(id)?.actor !== "ladder")
		? actorHint
		: dry.commit
			? actorHint
			: "ladder";
	const commitReason = `${reason}: ${plan.reason}`.slice(0, 400);
	const edits = await planEdits(snap2, rt.store(ctx), rt.options, commitReason, actor);
	rt.noteCommitRefusals(ctx, edits.refused);
	for (const r of markRefused)
		rt.notifyOnce(ctx, `mark:${r.foldId}:${r.reason}`, `mark ${r.foldId} refused at commit: ${r.reason}`, "warning");
	if (!edits.commit && appliedMarks.length === 0 && markRefused.length === 0) return null;
	const base = edits.commit?.body ?? {
		kind: "commit" as const,
		actor,
		seq: snap1.state.commitSeq + 1,
		reason: commitReason,
		applied: [],
		agentMarks: [],
		topUpMarks: [],
		refused: [],
		edits: [],
	};
	const body = {
		...base,
		applied: [...new Set([...base.applied, ...appliedMarks, ...(epoch ? [] : ladderIds)])],
		agentMarks: appliedMarks.filter((id) => marksBefore.get(id)?.actor !== "ladder"),
		topUpMarks: appliedMarks.filter((id) => topUpIds.has(id) || marksBefore.get(id)?.topUp === true),
		refused: [...markRefused, ...base.refused.filter((r) => !markRefused.some((m) => m.foldId === r.foldId))],
	};
	return {
		drafts: edits.commit?.drafts ?? [],
		body,
		snap: snap1,
		ladder: ladderIds,
		// What this commit frees by estimate: the applied marks' and the recorded ladder folds'.
		freedTokens:
			ladderFreed + marks.filter((m) => appliedMarks.includes(m.id)).reduce((sum, m) => sum + m.freedTokens, 0),
	};
}
