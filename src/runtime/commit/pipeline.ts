// The commit pipeline: the one path by which a boundary (turn_end / agent_before_settle) moves bytes.
// Each step takes one typed value and returns the next:
//   BoundaryInput (boundary-input.ts: the snapshot, the occupancy, the decisions pending)
//   -> Gated      (gate.ts: does this boundary commit, and what: the plan and the ladder's proposals)
//   -> Recorded   (ladder-record.ts: the ladder's decisions, sources written, records appended)
//   -> Placed     (placement.ts: the marks the commit applies placed as folds, refusals by name)
//   -> Planned    (edit-plan.ts: the context edits that bring the window in line, planned once)
//   -> CommitOutcome (commit-record.ts: the commit record's body, its drafts, the tokens it frees).
// The runtime supplies what has side effects (appending a record, snapshots after it, the store,
// telling the human) and chains the record (runtime.ts).

import type { CommitPrediction, Snapshot } from "../../policy/index.ts";
import type { Actor, DecisionBody } from "../../state/index.ts";
import type { BoundaryDraft, SourceStore } from "../ports.ts";
import type { ScheduleNote } from "../telemetry.ts";
import type { BoundaryInput } from "./boundary-input.ts";
import { commitActor, commitBody, freedTokens } from "./commit-record.ts";
import { type CommitBody, type EditPlan, planEdits } from "./edit-plan.ts";
import { type GateResult, gate } from "./gate.ts";
import { type LadderDecisions, ladderDecisions } from "./ladder-record.ts";
import { noMarks, type PlacedMarks, placeMarks } from "./placement.ts";

/** Longest commit reason a record carries. */
export const COMMIT_REASON_MAX_CHARS = 400;

/** What the pipeline needs from the runtime: the side effects. */
export interface CommitDeps {
	readonly store: SourceStore;
	/** Chains `body` after the branch's last record and appends it through the host. */
	decide(body: DecisionBody): void;
	/** The branch now (after the records just appended). */
	snapshot(): Snapshot;
	recordSchedule(note: ScheduleNote): void;
	/** Tells the human once per key, out of band. */
	notifyOnce(key: string, message: string, level: "info" | "warning" | "error"): void;
	/** A commit's refusals of folds whose source failed verification (told once each, kept for status). */
	reportCommitRefusals(refused: readonly { foldId: string; reason: string }[]): void;
}

/** Step 2's value: the input and what the gate decided. */
export interface Gated {
	readonly input: BoundaryInput;
	readonly gate: GateResult;
}

/** Step 3's value: the ladder's decisions recorded, and the branch after them. */
export interface Recorded extends Gated {
	readonly ladder: LadderDecisions;
	readonly snap: Snapshot;
}

/** Step 4's value: the marks placed, whose commit it is, and its reason. */
export interface Placed extends Recorded {
	readonly placed: PlacedMarks;
	readonly actor: Actor;
	readonly reason: string;
}

/** Step 5's value: the edits planned on the placed state. */
export interface Planned extends Placed {
	readonly edits: EditPlan;
}

/** What a commit returns to the runtime: the record's body, the edits, the state it was planned on. */
export interface CommitOutcome {
	readonly body: CommitBody;
	readonly drafts: BoundaryDraft[];
	readonly snap: Snapshot;
	readonly ladder: readonly string[];
	readonly freed: number;
	readonly prediction: CommitPrediction | null;
}

function gated(input: BoundaryInput, deps: CommitDeps): Gated {
	const g = gate(input);
	deps.recordSchedule({
		at: input.at,
		commit: g.plan.commit,
		reason: g.plan.reason,
		occupancyTokens: input.occupancy.tokens,
		occupancySource: input.occupancy.source,
		waiting: g.plan.waiting,
	});
	return { input, gate: g };
}

async function recorded(step: Gated, deps: CommitDeps): Promise<Recorded> {
	const { input, gate: g } = step;
	// What the budget takes back of the agent's expands is refolded first (named in the reason).
	for (const foldId of g.refolds ?? []) deps.decide({ kind: "refold", actor: "ladder", foldId });
	const ladder = await ladderDecisions(
		input.host,
		deps.store,
		input.snap,
		g.proposals,
		input.options,
		g.modelBrief,
		g.plan.apply,
	);
	for (const body of ladder.bodies) deps.decide(body);
	return { ...step, ladder, snap: deps.snapshot() };
}

function placed(step: Recorded, deps: CommitDeps): Placed {
	const { input, gate: g, snap, ladder } = step;
	const epoch = input.options.foldScheduling !== "immediate";
	const marks = epoch
		? placeMarks(snap, [...g.plan.apply, ...ladder.ids], g.plan.refused)
		: noMarks(snap, g.plan.refused);
	for (const r of marks.refused)
		deps.notifyOnce(`mark:${r.foldId}:${r.reason}`, `mark ${r.foldId} refused at commit: ${r.reason}`, "warning");
	const actor = commitActor(snap, marks.applied, input.pendingFrom !== null, input.hint);
	const reason = `${input.at}: ${g.plan.reason}`.slice(0, COMMIT_REASON_MAX_CHARS);
	return { ...step, placed: marks, actor, reason };
}

async function planned(step: Placed, deps: CommitDeps): Promise<Planned> {
	const edits = await planEdits(step.placed.snap, deps.store, step.input.options, step.reason, step.actor);
	deps.reportCommitRefusals(edits.refused);
	return { ...step, edits };
}

function outcome(step: Planned): CommitOutcome | null {
	const { edits, placed: marks, snap, ladder, gate: g, input } = step;
	if (!edits.commit && marks.applied.length === 0 && marks.refused.length === 0) return null;
	const body = commitBody({
		edits: edits.commit?.body ?? null,
		before: snap,
		placed: marks,
		ladder,
		epoch: input.options.foldScheduling !== "immediate",
		actor: step.actor,
		reason: step.reason,
		prediction: g.prediction,
		force: g.plan.force ?? null,
		retaken: g.retaken ?? [],
	});
	return {
		body,
		drafts: edits.commit?.drafts ?? [],
		snap,
		ladder: ladder.ids,
		freed: freedTokens(g.marks, marks, ladder),
		prediction: g.prediction,
	};
}

/** One boundary pass: gate, record the ladder, place the marks, plan the edits once, the commit; null when nothing commits. */
export async function runCommit(input: BoundaryInput, deps: CommitDeps): Promise<CommitOutcome | null> {
	const g = gated(input, deps);
	if (!g.gate.plan.commit) return null;
	return outcome(await planned(placed(await recorded(g, deps), deps), deps));
}
