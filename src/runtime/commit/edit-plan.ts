// Plans a commit's edits: the `context_edit` drafts that bring the window in line with the fold
// state, and the chained `commit` decision body that records them. Placeholders replace a collapsed
// fold's first leaf and omit the rest; restores put back original content read from the VERIFIED
// fold store (a source that fails verification keeps its fold collapsed and is listed as refused).
// Every draft targets an entry on the active branch, or nothing is proposed. Async only for the
// verified reads (restores.ts).

import type { FoldRecord } from "../../lattice/index.ts";
import { briefContent, managedTargets, type Snapshot } from "../../policy/index.ts";
import {
	editsToCommit,
	type ImpliedEdit,
	impliedEdits,
	type PlaceholderNames,
	renderPlaceholder,
} from "../../projection/index.ts";
import type { Actor, DecisionBody } from "../../state/index.ts";
import type { ContextEditDraft, SourceStore } from "../ports.ts";
import { resolveRestores } from "./restores.ts";

/** A commit's record body (the `commit` decision). */
export type CommitBody = Extract<DecisionBody, { kind: "commit" }>;

export interface EditPlan {
	/** Folds kept collapsed (or entries left as they were) because their source failed verification. */
	readonly refused: readonly { foldId: string; reason: string }[];
	/** Null when the window already matches the state. */
	readonly commit: EditProposal | null;
}

export interface EditProposal {
	readonly drafts: ContextEditDraft[];
	readonly body: CommitBody;
	readonly edits: readonly ImpliedEdit[];
}

/** The commit body for `edits`: applied folds, the edits by target, no marks (the boundary adds them). */
function bodyFor(
	snap: Snapshot,
	edits: readonly ImpliedEdit[],
	refused: EditPlan["refused"],
	reason: string,
	actor: Actor,
): CommitBody {
	return {
		kind: "commit",
		actor,
		seq: snap.state.commitSeq + 1,
		reason,
		applied: [...new Set(edits.filter((e) => e.action === "brief").map((e) => e.foldId as string))],
		agentMarks: [],
		topUpMarks: [],
		refused: [...refused],
		edits: edits.map((edit) => ({ targetId: edit.targetId, action: edit.action })),
	};
}

/**
 * The receipts of earlier commits that sit after the commit's first change leave with it (it brings
 * its own): they cost no extra rewrite there, and receipts stay bounded in the window. One before the
 * first change stays, since omitting it would move the rewrite up to it.
 */
function omitReceipts(view: Snapshot["view"], toCommit: ImpliedEdit[]): void {
	const index = new Map(view.transcript.map((e, i) => [e.id, i]));
	const first = Math.min(...toCommit.map((edit) => index.get(edit.targetId) ?? Number.POSITIVE_INFINITY));
	for (const receipt of view.receipts ?? [])
		if (receipt.before > first && view.inForce.get(receipt.id) !== null)
			toCommit.push({ targetId: receipt.id, action: "omit", replacement: null, foldId: null });
}

/**
 * Plans the commit that brings the window in line with `snap` (`commit` null when nothing differs).
 * `reason` and `actor` go into the commit record.
 */
export async function planEdits(
	snap: Snapshot,
	store: SourceStore,
	names: PlaceholderNames,
	reason: string,
	actor: Actor,
): Promise<EditPlan> {
	const { view, lattice } = snap;
	const messages = new Map(view.transcript.map((e) => [e.id, e.message]));
	const managed = managedTargets(snap);
	const restores = await resolveRestores(snap, store, managed);
	const implied = impliedEdits({
		lattice,
		expanded: restores.expanded,
		placeholder: (id) => {
			const fold = lattice.get(id)?.record as FoldRecord;
			return briefContent(messages.get(fold.leafIds[0] ?? ""), renderPlaceholder(fold, names)) as string;
		},
		managed: new Map([...managed].filter(([target]) => !restores.skipped.has(target))),
		original: (target) => restores.originals.get(target),
	}).filter((edit) => !view.foreign.has(edit.targetId));
	const toCommit = editsToCommit(implied, view.inForce);
	if (toCommit.length === 0) return { refused: restores.refused, commit: null };
	const ids = new Set(view.transcript.map((e) => e.id));
	const stray = toCommit.find((edit) => !ids.has(edit.targetId));
	if (stray) throw new Error(`commit refused: target ${stray.targetId} is not on the active branch`);
	omitReceipts(view, toCommit);
	return {
		refused: restores.refused,
		commit: {
			drafts: toCommit.map((edit) => ({
				type: "context_edit",
				targetId: edit.targetId,
				replacement: edit.replacement,
			})),
			edits: toCommit,
			body: bodyFor(snap, toCommit, restores.refused, reason, actor),
		},
	};
}
