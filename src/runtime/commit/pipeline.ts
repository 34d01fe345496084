// The commit pipeline: the one path by which a boundary (turn_end / agent_before_settle) moves
// bytes. It carries out the decision core's plan (src/policy commit-plan.ts) in the plan's order,
// every record of the boundary appended here:
//   1. the unmarks of marks a native compaction summarized (the human told once each);
//   2. the excerpts: their sources written, then their fold records (the human told once each);
//   3. the gate's schedule note; nothing more when the boundary does not commit;
//   4. the refolds the budget forced, then the ladder's folds (sources written, briefs asked for:
//      ladder-record.ts);
//   5. the marks placed as the plan placed them, on the branch as the records left it;
//   6. the context edits planned once, from the verified sources (edit-plan.ts), and the commit
//      record's body: what the edits applied, the marks placed and whose, the top-up, the refusals,
//      the reason, the force and the cost prediction.
// The runtime supplies the side effects (appending a record, the branch after it, the store,
// telling the human, the telemetry) and chains the commit record (runtime.ts, commit-drafts.ts).

import type { ResolvedOptions } from "../../options/index.ts";
import {
	type CommitForce,
	type CommitPlan,
	type CommitPrediction,
	type Excerpts,
	type LadderPlan,
	type PlacedMarks,
	placedSnapshot,
	type ScheduleReading,
	type Snapshot,
} from "../../policy/index.ts";
import type { Actor, DecisionBody } from "../../state/index.ts";
import { writeFoldSource } from "../fold-write.ts";
import type { BoundaryDraft, Host, SourceStore } from "../ports.ts";
import { type CommitBody, planEdits } from "./edit-plan.ts";
import { ladderDecisions } from "./ladder-record.ts";

/** What the pipeline needs from the runtime: the side effects. */
export interface CommitDeps {
	readonly options: ResolvedOptions;
	readonly store: SourceStore;
	readonly host: Pick<Host, "writeBrief">;
	/** Chains `body` after the branch's last record and appends it through the host. */
	decide(body: DecisionBody): void;
	/** The branch now (after the records just appended). */
	snapshot(): Snapshot;
	recordSchedule(note: ScheduleReading): void;
	/** An excerpt recorded (its fold and source size), or a result left whole past the cap (null). */
	recordEvidence(excerpt: { foldId: string; bytes: number } | null): void;
	/** Tells the human once per key, out of band. */
	notifyOnce(key: string, message: string, level: "info" | "warning" | "error"): void;
	/** A commit's refusals of folds whose source failed verification (told once each, kept for status). */
	reportCommitRefusals(refused: readonly { foldId: string; reason: string }[]): void;
}

/** What a commit returns to the runtime: the record's body, the edits, the branch it was recorded on. */
export interface CommitOutcome {
	readonly body: CommitBody;
	readonly drafts: BoundaryDraft[];
	/** The branch with the commit's decisions appended, before its marks are placed. */
	readonly snap: Snapshot;
	readonly ladder: readonly string[];
	readonly freed: number;
	readonly prediction: CommitPrediction | null;
}

