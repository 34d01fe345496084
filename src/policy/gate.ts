// The gate of a boundary (commit-plan.ts): does this boundary commit, and what. One choice among
// the scheduling modes: the cost policy's gate (cost-gate.ts), or the spec's immediate/epoch
// scheduler (schedule.ts `planCommit`, with the peek batches that ride any commit); each gives the
// plan, the marks' view, the ladder's proposals, which proposals get a model-written brief and the
// commit's prediction. Then the rescue, when even that commit would leave the next request over the
// budget. Pure over the boundary's input.

import { nounFor } from "../common/index.ts";
import { type BoundaryInput, expandSinceCommit, pendingGrowthOf } from "./boundary-input.ts";
import { PRESSURE_BACKSTOP_OCCUPANCY, RESCUE_TARGET_SHARE, RESCUE_TRIGGER_SHARE } from "./constants.ts";
import type { CommitPrediction } from "./cost.ts";
import { costGate } from "./cost-gate.ts";
import { expandedOver, expandedRefolds, keptRawUnits } from "./kept-raw.ts";
import { chapterProposals, consolidationProposals, type Proposal, toolProposals } from "./ladder.ts";
import { ladderInput, markViews, PLACEHOLDER_TOKENS_ESTIMATE, peekedFolds, windowTokens } from "./ladder-input.ts";
import { rescueProposals } from "./rescue.ts";
import { type MarkView, planCommit, type SchedulePlan } from "./schedule.ts";

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
	/** Expanded folds this commit takes back (named in the reason and the commit record). */
	readonly retaken?: readonly string[];
	/** Of those, the ones it refolds (the budget forced the commit): `refold` decisions the pipeline records. */
	readonly refolds?: readonly string[];
}

/** The spec's immediate/epoch scheduler over the ladder's rungs, and the peek batches that ride its commit. */
function specGate(input: BoundaryInput, mode: "immediate" | "epoch"): GateResult {
	const snap = input.scaled;
	const decisionsPending = input.pendingFrom !== null;
	const tokens = windowTokens(snap);
	const ladder = ladderInput(snap, input.options, tokens, input.occupancy.tokens / snap.budget.budgetTokens);
	const marks = markViews(snap, tokens);
	const plan = planCommit({
		mode,
		budget: snap.budget,
		occupancyTokens: input.occupancy.tokens,
		entryCount: snap.view.transcript.length,
		marks,
		decisionsPending,
		// Only an expand still waiting for the window opens the epoch (a refused restore does not keep it open).
		expandPending: decisionsPending && expandSinceCommit(snap),
		tools: toolProposals(ladder),
		chapters: chapterProposals(ladder),
		consolidations: consolidationProposals(ladder),
		paused: input.paused,
	});
	const taken = [...plan.ladder, ...marks];
	const riders = input.options.foldPeekResults
		? toolProposals(ladder).filter((p) => {
				const unit = snap.units.find((u) => u.start === p.start);
				if (!unit || !peekedFolds(unit, snap.view.transcript, input.options.toolName)) return false;
				return !taken.some((q) => q.start < p.end && p.start < q.end);
			})
		: [];
	return { plan, marks, proposals: [...plan.ladder, ...riders], modelBrief: () => true, prediction: null };
}

/** The gate of this boundary: the cost policy's, or the spec's immediate/epoch scheduler's. */
export function gateOf(input: BoundaryInput): GateResult {
	const mode = input.options.foldScheduling;
	if (mode !== "cost") return specGate(input, mode);
	const decisionsPending = input.pendingFrom !== null;
	const g = costGate({
		snap: input.scaled,
		options: input.options,
		occupancy: input.occupancy,
		meter: input.meter,
		host: input.host,
		decisionsPending,
		expandPending: decisionsPending && expandSinceCommit(input.scaled),
		pendingFrom: input.pendingFrom,
		pendingGrowth: pendingGrowthOf(input),
		paused: input.paused,
	});
	return {
		plan: g.plan,
		marks: g.marks,
		proposals: g.plan.ladder,
		modelBrief: g.modelBrief,
		prediction: g.plan.prediction,
	};
}

/** Ranges the rescue's spans must nest with: the gate's own proposals and the marks this commit applies. */
function landingRanges(g: GateResult): { start: number; end: number }[] {
	return [...g.proposals, ...g.marks.filter((m) => g.plan.apply.includes(m.id))];
}

/**
 * When even the gate's commit (with what it restores) would leave the next request over the
 * budget, or a commit the budget forced would leave the window so full that the next turn forces
 * another (the ordinary rungs found too little stale tool mass): the rescue's span folds (src/policy
 * rescue.ts), oldest first, join it around what it folds, down to RESCUE_TARGET_SHARE of the budget
 * (over the budget, with every mark still waiting). What the agent chose to see and still holds
 * (kept-raw.ts) stays raw, except that here, the budget having forced the commit, the
 * folds the agent expanded are refolded first, oldest first, before the rescue folds the work in
 * hand; over the budget, when that is still not enough, the rescue takes the rest too. Every expanded
 * fold taken back is named. The user's own messages stay raw while folding the rest is enough; only
 * then does the rescue fold them too. Automatic folding paused: no rescue.
 */
