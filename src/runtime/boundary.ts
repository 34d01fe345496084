// The steps of one scheduler-gated boundary (turn_end / agent_before_settle), each a function of
// what it is given; the runtime runs them in order (FoldRuntime.boundary: snapshot, gate, record,
// place, plan the edits, build the commit):
//  1. gate: measure, build the ladder's input and the marks' view, ask the policy scheduler
//     (src/policy `planCommit`) whether this boundary commits and what;
//  2. ladder decisions: for a commit, the ladder's folds (immediate) or marks (epoch, top-up flagged)
//     with their sources written to the fold store first;
//  3. place marks: the marks the commit applies placed as folds one at a time (a mark that does not
//     nest refuses by name);
//  4. the commit body: what was applied, whose marks, the top-up, the refusals.

import { deterministicBrief } from "../briefs/index.ts";
import { errorMessage } from "../common/index.ts";
import { type FoldKind, type FoldRecord, foldId, foldSource, Lattice, readsField } from "../lattice/index.ts";
import {
	buildSnapshot,
	type CommitPrediction,
	chapterProposals,
	consolidationProposals,
	type FoldScheduling,
	type LadderInput,
	type LadderOptions,
	ladderInput,
	type MarkView,
	markViews,
	type Proposal,
	peekedFolds,
	planCommit,
	type SchedulePlan,
	type Snapshot,
	spanProblem,
	toolProposals,
	windowTokens,
} from "../policy/index.ts";
import type { PlaceholderNames } from "../projection/index.ts";
import type { Actor, DecisionBody, FoldState } from "../state/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { shownSpan } from "./brief-input.ts";
import type { CommitBody } from "./edit-plan.ts";
import { withNestedListing } from "./nested-listing.ts";
import type { Host, SourceStore } from "./ports.ts";

/** The estimated size of the next request and where the estimate came from. */
export interface Occupancy {
	readonly tokens: number;
	readonly source: string;
	/** Of `tokens`, the system prompt's (always the request's first, cached bytes). */
	readonly systemTokens?: number;
}

/** What the gate saw and decided. */
export interface Gate {
	readonly plan: SchedulePlan;
	readonly input: LadderInput;
	readonly marks: readonly MarkView[];
}

/** Whether an expand or refold was decided since the branch's last commit record. */
export function expandSinceCommit(snap: Snapshot): boolean {
	for (let i = snap.view.records.length - 1; i >= 0; i--) {
		const kind = (snap.view.records[i]?.data as { kind?: unknown } | null)?.kind;
		if (kind === "commit") return false;
		if (kind === "expand" || kind === "refold") return true;
	}
	return false;
}

/** Step 1: does this boundary commit? `decisionsPending`: the window differs from the state (a dry run of planEdits). */
export function gate(
	snap: Snapshot,
	options: LadderOptions & { readonly foldScheduling: "immediate" | "epoch" },
	occupancy: Occupancy,
	decisionsPending: boolean,
	paused: boolean,
): Gate {
	const tokens = windowTokens(snap);
	const input = ladderInput(snap, options, tokens, occupancy.tokens / snap.budget.budgetTokens);
	const marks = markViews(snap, tokens);
	const plan = planCommit({
		mode: options.foldScheduling,
		budget: snap.budget,
		occupancyTokens: occupancy.tokens,
		entryCount: snap.view.transcript.length,
		marks,
		decisionsPending,
		// Only an expand still waiting for the window opens the epoch (a refused restore does not keep it open).
		expandPending: decisionsPending && expandSinceCommit(snap),
		tools: toolProposals(input),
		chapters: chapterProposals(input),
		consolidations: consolidationProposals(input),
		paused,
	});
	return { plan, input, marks };
}

const KIND_OF_RUNG: Record<Proposal["rung"], FoldKind> = {
	tools: "tools",
	chapter: "chapter",
	consolidation: "consolidation",
	span: "span",
	rescue: "span",
};

function kindFor(rung: Proposal["rung"]): FoldKind {
	return KIND_OF_RUNG[rung];
}