/** The commit record's body: the edits' body (or an empty one) plus the marks and refusals. */
export function commitBody(input: {
	readonly edits: CommitBody | null;
	readonly before: Snapshot;
	readonly placed: PlacedMarks;
	readonly ladder: LadderPlan;
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
	const topUp = new Set(ladder.folds.filter((f) => f.topUp).map((f) => f.id));
	return {
		...base,
		applied: [...new Set([...base.applied, ...placed.applied, ...(epoch ? [] : ladder.ids)])],
		agentMarks: placed.applied.filter((id) => marksBefore.get(id)?.actor !== "ladder"),
		topUpMarks: placed.applied.filter((id) => topUp.has(id) || marksBefore.get(id)?.topUp === true),
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

/** Step 2: the excerpts' sources written (the digests the plan named), then their records. */
async function recordExcerpts(excerpts: Excerpts, deps: CommitDeps): Promise<void> {
	for (const { fold, entry } of excerpts.folds) {
		const written = await writeFoldSource(deps.store, [entry]);
		if (written.sha256 !== fold.sourceSha256)
			throw new Error(
				`excerpt ${fold.id}: the store wrote sha256 ${written.sha256}, the plan named ${fold.sourceSha256}`,
			);
	}
	const { brandNoun, commandNames } = deps.options;
	for (const { fold, inBatch } of excerpts.folds) {
		deps.decide({ kind: "fold", actor: "ladder", fold });
		deps.recordEvidence({ foldId: fold.id, bytes: fold.sourceBytes });
		if (inBatch) continue; // told once for the whole batch, below
		deps.notifyOnce(
			`excerpt:${fold.id}`,
			`${brandNoun}: a tool result of ${fold.sourceBytes.toLocaleString("en-US")} bytes is too large for the window; the model sees an excerpt (fold ${fold.id}), and the exact result is stored: /${commandNames.fold} peek ${fold.id}`,
			"info",
		);
	}
	const batch = excerpts.batch;
	const first = excerpts.folds.find((f) => f.inBatch)?.fold.id;
	if (batch && first)
		deps.notifyOnce(
			`excerpt-batch:${first}`,
			`${brandNoun}: one batch of ${batch.count} tool results is too large for the window as a whole, so ${batch.shown === batch.count ? "each" : `${batch.shown} of them`} (${batch.bytes.toLocaleString("en-US")} bytes) ${batch.shown === 1 ? "is" : "are"} shown by ${batch.shown === 1 ? "its" : "their"} start and size, every call still answered; the exact results are stored: /${commandNames.fold} search finds a line in any of them, /${commandNames.fold} peek ${first} reads one`,
			"info",
		);
	for (const _ of excerpts.overCap) deps.recordEvidence(null);
	if (excerpts.overCap.length > 0)
		deps.notifyOnce(
			`excerpt-cap:${excerpts.overCap.join(",")}`,
			`${brandNoun}: ${excerpts.overCap.join(", ")} left whole: the originals of this session's excerpts already fill the 512 MiB pi-fold stores for excerpts in one session`,
			"warning",
		);
}

/** Carries out one boundary's plan; the commit's outcome, or null when nothing commits. */
export async function runCommit(plan: CommitPlan, deps: CommitDeps): Promise<CommitOutcome | null> {
	for (const { foldId, note } of plan.unmarks) {
		deps.decide({ kind: "unmark", actor: "ladder", foldId, note });
		deps.notifyOnce(`dropped:${foldId}`, `mark ${foldId} dropped: ${note}`, "info");
	}
	await recordExcerpts(plan.excerpts, deps);
	deps.recordSchedule(plan.schedule);
	const commit = plan.commit;
	if (!commit) return null;
	// What the budget takes back of the agent's expands is refolded first (named in the reason).
	for (const foldId of commit.refolds) deps.decide({ kind: "refold", actor: "ladder", foldId });
	const ladder = await ladderDecisions(deps.host, deps.store, commit.on, commit.ladder, deps.options);
	for (const body of ladder) deps.decide(body);
	const snap = deps.snapshot();
	const placed = placedSnapshot(snap, commit.placement);
	for (const r of placed.refused)
		deps.notifyOnce(`mark:${r.foldId}:${r.reason}`, `mark ${r.foldId} refused at commit: ${r.reason}`, "warning");
	const edits = await planEdits(placed.snap, deps.store, deps.options, commit.reason, commit.actor);
	deps.reportCommitRefusals(edits.refused);
	if (!edits.commit && placed.applied.length === 0 && placed.refused.length === 0) return null;
	const body = commitBody({
		edits: edits.commit?.body ?? null,
		before: snap,
		placed,
		ladder: commit.ladder,
		epoch: deps.options.foldScheduling !== "immediate",
		actor: commit.actor,
		reason: commit.reason,
		prediction: commit.prediction,
		force: commit.force,
		retaken: commit.retaken,
	});
	return {
		body,
		drafts: edits.commit?.drafts ?? [],
		snap,
		ladder: commit.ladder.ids,
		freed: commit.freedTokens,
		prediction: commit.prediction,
	};
}
