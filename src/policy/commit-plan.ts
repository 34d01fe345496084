// The decision core: one pure function from a boundary's snapshot, options and meter to one typed
// CommitPlan, everything the boundary will append, in order:
//   1. unmarks: pending marks whose entries a native compaction summarized (placement.ts);
//   2. excerpts: results of the newest batch too large for the window (excerpt-plan.ts);
//   3. the gate (gate.ts: the cost gate or the spec's scheduler, the excerpts' forced commit, the
//      rescue), read on the branch as those records leave it, and the schedule note it makes;
//   4. for a commit: the refolds the budget forced, the ladder's folds (ladder-plan.ts), the marks
//      placed (placement.ts), whose commit it is, its reason, force, prediction and what it frees.
// Each later step reads the branch as the earlier ones leave it, looked ahead with the state's own
// reducer (applyDecisions). The runtime carries a plan out in this order (src/runtime
// commit/pipeline.ts): it writes the sources, asks for the briefs the plan gives the model, appends
// the records and plans the context edits from the verified sources.

import { escapeUnsafe } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";
import type { ResolvedOptions } from "../options/index.ts";
import { type Actor, applyDecisions, type DecisionBody } from "../state/index.ts";
import { boundaryInput, type Occupancy } from "./boundary-input.ts";
import { type HostFacts, inEstimatedTokens, type MeterReading } from "./calibration.ts";
import type { CommitPrediction } from "./cost.ts";
import { type Excerpts, excerptPlan, NO_EXCERPTS } from "./excerpt-plan.ts";
import { gate } from "./gate.ts";
import { type LadderPlan, ladderPlan } from "./ladder-plan.ts";
import { compactedMarks, noMarks, type Placement, placeMarks } from "./placement.ts";
import type { CommitForce } from "./schedule.ts";
import { buildSnapshot, type Snapshot } from "./snapshot.ts";

/** Longest commit reason a record carries. */
export const COMMIT_REASON_MAX_CHARS = 400;

/** Why a pending mark is withdrawn when a native compaction summarized its entries. */
export const COMPACTED_MARK_NOTE = "its entries were summarized by Pi's native compaction";

/** What one boundary's decision reads. */
export interface DecisionInput {
	/** The branch as the boundary reads it, with the provider's serving budget. */
	readonly snap: Snapshot;
	readonly options: ResolvedOptions;
	readonly meter: MeterReading;
	readonly host: HostFacts;
	/** The next request's estimated size. */
	readonly occupancy: Occupancy;
	/** Automatic folding paused (a refused record, or the human's hold): only explicit decisions commit. */
	readonly paused: boolean;
	/** Who made the decisions recorded since the last commit. */
	readonly actors: ReadonlySet<Actor>;
	/** Where the boundary is, in words ("end of a turn"). */
	readonly at: string;
}

/** What the gate decided, as the telemetry notes it. */
export interface ScheduleReading {
	readonly at: string;
	readonly commit: boolean;
	readonly reason: string;
	readonly occupancyTokens: number;
	readonly occupancySource: string;
	readonly waiting: readonly string[];
}

/** A commit the boundary makes. */
export interface CommitDecision {
	/** The branch the gate read (the unmarks and excerpts applied): the ladder's folds are cut from it. */
	readonly on: Snapshot;
	/** Expanded folds the budget takes back, refolded first. */
	readonly refolds: readonly string[];
	readonly ladder: LadderPlan;
	/** The marks the commit places (cost and epoch scheduling) and the ones it refuses. */
	readonly placement: Placement;
	readonly actor: Actor;
	readonly reason: string;
	readonly force: CommitForce | null;
	readonly prediction: CommitPrediction | null;
	/** Expanded folds this commit takes back (named in its record). */
	readonly retaken: readonly string[];
	/** Estimated tokens the commit frees: the applied marks' and the ladder's folds'. */
	readonly freedTokens: number;
}

/** Everything one boundary appends, in order. */
export interface CommitPlan {
	readonly unmarks: readonly { readonly foldId: string; readonly note: string }[];
	readonly excerpts: Excerpts;
	readonly schedule: ScheduleReading;
	/** Null when this boundary does not commit. */
	readonly commit: CommitDecision | null;
}

/** `snap` as it reads after `bodies` are recorded, folds they name known (the decision log's view). */
function lookAhead(snap: Snapshot, bodies: readonly DecisionBody[]): Snapshot {
	if (bodies.length === 0) return snap;
	const known = new Map(snap.known);
	for (const body of bodies)
		if ("fold" in body && body.fold) known.set(body.fold.id, { ...body.fold, brief: escapeUnsafe(body.fold.brief) });
	return buildSnapshot(snap.view, applyDecisions(snap.state, bodies), known, snap.budget);
}

