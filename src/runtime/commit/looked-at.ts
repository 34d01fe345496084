// What the agent chose to look at, which automatic span folds leave raw short of the hard limit:
// the units inside an expanded fold, and the peek batches of one. Pure over the snapshot.

import { peekedFolds, type Snapshot } from "../../policy/index.ts";
import type { Unit } from "../../transcript/index.ts";

/** Whether `unit` lies in an expanded fold, or is a peek batch of one. */
export function lookedAt(snap: Snapshot, unit: Unit, toolName: string): boolean {
	for (const id of snap.state.expanded) {
		const fold = snap.lattice.get(id);
		if (fold && fold.start < unit.end && unit.start < fold.end) return true;
	}
	const peeked = peekedFolds(unit, snap.view.transcript, toolName);
	return peeked?.some((id) => snap.state.expanded.has(id)) ?? false;
}
