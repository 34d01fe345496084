// Cost scheduling (`foldScheduling: "cost"`, the default): a fold is a free pending mark, as under
// epoch scheduling, and the runtime commits when committing costs less than holding. At each
// boundary every commit the standing marks and the ladder's proposals allow is priced (cost.ts: the
// rewrite from its first change, briefs, the reads it saves); the one that pays most is made once
// its freed tokens reach their economic order quantity. Deep by construction: the ladder proposes
// everything stale down to the keep-raw floor, not a fifth of the budget, and from half the budget
// (a fifth when nothing else is left to fold)
// the span rung folds the stale conversation the other rungs leave raw. Hard limits override the
// economics: at the cap (the budget, or the first price tier when a commit can stay under it) the
// deepest commit lands; when the provider's cache has expired it lands too, free of rewrite cost;
// an expand opens the epoch. Pure.

import { PRESSURE_BACKSTOP_OCCUPANCY } from "./constants.ts";
import {
	type Candidate,
	type CommitPrediction,
	commitOptions,
	type Economy,
	type Priced,
	worthCommitting,
} from "./cost.ts";
import type { Proposal } from "./ladder.ts";
import { firstTierAt } from "./prices.ts";
import { type CommitForce, type MarkView, type ScheduleBasis, type SchedulePlan, sortMarks } from "./schedule.ts";

export interface CostScheduleInput extends ScheduleBasis {
	readonly economy: Economy;
	/** The span rung's folds of the stale conversation the other rungs leave raw (span-rung.ts). */
	readonly spans: readonly Proposal[];
	/** Dollars of the model-brief request a ladder proposal would need (0: deterministic). */
	readonly briefCost: (proposal: Proposal) => number;
	/** The provider's cache has expired since the last request: the next request is fresh anyway. */
	readonly cacheCold: boolean;
}

export interface CostPlan extends SchedulePlan {
	readonly prediction: CommitPrediction | null;
}

type Tagged = Candidate & { readonly mark?: MarkView; readonly proposal?: Proposal };

function overlaps(a: { start: number; end: number }, list: readonly { start: number; end: number }[]): boolean {
	return list.some((b) => a.start < b.end && b.start < a.end);
}

/**
 * Ready marks, then chapters, spans (which take the tool batches of their runs with them), tool
 * batches and consolidations, each that overlaps nothing already taken.
 */
function candidatesOf(input: CostScheduleInput, ready: readonly MarkView[]): Tagged[] {
	const out: Tagged[] = ready.map((m) => ({
		start: m.start,
		end: m.end,
		freedTokens: m.freedTokens,
		briefCost: 0,
		mark: m,
	}));
	if (input.paused) return out;
	const spans: Tagged[] = [];
	for (const p of [...input.chapters, ...input.spans, ...input.tools, ...input.consolidations]) {
		const inSpan = p.rung === "tools" && spans.some((s) => s.start <= p.start && p.end <= s.end);
		if (inSpan) {
			// Inside a span it lands as the span's child: it frees nothing more, and keeps its handle.
			out.push({ start: p.start, end: p.end, freedTokens: 0, briefCost: 0, proposal: p });
			continue;
		}
		if (overlaps(p, out)) continue;
		const tagged = {
			start: p.start,
			end: p.end,
			freedTokens: p.freedTokens,
			briefCost: input.briefCost(p),
			proposal: p,
		};
		if (p.rung === "span") spans.push(tagged);
		out.push(tagged);
	}
	return out.sort((a, b) => a.start - b.start);
}

/** What forces a commit now whatever the economics, with why in words: the budget, or a price tier a commit avoids. */
function atCap(input: CostScheduleInput, deepest: Priced | undefined): { force: CommitForce; why: string } | null {
	const e = input.economy;
	const next = e.windowTokens + e.growthTokens;
	if (next >= input.budget.budgetTokens * PRESSURE_BACKSTOP_OCCUPANCY)
		return { force: "budget", why: "the next request would reach the budget" };
	const tier = firstTierAt(e.prices);
	if (
		deepest &&
		e.overhead + next * e.calibration > tier &&
		deepest.prediction.windowAfterTokens + e.growthTokens * e.calibration < tier
	)
		return {
			force: "price tier",
			why: `the next request would cross the ${tier.toLocaleString("en-US")}-token price tier`,
		};
	return null;
}

