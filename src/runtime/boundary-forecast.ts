// The forecast of a boundary (`FoldRuntime.forecast`): will the boundary about to come commit? A host
// that pays for every boundary it handles (Pi previews the whole branch for each `turn_end` an
// extension handles; src/pi turn-end-forecast.ts) asks first and skips a boundary that cannot
// commit. The forecast is the boundary's own decision (src/policy `decideCommit`), made before the
// host has appended the turn's last messages (`pending`, still in hand) and without the host's
// preview. First the decision on the branch as the host holds it, which keeps the decision core's
// memos on the real branch (what the next boundary extends); then, inside `keepingMemos` (src/common
// memo-slots.ts), the decision on the branch with `pending` at its end, whose memos and in-place
// extensions are taken back when it ends. Pure over what the runtime hands in.

import { keepingMemos } from "../common/index.ts";
import { buildSnapshot, type CommitPlan, type Snapshot } from "../policy/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import { withPending } from "./branch-view.ts";

/** The plan the boundary will make on `real` once `pending` is appended; `decide` is the runtime's decision. */
export function forecastPlan(
	real: Snapshot,
	pending: readonly TranscriptMessage[],
	decide: (snap: Snapshot) => CommitPlan,
): CommitPlan {
	decide(real);
	return keepingMemos(() =>
		decide(buildSnapshot(withPending(real.view, pending), real.state, real.known, real.budget)),
	);
}

/** Whether a plan does anything at its boundary: a commit, an excerpt, an unmark. */
export function planActs(plan: CommitPlan): boolean {
	return plan.commit !== null || plan.unmarks.length > 0 || plan.excerpts.folds.length > 0;
}
