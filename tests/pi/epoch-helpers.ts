// Shared helpers for the scheduler, epoch and ladder tests: the decision records on the branch,
// the commits among them, and how each recorded request relates to the previous one.

import type { DecisionRecord } from "../../src/state/index.ts";
import { type Harness, type RecordedRequest, relation } from "./harness.ts";

export const PROBE_READ_ONLY = new Set(["probe"]);

/** Every pi-fold decision record on the active branch, in order. */
export function records(h: Harness): DecisionRecord[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) =>
			e.type === "custom" && e.customType === h.runtime.names.decisionEntryType ? [e.data as DecisionRecord] : [],
		);
}

export type CommitRecord = Extract<DecisionRecord, { kind: "commit" }>;

export function commits(h: Harness): CommitRecord[] {
	return records(h).filter((r): r is CommitRecord => r.kind === "commit");
}

/** Relation kinds of request i to request i-1 (index 0 is "first"). */
export function relations(h: Harness): string[] {
	return h.requests.map((r, i) => (i === 0 ? "first" : relation(h.requests[i - 1] as RecordedRequest, r).kind));
}

/** Pending mark ids on the branch now. */
export function pending(h: Harness): string[] {
	return [...h.runtime.snapshot(h.host()).state.pendingMarks.keys()];
}

/** Fold ids in force now. */
export function folded(h: Harness): string[] {
	return [...h.runtime.snapshot(h.host()).state.folds.keys()];
}
