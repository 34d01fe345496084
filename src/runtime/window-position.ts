// Where a commit first changes the window, counted as the window observer counts it: the number of
// conversation messages (system messages not counted) the window showed before the commit's first
// edited target. The window is the transcript in order, pi-fold's receipts at their places, and
// every entry whose edit in force is not an omission. A request after the commit that diverges from
// the one before it earlier than this position is something the commit does not explain
// (src/projection window.ts). Pure over the branch view as it stood before the commit.

import type { BranchView } from "../policy/index.ts";

/** Messages the window shows before the first of `targets`, or null when no target is on the branch. */
export function messagesBeforeFirst(view: BranchView, targets: Iterable<string>): number | null {
	const wanted = new Set(targets);
	if (wanted.size === 0) return null;
	const receipts = view.receipts ?? [];
	let r = 0;
	let shown = 0;
	const visit = (id: string): boolean => {
		if (wanted.has(id)) return true;
		if (view.inForce.get(id) !== null) shown++;
		return false;
	};
	for (let i = 0; i <= view.transcript.length; i++) {
		for (; r < receipts.length && (receipts[r] as { before: number }).before <= i; r++)
			if (visit((receipts[r] as { id: string }).id)) return shown;
		const entry = view.transcript[i];
		if (entry && visit(entry.id)) return shown;
	}
	return null;
}
