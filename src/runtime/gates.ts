// The gate of a boundary, as one choice among the scheduling modes: the cost policy's (cost-gate.ts)
// or the spec's immediate/epoch scheduler's (boundary.ts `gate`, with the peek batches that ride any
// commit), each giving the plan, the marks' view, the ladder's proposals, which proposals get a
// model-written brief and the commit's prediction; then the rescue, when even that commit would
// leave the next request over the budget. Pure over the snapshot and the meter.

import type { ResolvedOptions } from "../options/index.ts";
import {
	type CommitPrediction,
	type MarkView,
	type Proposal,
	rescueProposals,
	type SchedulePlan,
	type Snapshot,
	windowTokens,
} from "../policy/index.ts";
import { expandSinceCommit, gate, type Occupancy, peekRiders } from "./boundary.ts";
import { costGate } from "./cost-gate.ts";
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
export function gateAt(c: GateContext, snap: Snapshot, decisionsPending: boolean): GateResult {
	const mode = c.options.foldScheduling;
	if (mode === "cost") {
		const expandPending = decisionsPending && expandSinceCommit(snap);
		const g = costGate({ ...c, snap, decisionsPending, expandPending });
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
 * When even the gate's commit would leave the next request over the budget: the rescue's span
 * folds (src/policy rescue.ts) join it, around what it folds. Automatic folding paused: no rescue.
 */
export function rescued(snap: Snapshot, occupancy: Occupancy, g: GateResult, paused: boolean): GateResult {
	if (paused) return g;
	// The occupancy is the next request itself (the boundary preview): the hard limit applies to it.
	const next = occupancy.tokens - (g.plan.commit ? g.plan.freedTokens : 0);
	if (next < snap.budget.budgetTokens) return g;
	const rescue = rescueProposals(snap, windowTokens(snap));
	if (rescue.length === 0) return g;
	const freed = rescue.reduce((sum, r) => sum + r.freedTokens, 0);
	const spans = `${rescue.length} span${rescue.length === 1 ? "" : "s"}`;
	const reason = `the next request would still be over the budget: folding every stale unit (${spans})`;
	const plan = {
		...g.plan,
		commit: true,
		reason: g.plan.commit ? `${g.plan.reason}; ${reason}` : reason,
		freedTokens: freed,
	};
	// The gate's own folds land first and nest inside the rescue's spans.
	return { ...g, plan, proposals: [...g.proposals, ...rescue], prediction: null };
}