/** A ladder fold as placement reads it: its entries (the runtime writes its source and brief). */
function placeholderRecord(snap: Snapshot, fold: LadderPlan["folds"][number]): FoldRecord {
	return {
		id: fold.id,
		kind: fold.kind,
		origin: "ladder",
		leafIds: snap.view.transcript.slice(fold.start, fold.end).map((e) => e.id),
		sourceSha256: "",
		sourceBytes: 0,
		brief: "",
		briefSource: "deterministic",
	};
}

/** The ladder's folds as the decisions the runtime records for them (structure only). */
function ladderBodies(snap: Snapshot, ladder: LadderPlan, epoch: boolean): DecisionBody[] {
	return ladder.folds.map((f) => {
		const fold = placeholderRecord(snap, f);
		return epoch ? { kind: "mark", actor: "ladder", topUp: f.topUp, fold } : { kind: "fold", actor: "ladder", fold };
	});
}

/** Who a commit is attributed to: the human or agent when their marks or decisions land, else the ladder. */
function commitActor(before: Snapshot, applied: readonly string[], decisionsPending: boolean, hint: Actor): Actor {
	const theirs = applied.some((id) => before.state.pendingMarks.get(id)?.actor !== "ladder");
	return theirs || decisionsPending ? hint : "ladder";
}

/** The decision of one boundary: what it records, whether it commits, and what the commit does. */
export function decideCommit(input: DecisionInput): CommitPlan {
	const { options, meter, at } = input;
	const unmarks = compactedMarks(input.snap).map((foldId) => ({ foldId, note: COMPACTED_MARK_NOTE }));
	const unmarked = lookAhead(
		input.snap,
		unmarks.map((u) => ({ kind: "unmark", actor: "ladder", foldId: u.foldId, note: u.note })),
	);
	// The unmarks are the ladder's decisions too: they count among the epoch's actors.
	const actors = new Set(input.actors);
	if (unmarks.length > 0) actors.add("ladder");
	const hint: Actor = actors.has("agent") || actors.size === 0 ? "agent" : "human";
	const excerpts =
		input.paused || !options.evidenceIngestion
			? NO_EXCERPTS
			: excerptPlan(inEstimatedTokens(unmarked, meter.calibration), input.occupancy.tokens, meter.rateBound);
	const snap = lookAhead(
		unmarked,
		excerpts.folds.map(({ fold }) => ({ kind: "fold", actor: "ladder", fold })),
	);
	const occupancy: Occupancy = { ...input.occupancy, tokens: input.occupancy.tokens - excerpts.freedTokens };
	const gateInput = boundaryInput({
		host: input.host,
		options,
		meter,
		snap,
		// The policies work in estimated tokens: the budget they read is the provider's over the calibration.
		scaled: inEstimatedTokens(snap, meter.calibration),
		occupancy,
		paused: input.paused,
		hint,
		at,
		excerpted: excerpts.folds.length,
		excerptFreedTokens: excerpts.freedTokens,
	});
	const g = gate(gateInput);
	const schedule: ScheduleReading = {
		at,
		commit: g.plan.commit,
		reason: g.plan.reason,
		occupancyTokens: occupancy.tokens,
		occupancySource: occupancy.source,
		waiting: g.plan.waiting,
	};
	if (!g.plan.commit) return { unmarks, excerpts, schedule, commit: null };
	const epoch = options.foldScheduling !== "immediate";
	const refolds = g.refolds ?? [];
	// Paused (an unwritable store among the reasons): a commit carries the explicit decisions only, and
	// no ladder fold, which would need a source written.
	const ladder = ladderPlan(snap, input.paused ? [] : g.proposals, options.foldScheduling, g.modelBrief, g.plan.apply);
	const recorded = lookAhead(snap, [
		...refolds.map((foldId): DecisionBody => ({ kind: "refold", actor: "ladder", foldId })),
		...ladderBodies(snap, ladder, epoch),
	]);
	const apply = epoch ? [...g.plan.apply, ...ladder.ids] : [];
	const placed = epoch ? placeMarks(recorded, apply, g.plan.refused) : noMarks(recorded, g.plan.refused);
	const settled = epoch ? [...g.plan.refused.map((r) => r.id), ...apply] : [];
	const applied = g.marks.filter((m) => placed.applied.includes(m.id)).reduce((sum, m) => sum + m.freedTokens, 0);
	return {
		unmarks,
		excerpts,
		schedule,
		commit: {
			on: snap,
			refolds,
			ladder,
			placement: { applied: placed.applied, refused: placed.refused, settled },
			actor: commitActor(recorded, placed.applied, gateInput.pendingFrom !== null, hint),
			reason: `${at}: ${g.plan.reason}`.slice(0, COMMIT_REASON_MAX_CHARS),
			force: g.plan.force ?? null,
			prediction: g.prediction,
			retaken: g.retaken ?? [],
			freedTokens: ladder.freedTokens + applied,
		},
	};
}