const usd = (x: number) => `$${x.toFixed(x < 0.1 ? 4 : 2)}`;

/**
 * Requests a commit's saving accrues over: until the window, grown back from where the commit
 * leaves it, reaches the budget's backstop and forces the next commit (at least one).
 */
export function paybackHorizon(input: CostScheduleInput, o: Priced): number {
	const e = input.economy;
	const room = input.budget.budgetTokens * PRESSURE_BACKSTOP_OCCUPANCY - (e.windowTokens - o.freed);
	return Math.max(1, room / Math.max(1, e.growthTokens));
}

/** The commit worth making on its own: it reaches its order quantity and pays back within its horizon. */
function paying(input: CostScheduleInput, options: readonly Priced[]): Priced | null {
	return worthCommitting(options.filter((o) => o.prediction.breakEvenRequests <= paybackHorizon(input, o)));
}

function hold(input: CostScheduleInput, reason: string): CostPlan {
	return {
		commit: false,
		reason,
		force: null,
		apply: [],
		refused: [],
		waiting: input.marks.map((m) => m.id),
		ladder: [],
		freedTokens: 0,
		prediction: null,
	};
}

/** Why the boundary holds, in words: what is foldable and from where it would pay. */
function holding(options: readonly Priced[]): string {
	const next = options.find((o) => o.freed > 0);
	return next
		? `holding: ~${Math.round(next.freed).toLocaleString("en-US")} tokens foldable, worth a commit from ~${Math.round(next.payAt).toLocaleString("en-US")}`
		: "holding: nothing stale to fold";
}

/** Decides whether this boundary commits under cost scheduling, and what. */
export function planCostCommit(input: CostScheduleInput): CostPlan {
	// A ladder mark at the end of the window waits like any other in the fresh tail.
	const { refused, ready, waiting } = sortMarks(input, (m) => m.actor !== "ladder");
	const candidates = candidatesOf(input, ready);
	const options = commitOptions(input.economy, candidates);
	const deepest = options[0];
	const cap = input.paused ? null : atCap(input, deepest);
	const forced: { force: CommitForce; why: string } | null =
		cap ??
		(input.cacheCold
			? { force: "cold cache", why: "the provider's cache expired: the next request is fresh anyway" }
			: null);
	// Forced by the budget, a commit that frees less than one request's growth puts the next forced one off by nothing.
	const futile =
		forced?.force === "budget" && !input.decisionsPending && (deepest?.freed ?? 0) < input.economy.growthTokens;
	const force = futile ? null : (forced?.force ?? (input.expandPending ? "expand" : null));
	const chosen = force ? deepest : paying(input, options);
	const reasons: string[] = [];
	if (forced && !futile) reasons.push(forced.why);
	if (input.expandPending) reasons.push("an expand opened the epoch");
	if (chosen && !force)
		reasons.push(
			`it pays: ~${chosen.prediction.freedTokens.toLocaleString("en-US")} tokens freed save ${usd(chosen.prediction.savingPerRequestUsd)} a request against a rewrite of ${usd(chosen.prediction.rewriteUsd)}`,
		);
	if (!chosen && input.decisionsPending) reasons.push("decisions pending");
	if (!chosen && !input.decisionsPending)
		return hold(input, futile ? `${forced?.why}, but nothing stale frees a request's growth` : holding(options));
	const taken = chosen?.chosen ?? [];
	const apply = taken.flatMap((c) => ((c as Tagged).mark ? [(c as Tagged).mark?.id as string] : []));
	const ladder = taken.flatMap((c) => ((c as Tagged).proposal ? [(c as Tagged).proposal as Proposal] : []));
	return {
		commit: true,
		reason: reasons.join("; "),
		force,
		apply,
		refused,
		waiting: [...waiting, ...ready.filter((m) => !apply.includes(m.id)).map((m) => m.id)],
		ladder,
		freedTokens: chosen?.freed ?? 0,
		prediction: chosen?.prediction ?? null,
	};
}
