// Step 6 of the commit pipeline (pipeline.ts): the commit record's body (what the edits applied, the
// marks placed and whose, the top-up, the refusals, the reason, the cost prediction), who the commit
// is attributed to, and the tokens it frees by estimate. Pure.

import type { CommitForce, CommitPrediction, MarkView, Snapshot } from "../../policy/index.ts";
import type { Actor } from "../../state/index.ts";
import type { CommitBody } from "./edit-plan.ts";
import type { LadderDecisions } from "./ladder-record.ts";
import type { PlacedMarks } from "./placement.ts";

/** The commit record's body: the edits' body (or an empty one) plus the marks and refusals. */
export function commitBody(input: {
	readonly edits: CommitBody | null;
	readonly before: Snapshot;
	readonly placed: PlacedMarks;
	readonly ladder: LadderDecisions;
	readonly epoch: boolean;
	readonly actor: Actor;
	readonly reason: string;
	readonly prediction: CommitPrediction | null;
	readonly force: CommitForce | null;
	readonly retaken: readonly string[];
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
		...(input.force ? { force: input.force } : {}),
		...(input.retaken.length > 0 ? { retaken: [...input.retaken] } : {}),
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
