// The gate of a boundary, as one choice among the scheduling modes: the cost policy's (cost-gate.ts)
// or the spec's immediate/epoch scheduler's (boundary.ts `gate`, with the peek batches that ride any
// commit), each giving the plan, the marks' view, the ladder's proposals, which proposals get a
// model-written brief and the commit's prediction; then the rescue, when even that commit would
// leave the next request over the budget. Pure over the snapshot and the meter.

import type { ResolvedOptions } from "../options/index.ts";
import {
	type CommitPrediction,
	type MarkView,
	PRESSURE_BACKSTOP_OCCUPANCY,
	type Proposal,
	RESCUE_TARGET_SHARE,
	RESCUE_TRIGGER_SHARE,
	rescueProposals,
	type SchedulePlan,
	type Snapshot,
	shownTokens,
	windowTokens,
} from "../policy/index.ts";
import type { Unit } from "../transcript/index.ts";
import { expandSinceCommit, gate, type Occupancy, peekRiders } from "./boundary.ts";
import { costGate } from "./cost-gate.ts";
import { lookedAt } from "./looked-at.ts";
import type { SessionMeter } from "./meter.ts";
import type { Host } from "./ports.ts";

export interface GateContext {
	readonly host: Host;
	readonly options: ResolvedOptions;
	readonly meter: SessionMeter;
	readonly occupancy: Occupancy;
	/** Automatic folding paused (a refused record): only explicit decisions commit. */
	readonly paused: boolean;
}

/** What a gate decided at one boundary. */
export interface GateResult {
	readonly plan: SchedulePlan;
	readonly marks: readonly MarkView[];
	/** The ladder's proposals plus any riders (peek batches, the rescue's spans). */
	readonly proposals: readonly Proposal[];
	/** Whether a proposal's brief is written by the model (the cost policy asks only when it pays). */
	readonly modelBrief: (proposal: Proposal) => boolean;
	/** The cost policy's prediction of the commit's price; null for the spec's schedulers and rescues. */
	readonly prediction: CommitPrediction | null;
}

/** The gate of this boundary: the cost policy's, or the spec's immediate/epoch scheduler's. */
/**
 * `pendingFrom`: the transcript index of the first edit the decisions already recorded imply (an
 * expand, a rebrief, an immediate fold), or null when the window matches the state.
 */
export function gateAt(c: GateContext, snap: Snapshot, pendingFrom: number | null): GateResult {
	const decisionsPending = pendingFrom !== null;
	const mode = c.options.foldScheduling;
	if (mode === "cost") {
		const expandPending = decisionsPending && expandSinceCommit(snap);
		const g = costGate({ ...c, snap, decisionsPending, expandPending, pendingFrom });
		return {
			plan: g.plan,
			marks: g.marks,
			proposals: g.plan.ladder,
			modelBrief: g.modelBrief,
			prediction: g.plan.prediction,
		};
	}
	const g = gate(snap, { ...c.options, foldScheduling: mode }, c.occupancy, decisionsPending, c.paused);
	const proposals = [...g.plan.ladder, ...peekRiders(snap, g, c.options)];
	return { plan: g.plan, marks: g.marks, proposals, modelBrief: () => true, prediction: null };
}

/**
 * When even the gate's commit (with what it restores) would leave the next request over the
 * budget, or a commit the backstop forced would leave the window so full that the next turn forces
 * another (the ordinary rungs found too little stale tool mass): the rescue's span folds (src/policy
 * rescue.ts), oldest first, join it around what it folds, down to RESCUE_TARGET_SHARE of the budget
 * (over the budget, with every mark still waiting). Automatic folding paused: no rescue.
 */
export function rescued(
	snap: Snapshot,
	occupancy: Occupancy,
	g: GateResult,
	options: { readonly paused: boolean; readonly toolName: string },
): GateResult {
	if (options.paused) return g;
	const budget = snap.budget.budgetTokens;
	// The occupancy is the next request itself (the boundary preview): the hard limit applies to it,
	// with what the commit restores (an expand decided since the last commit) on top.
	const restored = g.plan.commit ? windowTokens(snap).total - shownTokens(snap) : 0;
	const next = occupancy.tokens + restored - (g.plan.commit ? g.plan.freedTokens : 0);
	const over = next >= budget;
	// A commit forced by the backstop that leaves the window this full commits again within a turn.
	const forced = g.plan.commit && occupancy.tokens >= PRESSURE_BACKSTOP_OCCUPANCY * budget;
	if (!over && !(forced && next >= RESCUE_TRIGGER_SHARE * budget)) return g;
	const target = RESCUE_TARGET_SHARE * budget;
	// Short of the hard limit, what the agent chose to look at stays: expanded folds and their peeks.
	const keep = over ? undefined : (unit: Unit) => lookedAt(snap, unit, options.toolName);
	// Over the hard limit, marks still waiting (for the fresh tail) land too: the rescue folds the
	// tail down to the unit in use anyway, and never repeats a pending mark's span, so only the mark can.
	const marks = over ? g.marks.filter((m) => m.protectedBy === null && !g.plan.apply.includes(m.id)) : [];
	const marked = marks.reduce((sum, m) => sum + m.freedTokens, 0);
	const rescue = rescueProposals(snap, windowTokens(snap), next - target - marked, keep);
	if (rescue.length === 0 && marks.length === 0) return g;
	const freed = rescue.reduce((sum, r) => sum + r.freedTokens, marked);
	const spans = `${rescue.length} span${rescue.length === 1 ? "" : "s"}`;
	const waiting = marks.length > 0 ? ` and ${marks.length} waiting mark${marks.length === 1 ? "" : "s"}` : "";
	const why = over
		? "the next request would still be over the budget"
		: `the commit would leave the window at ${Math.round((100 * next) / budget)}% of the budget`;
	const reason = `${why}: folding stale units, oldest first (${spans}${waiting})`;
	const landing = new Set(marks.map((m) => m.id));
	const plan = {
		...g.plan,
		commit: true,
		reason: g.plan.commit ? `${g.plan.reason}; ${reason}` : reason,
		apply: [...g.plan.apply, ...landing],
		waiting: g.plan.waiting.filter((id) => !landing.has(id)),
		freedTokens: freed,
	};
	// The gate's own folds land first and nest inside the rescue's spans.
	return { ...g, plan, proposals: [...g.proposals, ...rescue], prediction: null };
}

/** The transcript index of the first of `edits` (an omitted receipt sits before the entry after it), or null. */
export function firstEdit(snap: Snapshot, edits: readonly { targetId: string }[] | undefined): number | null {
	if (!edits || edits.length === 0) return null;
	const index = new Map(snap.view.transcript.map((e, i) => [e.id, i]));
	for (const r of snap.view.receipts ?? []) index.set(r.id, r.before);
	return Math.min(...edits.map((e) => index.get(e.targetId) ?? snap.view.transcript.length));
}