export function rescued(input: BoundaryInput, g: GateResult): GateResult {
	if (input.paused) return g;
	const snap = input.scaled;
	const { occupancy } = input;
	const budget = snap.budget.budgetTokens;
	// The occupancy is the next request itself (the boundary preview): the hard limit applies to it,
	// with what the commit restores (an expand decided since the last commit) on top.
	const restored = g.plan.commit ? pendingGrowthOf(input) : 0;
	const next = occupancy.tokens + restored - (g.plan.commit ? g.plan.freedTokens : 0);
	const over = next >= budget;
	// A commit the budget forced that leaves the window this full commits again within a turn.
	const forced =
		g.plan.commit && (g.plan.force === "budget" || occupancy.tokens >= PRESSURE_BACKSTOP_OCCUPANCY * budget);
	if (!over && !(forced && next >= RESCUE_TRIGGER_SHARE * budget)) return g;
	const target = RESCUE_TARGET_SHARE * budget;
	// Over the hard limit, marks still waiting (for the fresh tail) land too: the rescue folds the
	// tail down to the unit in use anyway, and never repeats a pending mark's span, so only the mark can.
	const marks = over ? g.marks.filter((m) => m.protectedBy === null && !g.plan.apply.includes(m.id)) : [];
	const marked = marks.reduce((sum, m) => sum + m.freedTokens, 0);
	const tokens = windowTokens(snap);
	// An old expand goes before the work in hand: refolded first, oldest first.
	const refolds = expandedRefolds(snap, tokens, next - target - marked, PLACEHOLDER_TOKENS_ESTIMATE);
	const refolded = refolds.reduce((sum, r) => sum + r.freed, 0);
	const need = next - target - marked - refolded;
	const kept = keptRawUnits(snap, input.options.toolName);
	const alongside = landingRanges(g);
	const freedBy = (spans: readonly Proposal[]) => spans.reduce((sum, r) => sum + r.freedTokens, 0);
	// The user's own messages stay raw while the rest is enough; then they fold too.
	let rescue =
		need > 0
			? rescueProposals(snap, tokens, need, (unit) => unit.kind === "user" || kept[unit.index] === true, alongside)
			: [];
	if (need > 0 && freedBy(rescue) < need)
		rescue = rescueProposals(snap, tokens, need, (unit) => kept[unit.index] === true, alongside);
	// Over the hard limit and still short: the rescue goes through everything stale, peeks included.
	if (over && freedBy(rescue) < need) rescue = rescueProposals(snap, tokens, need, () => false, alongside);
	const refoldIds = refolds.map((r) => r.id);
	const inside = rescue.flatMap((r) => expandedOver(snap, r.start, r.end)).filter((id) => !refoldIds.includes(id));
	const retaken = [...new Set([...refoldIds, ...inside])];
	if (rescue.length === 0 && marks.length === 0 && refolds.length === 0) return g;
	const freed = rescue.reduce((sum, r) => sum + r.freedTokens, marked + refolded);
	const spans = `${rescue.length} ${nounFor(rescue.length, "span")}`;
	const waiting = marks.length > 0 ? ` and ${marks.length} waiting ${nounFor(marks.length, "mark")}` : "";
	const why = over
		? "the next request would still be over the budget"
		: `the commit would leave the window at ${Math.round((100 * next) / budget)}% of the budget`;
	const back =
		retaken.length > 0 ? `; it takes back expanded ${nounFor(retaken.length, "fold")} ${retaken.join(", ")}` : "";
	const reason = `${why}: folding stale units, oldest first (${spans}${waiting})${back}`;
	const landing = new Set(marks.map((m) => m.id));
	const plan = {
		...g.plan,
		commit: true,
		reason: g.plan.commit ? `${g.plan.reason}; ${reason}` : reason,
		force: g.plan.force ?? ("rescue" as const),
		apply: [...g.plan.apply, ...landing],
		waiting: g.plan.waiting.filter((id) => !landing.has(id)),
		freedTokens: freed,
	};
	// The gate's own folds land first and nest inside the rescue's spans.
	return { ...g, plan, proposals: [...g.proposals, ...rescue], prediction: null, retaken, refolds: refoldIds };
}

/** A commit this boundary must make because it shows oversized results as excerpts (their edits land now). */
function withExcerpts(input: BoundaryInput, g: GateResult): GateResult {
	if (input.excerpted === 0) return g;
	const n = input.excerpted;
	const why = `${n} ${nounFor(n, "result")} too large for the window shown as ${nounFor(n, "an excerpt", "excerpts")}`;
	const plan = g.plan.commit
		? { ...g.plan, reason: `${why}; ${g.plan.reason}`, force: g.plan.force ?? ("oversize" as const) }
		: { ...g.plan, commit: true, reason: why, force: "oversize" as const, apply: [], ladder: [], freedTokens: 0 };
	return { ...g, plan, proposals: g.plan.commit ? g.proposals : [] };
}

/** The gate of the boundary, then the excerpts' commit, then the rescue. */
export function gate(input: BoundaryInput): GateResult {
	return rescued(input, withExcerpts(input, gateOf(input)));
}