/** Peek batches outside the fresh tail that ride any commit (foldPeekResults), not overlapping `taken`. */
export function peekRiders(snap: Snapshot, g: Gate, options: LadderOptions): Proposal[] {
	if (!options.foldPeekResults) return [];
	const taken = [...g.plan.ladder, ...g.marks];
	const out: Proposal[] = [];
	for (const p of toolProposals(g.input)) {
		const unit = snap.units.find((u) => u.start === p.start);
		if (!unit || !peekedFolds(unit, snap.view.transcript, options.toolName)) continue;
		if (taken.some((q) => q.start < p.end && p.start < q.end)) continue;
		out.push(p);
	}
	return out;
}

/** Writes the source of a ladder fold and returns its record (tool batches: deterministic brief). */
async function ladderRecord(
	host: Host,
	store: SourceStore,
	leaves: readonly TranscriptEntry[],
	kind: FoldKind,
	shown: (() => readonly TranscriptEntry[]) | null,
): Promise<FoldRecord> {
	const { sha256, bytes } = await store.put(foldSource(leaves));
	const fallback = { brief: deterministicBrief(leaves), source: "deterministic" as const };
	const brief =
		kind === "tools" || !shown ? fallback : await host.writeBrief(leaves, kind, shown()).catch(() => fallback);
	return {
		id: foldId(leaves),
		kind,
		origin: "ladder",
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: brief.brief,
		briefSource: brief.source,
		...readsField(leaves, kind),
	};
}

/** The ladder's decisions for a commit, with their sources already durable. */
export interface LadderDecisions {
	readonly bodies: DecisionBody[];
	readonly ids: string[];
	readonly topUp: Set<string>;
	readonly freedTokens: number;
}

/**
 * Step 2: the ladder's folds (immediate scheduling) or top-up-flagged marks (cost, epoch), their
 * sources written first; `modelBrief` says which chapter or consolidation gets a model-written brief.
 */
export async function ladderDecisions(
	host: Host,
	store: SourceStore,
	snap: Snapshot,
	proposals: readonly Proposal[],
	options: { readonly foldScheduling: FoldScheduling } & PlaceholderNames,
	modelBrief: (p: Proposal) => boolean = () => true,
): Promise<LadderDecisions> {
	const epoch = options.foldScheduling !== "immediate";
	const out: LadderDecisions = { bodies: [], ids: [], topUp: new Set(), freedTokens: 0 };
	let freed = 0;
	for (const p of proposals) {
		const leaves = snap.view.transcript.slice(p.start, p.end);
		const id = foldId(leaves);
		if (snap.state.folds.has(id) || snap.state.pendingMarks.has(id) || out.ids.includes(id)) continue;
		// The rescue folds the fresh tail down to the unit in use; every other rule still holds.
		const rules = p.rung === "rescue" ? { ...snap, freshUnit: snap.units.length } : snap;
		if (spanProblem(rules, p.start, p.end)) continue;
		// A written brief reads the span as the window shows it (its nested folds as their briefs).
		const shown = modelBrief(p) ? () => shownSpan(snap, p.start, p.end, options) : null;
		const record = await ladderRecord(host, store, leaves, kindFor(p.rung), shown);
		const fold = withNestedListing(snap, p.start, p.end, record);
		const topUp = p.rung === "tools" || p.rung === "chapter";
		out.bodies.push(epoch ? { kind: "mark", actor: "ladder", topUp, fold } : { kind: "fold", actor: "ladder", fold });
		out.ids.push(id);
		freed += p.freedTokens;
		if (topUp && epoch) out.topUp.add(id);
	}
	return { ...out, freedTokens: freed };
}

/** Pending marks naming an entry no longer in the context (a native compaction summarized it). */
export function compactedMarks(snap: Snapshot): string[] {
	const inContext = new Set(snap.view.transcript.map((e) => e.id));
	return [...snap.state.pendingMarks]
		.filter(([, mark]) => mark.fold.leafIds.some((id) => !inContext.has(id)))
		.map(([id]) => id);
}

/** The state after a commit places the marks it applies (epoch), with what applied and what refused. */
export interface PlacedMarks {
	readonly snap: Snapshot;
	readonly applied: string[];
	readonly refused: { foldId: string; reason: string }[];
}

