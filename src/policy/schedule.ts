// When the window may change, and what lands when it does. Immediate scheduling commits decided
// folds at the next boundary; epoch scheduling keeps folds as free pending marks and commits them
// all in one rewrite when occupancy reaches QUIET_OCCUPANCY and there is stale tool mass to free,
// under the pressure backstop, when an expand opens the epoch, or for a mark at the very end of the
// window. Either way the ladder is quiet below QUIET_OCCUPANCY, and an automatic commit is topped
// up with the stalest tool batches until it frees COMMIT_TARGET_SHARE of the budget. Pure.

import type { ServingBudget } from "./budget.ts";
import {
	COMMIT_TARGET_SHARE,
	MIN_STALE_TOOL_SHARE,
	PRESSURE_BACKSTOP_OCCUPANCY,
	QUIET_OCCUPANCY,
	TAIL_IMMEDIATE_MESSAGES,
} from "./constants.ts";
import type { Proposal } from "./ladder.ts";

/** When folds reach the window: at once, at 80% in batches, or when committing pays (cost-schedule.ts). */
export type FoldScheduling = "cost" | "immediate" | "epoch";

/** A pending mark as the scheduler sees it. */
export interface MarkView {
	readonly id: string;
	readonly start: number;
	readonly end: number;
	readonly freedTokens: number;
	readonly actor: "agent" | "ladder" | "human";
	/** Why it cannot apply now, if protected (refused at commit, by name). */
	readonly protectedBy: string | null;
	/** Inside the protected fresh tail (waits until it ages out, unless at the very end). */
	readonly inFreshTail: boolean;
}

/** What every scheduler reads (this one and cost scheduling's, cost-schedule.ts). */
export interface ScheduleBasis {
	/** The serving budget in estimated tokens. */
	readonly budget: ServingBudget;
	/** Entries in the transcript (for the tail-adjacent rule). */
	readonly entryCount: number;
	readonly marks: readonly MarkView[];
	/** Decisions awaiting the window (immediate folds, expands, refolds, rebriefs, dissolves). */
	readonly decisionsPending: boolean;
	/** An expand (or refold) is among the pending decisions: it opens the epoch. */
	readonly expandPending: boolean;
	/** Ladder proposals, oldest first, per rung (under cost scheduling, down to the keep-raw floor). */
	readonly tools: readonly Proposal[];
	readonly chapters: readonly Proposal[];
	readonly consolidations: readonly Proposal[];
	/** Automatic folding paused (a refused record): only explicit decisions commit. */
	readonly paused: boolean;
}

export interface ScheduleInput extends ScheduleBasis {
	readonly mode: "immediate" | "epoch";
	/** Estimated tokens of the next request. */
	readonly occupancyTokens: number;
}

/**
 * What made a commit happen whatever its own economics: the budget (the next request would reach it),
 * a price tier a commit avoids, an expand that must show at the next request, a provider cache that
 * expired anyway, the rescue, or a result too large for the window shown as an excerpt. Null for a commit that pays for itself, or that lands decisions.
 */
export type CommitForce = "budget" | "price tier" | "expand" | "cold cache" | "rescue" | "oversize";

export interface SchedulePlan {
	readonly commit: boolean;
	readonly reason: string;
	/** What forced the commit (see CommitForce); null or absent when nothing did. */
	readonly force?: CommitForce | null;
	/** Marks applied by this commit. */
	readonly apply: readonly string[];
	/** Marks refused at this commit, by name, with why. */
	readonly refused: readonly { readonly id: string; readonly reason: string }[];
	/** Marks still waiting (fresh tail). */
	readonly waiting: readonly string[];
	/** Ladder folds this commit adds (top-up, chapters, consolidation). */
	readonly ladder: readonly Proposal[];
	readonly freedTokens: number;
}

const NONE: Omit<SchedulePlan, "reason"> = {
	commit: false,
	apply: [],
	refused: [],
	waiting: [],
	ladder: [],
	freedTokens: 0,
};

function pct(x: number): string {
	return `${Math.round(x * 100)}%`;
}

/** Adds ladder proposals oldest first until `freed` reaches `target`; consolidations always ride. */
function topUp(input: ScheduleInput, freed: number, target: number): { ladder: Proposal[]; freed: number } {
	const ladder: Proposal[] = [];
	for (const p of [...input.tools, ...input.chapters]) {
		if (freed >= target) break;
		if (ladder.some((q) => q.start < p.end && p.start < q.end)) continue;
		ladder.push(p);
		freed += p.freedTokens;
	}
	for (const p of input.consolidations) {
		if (ladder.some((q) => q.start < p.end && p.start < q.end)) continue;
		ladder.push(p);
		freed += p.freedTokens;
	}
	return { ladder, freed };
}

/** Decides whether this boundary commits, and what. */
export function planCommit(input: ScheduleInput): SchedulePlan {
	const marks = sortMarks(input);
	const pressure = measurePressure(input, marks.ready);
	return input.mode === "immediate" ? planImmediate(input, pressure) : planEpoch(input, marks, pressure);
}

/** The pending marks sorted for this boundary: refused (protected), ready to apply, and waiting in the fresh tail. */
export interface SortedMarks {
	readonly refused: { id: string; reason: string }[];
	readonly ready: MarkView[];
	readonly waiting: string[];
}

