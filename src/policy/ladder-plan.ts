// Which of the ladder's proposals a commit records (commit-plan.ts): inner folds first, each skipped
// when it is already a fold or a mark, when the structural rules refuse it (the rescue may fold the
// fresh tail down to the unit in use; every other rule holds), or when it would not nest with the
// folds in force, the marks this commit applies and the proposals taken before it: the ladder never
// records a mark its own commit would refuse. Each taken proposal says what fold it becomes (kind,
// top-up flag, whether the model writes its brief). Pure: the runtime writes the sources and the
// briefs, then records them in this order.

import { type BriefedKind, foldId, NestingSet } from "../lattice/index.ts";
import type { Proposal } from "./ladder.ts";
import type { FoldScheduling } from "./schedule.ts";
import type { Snapshot } from "./snapshot.ts";
import { spanProblem } from "./span-rules.ts";

const KIND_OF_RUNG: Record<Proposal["rung"], BriefedKind> = {
	tools: "tools",
	chapter: "chapter",
	consolidation: "consolidation",
	span: "span",
	rescue: "span",
};

/** One ladder fold a commit records. */
export interface LadderFold {
	readonly id: string;
	readonly start: number;
	readonly end: number;
	readonly kind: BriefedKind;
	/** Recorded as a top-up mark (tool and chapter rungs, under cost and epoch scheduling). */
	readonly topUp: boolean;
	/** The model writes its brief (else the deterministic brief). */
	readonly modelBrief: boolean;
}

/** The ladder's part of a commit: its folds in the order they are recorded, and the tokens they free. */
export interface LadderPlan {
	readonly folds: readonly LadderFold[];
	readonly ids: readonly string[];
	readonly freedTokens: number;
}

/** The folds this commit lands beside a new proposal: those placed on the transcript, and the marks it applies. */
function landingFolds(snap: Snapshot, applying: readonly string[]): NestingSet {
	const landing = new NestingSet(snap.lattice);
	// A mark that does not nest is refused at placement; it holds no place here.
	for (const id of applying) {
		const mark = snap.state.pendingMarks.get(id);
		if (mark && landing.fits(mark.fold)) landing.add(mark.fold);
	}
	return landing;
}

/** The ladder folds a commit records from `proposals`, inner folds first. */
export function ladderPlan(
	snap: Snapshot,
	proposals: readonly Proposal[],
	scheduling: FoldScheduling,
	modelBrief: (p: Proposal) => boolean,
	applying: readonly string[],
): LadderPlan {
	const epoch = scheduling !== "immediate";
	const folds: LadderFold[] = [];
	const ids: string[] = [];
	let freed = 0;
	const landing = landingFolds(snap, applying);
	for (const p of [...proposals].sort((a, b) => a.end - a.start - (b.end - b.start))) {
		const leaves = snap.view.transcript.slice(p.start, p.end);
		const id = foldId(leaves);
		if (snap.state.folds.has(id) || snap.state.pendingMarks.has(id) || ids.includes(id)) continue;
		const rules = p.rung === "rescue" ? { ...snap, freshUnit: snap.units.length } : snap;
		if (spanProblem(rules, p.start, p.end)) continue;
		const leafIds = leaves.map((l) => l.id);
		if (!landing.fits({ id, leafIds })) continue;
		landing.add({ id, leafIds });
		const topUp = epoch && (p.rung === "tools" || p.rung === "chapter");
		folds.push({ id, start: p.start, end: p.end, kind: KIND_OF_RUNG[p.rung], topUp, modelBrief: modelBrief(p) });
		ids.push(id);
		freed += p.freedTokens;
	}
	return { folds, ids, freedTokens: freed };
}
