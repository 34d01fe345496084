// What the gate of one boundary reads (commit-plan.ts builds it): the snapshot of the branch, the
// same with the budget in estimated tokens (what the policies read), the estimated size of the next
// request, whether automatic folding is paused, who the commit is likely for, and where the
// decisions already recorded first change the window. That last one is found without reading the
// fold store: the edits the state implies, each restore taken as the entry's own content, against
// the edits in force (the runtime's edit plan reads the verified sources once, when it carries the
// plan out). Pure over the snapshot.

import { registerMemo } from "../common/memo-slots.ts";
import type { FoldRecord } from "../lattice/index.ts";
import type { ResolvedOptions } from "../options/index.ts";
import { editsToCommit, impliedEdits, type PlaceholderNames, renderPlaceholder } from "../projection/index.ts";
import type { Actor } from "../state/index.ts";
import type { HostFacts, MeterReading } from "./calibration.ts";
import { shownTokens, windowTokens } from "./ladder-input.ts";
import { briefContent, managedTargets } from "./managed.ts";
import type { Snapshot } from "./snapshot.ts";

/** The estimated size of the next request and where the estimate came from. */
export interface Occupancy {
	readonly tokens: number;
	readonly source: string;
	/** Of `tokens`, the system prompt's (always the request's first, cached bytes). */
	readonly systemTokens?: number;
}

/** What the gate of one boundary reads. */
export interface BoundaryInput {
	readonly host: HostFacts;
	readonly options: ResolvedOptions;
	readonly meter: MeterReading;
	/** The branch now, with the provider's serving budget. */
	readonly snap: Snapshot;
	/** The same with the budget in estimated tokens (the calibration applied): what the policies read. */
	readonly scaled: Snapshot;
	readonly occupancy: Occupancy;
	/** Automatic folding paused (a refused record): only explicit decisions commit. */
	readonly paused: boolean;
	/** Who a commit of decisions is attributed to when no mark says otherwise. */
	readonly hint: Actor;
	/** Where the boundary is, in words ("end of a turn"). */
	readonly at: string;
	/** Transcript index of the first edit the recorded decisions imply (an expand, a rebrief, an immediate fold), or null. */
	readonly pendingFrom: number | null;
	/** Results of the newest batch this boundary shows as excerpts (excerpt-plan.ts): their commit is forced. */
	readonly excerpted: number;
	/**
	 * Estimated tokens those excerpts free: `occupancy` has them taken off already, so what the
	 * pending decisions change (expands, and these folds) counts them once, not twice.
	 */
	readonly excerptFreedTokens: number;
}

/**
 * What the last pendingEditFrom read and found. A transcript that only grew by appending keeps its
 * lattice's folds (snapshot.ts extends the lattice), its state and its edits in force: the entries it
 * appended are raw, unmanaged and unedited, so what the state implies is the same.
 */
let lastPending: { key: readonly unknown[]; from: number | null } | null = null;
registerMemo(
	() => lastPending,
	(value) => {
		lastPending = value as typeof lastPending;
	},
);

/** Index of the first transcript entry whose edit in force differs from what the state implies, or null. */
export function pendingEditFrom(snap: Snapshot, names: PlaceholderNames): number | null {
	const { view, lattice } = snap;
	const key = [lattice.folds, snap.state, snap.known, view.managed, view.foreign, view.inForce, names];
	if (lastPending?.key.every((k, i) => k === key[i])) return lastPending.from;
	const from = pendingEditFromAnew(snap, names);
	lastPending = { key, from };
	return from;
}

function pendingEditFromAnew(snap: Snapshot, names: PlaceholderNames): number | null {
	const { view, lattice } = snap;
	const index = new Map(view.transcript.map((e, i) => [e.id, i]));
	const messages = new Map(view.transcript.map((e) => [e.id, e.message]));
	const implied = impliedEdits({
		lattice,
		expanded: snap.state.expanded,
		placeholder: (id) => {
			const fold = lattice.get(id)?.record as FoldRecord;
			return briefContent(messages.get(fold.leafIds[0] ?? ""), renderPlaceholder(fold, names)) as string;
		},
		managed: managedTargets(snap),
		original: (target) => messages.get(target)?.content,
	}).filter((edit) => !view.foreign.has(edit.targetId));
	let first: number | null = null;
	for (const edit of editsToCommit(implied, view.inForce)) {
		const at = index.get(edit.targetId);
		if (at !== undefined && (first === null || at < first)) first = at;
	}
	return first;
}

/** Whether an expand or refold was decided since the branch's last commit record. */
export function expandSinceCommit(snap: Snapshot): boolean {
	for (let i = snap.view.records.length - 1; i >= 0; i--) {
		const kind = (snap.view.records[i]?.data as { kind?: unknown } | null)?.kind;
		if (kind === "commit") return false;
		if (kind === "expand" || kind === "refold") return true;
	}
	return false;
}

/** The gate's input for the branch as `parts.snap` shows it. */
export function boundaryInput(
	parts: Omit<BoundaryInput, "pendingFrom" | "excerpted" | "excerptFreedTokens"> & {
		excerpted?: number;
		excerptFreedTokens?: number;
	},
): BoundaryInput {
	return {
		...parts,
		excerpted: parts.excerpted ?? 0,
		excerptFreedTokens: parts.excerptFreedTokens ?? 0,
		pendingFrom: pendingEditFrom(parts.snap, parts.options),
	};
}

/**
 * Estimated tokens the decisions pending since the last commit add to the window when it lands (an
 * expand adds, a fold takes away), the excerpts of this boundary left out (the occupancy has them).
 */
export function pendingGrowthOf(input: Pick<BoundaryInput, "scaled" | "excerptFreedTokens">): number {
	return windowTokens(input.scaled).total - shownTokens(input.scaled) + input.excerptFreedTokens;
}