/** How full the window is and whether that alone calls for an automatic commit. */
interface Pressure {
	/** Occupancy as a share of the serving budget. */
	readonly occ: number;
	readonly staleToolMass: number;
	readonly backstop: boolean;
	/** The ladder commits on its own (pressure with stale tool mass, or the backstop), unless paused. */
	readonly automatic: boolean;
}

/** A mark at the very end of the window (applies at once even inside the fresh tail). */
function isTailAdjacent(m: MarkView, input: ScheduleBasis): boolean {
	return m.end >= input.entryCount - TAIL_IMMEDIATE_MESSAGES;
}

/**
 * Sorts the marks: protected ones are refused; the rest are ready unless they sit in the fresh tail,
 * where only a tail-adjacent mark `atEnd` admits is ready (epoch: any; cost: the agent's and the human's).
 */
export function sortMarks(input: ScheduleBasis, atEnd: (m: MarkView) => boolean = () => true): SortedMarks {
	const refused = input.marks
		.filter((m) => m.protectedBy !== null)
		.map((m) => ({ id: m.id, reason: m.protectedBy as string }));
	const endReady = (m: MarkView) => isTailAdjacent(m, input) && atEnd(m);
	const ready = input.marks.filter((m) => m.protectedBy === null && (!m.inFreshTail || endReady(m)));
	const waiting = input.marks.filter((m) => m.protectedBy === null && m.inFreshTail && !endReady(m)).map((m) => m.id);
	return { refused, ready, waiting };
}

function measurePressure(input: ScheduleInput, ready: readonly MarkView[]): Pressure {
	const occ = input.occupancyTokens / input.budget.budgetTokens;
	// Stale mass outside the fresh tail: what the tool rung could fold plus what standing marks
	// already claim (the rung skips ranges marks cover, so marks must count here or a session whose
	// agent marks everything would only ever commit at the backstop).
	const staleToolMass =
		input.tools.reduce((sum, p) => sum + p.freedTokens, 0) +
		ready.filter((m) => !m.inFreshTail).reduce((sum, m) => sum + m.freedTokens, 0);
	const pressure = occ >= QUIET_OCCUPANCY && staleToolMass >= MIN_STALE_TOOL_SHARE * input.budget.budgetTokens;
	const backstop = occ >= PRESSURE_BACKSTOP_OCCUPANCY;
	return { occ, staleToolMass, backstop, automatic: !input.paused && (pressure || backstop) };
}

function automaticReason({ occ, backstop }: Pressure): string {
	return `occupancy ${pct(occ)} ${backstop ? "at the pressure backstop" : "with stale tool mass"}`;
}

/** Immediate scheduling: commit pending decisions at once, topped up by the ladder under pressure. */
function planImmediate(input: ScheduleInput, pressure: Pressure): SchedulePlan {
	const { occ, automatic } = pressure;
	if (!input.decisionsPending && !automatic)
		return { ...NONE, reason: `quiet: occupancy ${pct(occ)} of the serving budget` };
	const target = COMMIT_TARGET_SHARE * input.budget.budgetTokens;
	const { ladder, freed } = automatic ? topUp(input, 0, target) : { ladder: [], freed: 0 };
	const reason = input.decisionsPending
		? `decisions pending${automatic ? `; occupancy ${pct(occ)} with stale tool mass` : ""}`
		: automaticReason(pressure);
	const force = pressure.backstop && !input.paused ? ("budget" as const) : null;
	return { commit: true, reason, force, apply: [], refused: [], waiting: [], ladder, freedTokens: freed };
}

/** Epoch scheduling: hold the marks until pressure, an expand, a mark at the end or a pending decision commits them. */
function planEpoch(input: ScheduleInput, marks: SortedMarks, pressure: Pressure): SchedulePlan {
	const { ready } = marks;
	const { automatic } = pressure;
	const target = COMMIT_TARGET_SHARE * input.budget.budgetTokens;
	const markFreed = ready.reduce((sum, m) => sum + m.freedTokens, 0);
	// Only a decision of the agent or the human applies at once: a ladder mark at the end must not
	// rewrite below QUIET_OCCUPANCY.
	const atEnd = ready.some((m) => m.actor !== "ladder" && isTailAdjacent(m, input));
	const opensEpoch = input.expandPending;
	if (!automatic && !opensEpoch && !atEnd && !input.decisionsPending) {
		return {
			...NONE,
			waiting: input.marks.map((m) => m.id),
			reason: `holding ${input.marks.length} mark(s): occupancy ${pct(pressure.occ)}, stale tool mass ${Math.round(pressure.staleToolMass)} tokens`,
		};
	}
	const { ladder, freed } =
		automatic && markFreed < target ? topUp(input, markFreed, target) : { ladder: [], freed: markFreed };
	const reasons: string[] = [];
	if (automatic) reasons.push(automaticReason(pressure));
	if (opensEpoch) reasons.push("an expand opened the epoch");
	if (atEnd) reasons.push("a mark at the end of the window applies at once");
	if (input.decisionsPending && reasons.length === 0) reasons.push("decisions pending");
	const force = automatic && pressure.backstop ? "budget" : opensEpoch ? "expand" : null;
	return {
		commit: true,
		reason: reasons.join("; "),
		force,
		apply: ready.map((m) => m.id),
		refused: marks.refused,
		waiting: marks.waiting,
		ladder,
		freedTokens: freed,
	};
}