/** Step 3: places the marks the commit applies as folds, one at a time (a mark that does not nest refuses by name). */
export function placeMarks(
	snap: Snapshot,
	apply: readonly string[],
	refusedByPlan: SchedulePlan["refused"],
): PlacedMarks {
	const refused = refusedByPlan.map((r) => ({ foldId: r.id, reason: r.reason }));
	const folds = new Map(snap.state.folds);
	// Folds whose entries left the context (a native compaction summarized them) stay in the state,
	// peekable, but a mark only has to nest with the folds that are placed on this transcript.
	const unplaced = new Set(snap.unplaced.map((u) => u.id));
	const placedFolds = () => [...folds.values()].filter((f) => !unplaced.has(f.id));
	const pending = new Map(snap.state.pendingMarks);
	const applied: string[] = [];
	for (const r of refused) pending.delete(r.foldId);
	for (const id of apply) {
		const mark = pending.get(id);
		if (!mark) continue;
		try {
			Lattice.build(snap.view.transcript, [...placedFolds(), mark.fold]);
			folds.set(id, mark.fold);
			applied.push(id);
		} catch (error) {
			refused.push({ foldId: id, reason: `does not nest with the folds in force: ${errorMessage(error)}` });
		}
		pending.delete(id);
	}
	const state: FoldState = { ...snap.state, folds, pendingMarks: pending };
	return { snap: buildSnapshot(snap.view, state, snap.known, snap.budget), applied, refused };
}

/** Step 4: the commit record's body: the edits' body (or an empty one) plus the marks and refusals. */
export function commitBody(input: {
	readonly edits: CommitBody | null;
	readonly before: Snapshot;
	readonly placed: PlacedMarks;
	readonly ladder: LadderDecisions;
	readonly epoch: boolean;
	readonly actor: Actor;
	readonly reason: string;
	readonly prediction: CommitPrediction | null;
}): CommitBody {
	const { edits, before, placed, ladder, epoch } = input;
	const marksBefore = before.state.pendingMarks;
	const base: CommitBody = edits ?? {
		kind: "commit",
		actor: input.actor,
		seq: before.state.commitSeq + 1,
		reason: input.reason,
		applied: [],
		agentMarks: [],
		topUpMarks: [],
		refused: [],
		edits: [],
	};
	const markRefused = placed.refused;
	return {
		...base,
		applied: [...new Set([...base.applied, ...placed.applied, ...(epoch ? [] : ladder.ids)])],
		agentMarks: placed.applied.filter((id) => marksBefore.get(id)?.actor !== "ladder"),
		topUpMarks: placed.applied.filter((id) => ladder.topUp.has(id) || marksBefore.get(id)?.topUp === true),
		refused: [...markRefused, ...base.refused.filter((r) => !markRefused.some((m) => m.foldId === r.foldId))],
		...(input.prediction ? { prediction: recordedPrediction(input.prediction) } : {}),
	};
}

/** A prediction as a commit record stores it: whole tokens, dollars to a micro-dollar, never Infinity. */
function recordedPrediction(p: CommitPrediction): NonNullable<CommitBody["prediction"]> {
	const micro = (x: number) => Math.round(x * 1_000_000) / 1_000_000;
	return {
		rewriteTokens: p.rewriteTokens,
		freedTokens: p.freedTokens,
		windowAfterTokens: p.windowAfterTokens,
		rewriteUsd: micro(p.rewriteUsd),
		savingPerRequestUsd: micro(p.savingPerRequestUsd),
		breakEvenRequests: Number.isFinite(p.breakEvenRequests) ? p.breakEvenRequests : null,
	};
}

/** Who a commit is attributed to: the human or agent when their marks or decisions land, else the ladder. */
export function commitActor(
	before: Snapshot,
	applied: readonly string[],
	decisionsPending: boolean,
	hint: Actor,
): Actor {
	const theirs = applied.some((id) => before.state.pendingMarks.get(id)?.actor !== "ladder");
	return theirs || decisionsPending ? hint : "ladder";
}

/** Tokens a commit frees by estimate: the applied marks' and the recorded ladder folds'. */
export function freedTokens(marks: readonly MarkView[], placed: PlacedMarks, ladder: LadderDecisions): number {
	const applied = marks.filter((m) => placed.applied.includes(m.id)).reduce((sum, m) => sum + m.freedTokens, 0);
	return ladder.freedTokens + applied;
}
