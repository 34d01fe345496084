// Rebuilds pi-fold's state from the decision records on the active branch, in order. Each record
// is checked (schema, own digest, tag: record-check.ts) and linked (its `prev` is the last record's
// digest); a record that fails is refused by name, skipped, and recorded so automatic folding pauses
// with a visible reason. After a refused record the next record's link is not checked, so only the
// first altered record is named, not its untouched successors. A record that is intact but not
// signed with this agent directory's key is held (listed as a refusal marked `held`) until an adopt
// record of the human's vouches for exactly the records held; then they apply, in order. Briefs from
// records are shown with unsafe characters escaped (an older pi-fold did not refuse them). Pure.

import { boundBrief } from "../briefs/index.ts";
import { escapeUnsafe, nounFor } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";
import { type ChainKey, heldDigest } from "./chain.ts";
import { checkRecord } from "./record-check.ts";
import type { Actor, DecisionBody, DecisionRecord } from "./records.ts";

/** A pending mark (epoch scheduling): a fold decided but not yet applied to the window. */
interface PendingMark {
	readonly fold: FoldRecord;
	readonly actor: Actor;
	/** Marked by a commit's top-up rather than by a decision of the agent or a rung. */
	readonly topUp: boolean;
}

interface Refusal {
	readonly entryId: string;
	readonly reason: string;
	/** Intact but not verifiable here: an adopt record can still vouch for it. */
	readonly held?: boolean;
}

/** A record replay holds until the human adopts it. */
export interface HeldRecord {
	readonly entryId: string;
	readonly record: DecisionRecord;
}

/** Everything pi-fold knows on one branch, rebuilt from its records. */
export interface FoldState {
	/** Folds in force (applied, or awaiting the next commit in immediate mode), by id. */
	readonly folds: ReadonlyMap<string, FoldRecord>;
	readonly pendingMarks: ReadonlyMap<string, PendingMark>;
	readonly expanded: ReadonlySet<string>;
	readonly protectedEntries: ReadonlySet<string>;
	readonly protectedFolds: ReadonlySet<string>;
	/** Sequence number of the last commit (0 before the first). */
	readonly commitSeq: number;
	/** Digest of the last accepted record: the `prev` of the next one written. */
	readonly lastDigest: string | null;
	readonly refusals: readonly Refusal[];
	/** Intact records not signed with this agent directory's key, awaiting adoption, in order. */
	readonly held: readonly HeldRecord[];
}

export function emptyState(): FoldState {
	return {
		folds: new Map(),
		pendingMarks: new Map(),
		expanded: new Set(),
		protectedEntries: new Set(),
		protectedFolds: new Set(),
		commitSeq: 0,
		lastDigest: null,
		refusals: [],
		held: [],
	};
}

type Mutable = {
	folds: Map<string, FoldRecord>;
	pendingMarks: Map<string, PendingMark>;
	expanded: Set<string>;
	protectedEntries: Set<string>;
	protectedFolds: Set<string>;
	commitSeq: number;
	lastDigest: string | null;
	refusals: Refusal[];
	held: HeldRecord[];
};

function thaw(state: FoldState): Mutable {
	return {
		folds: new Map(state.folds),
		pendingMarks: new Map(state.pendingMarks),
		expanded: new Set(state.expanded),
		protectedEntries: new Set(state.protectedEntries),
		protectedFolds: new Set(state.protectedFolds),
		commitSeq: state.commitSeq,
		lastDigest: state.lastDigest,
		refusals: [...state.refusals],
		held: [...state.held],
	};
}

/** A fold record as state keeps it: its brief with unsafe characters escaped, still bounded. */
function clean(fold: FoldRecord): FoldRecord {
	const brief = escapeUnsafe(fold.brief);
	return brief === fold.brief ? fold : { ...fold, brief: boundBrief(brief) };
}

/** Applies one already-validated record to a mutable state. */
function apply(s: Mutable, r: DecisionRecord): void {
	switch (r.kind) {
		case "fold":
			s.folds.set(r.fold.id, clean(r.fold));
			s.pendingMarks.delete(r.fold.id);
			s.expanded.delete(r.fold.id);
			return;
		case "mark":
			if (!s.folds.has(r.fold.id))
				s.pendingMarks.set(r.fold.id, { fold: clean(r.fold), actor: r.actor, topUp: r.topUp });
			return;
		case "unmark":
			s.pendingMarks.delete(r.foldId);
			return;
		case "expand":
			s.expanded.add(r.foldId);
			return;
		case "refold":
			s.expanded.delete(r.foldId);
			return;
		case "protect":
		case "unprotect": {
			const add = r.kind === "protect";
			if ("entryIds" in r.target)
				for (const id of r.target.entryIds) add ? s.protectedEntries.add(id) : s.protectedEntries.delete(id);
			else add ? s.protectedFolds.add(r.target.foldId) : s.protectedFolds.delete(r.target.foldId);
			return;
		}
		case "rebrief": {
			const fold = s.folds.get(r.foldId) ?? s.pendingMarks.get(r.foldId)?.fold;
			if (!fold) return;
			const updated = clean({ ...fold, brief: r.brief, briefSource: r.briefSource });
			if (s.folds.has(r.foldId)) s.folds.set(r.foldId, updated);
			else s.pendingMarks.set(r.foldId, { ...(s.pendingMarks.get(r.foldId) as PendingMark), fold: updated });
			return;
		}
		case "reboundary":
			for (const id of r.foldIds) {
				s.folds.delete(id);
				s.expanded.delete(id);
				s.pendingMarks.delete(id);
			}
			if (r.op === "merge" && r.fold) s.folds.set(r.fold.id, clean(r.fold));
			return;
		case "commit":
			for (const id of r.applied) {
				const mark = s.pendingMarks.get(id);
				if (mark) s.folds.set(id, mark.fold);
				s.pendingMarks.delete(id);
			}
			for (const refusal of r.refused) s.pendingMarks.delete(refusal.foldId);
			s.commitSeq = r.seq;
			return;
		case "adopt":
			return;
	}
}

/**
 * `state` after `bodies`, decisions not yet chained, applied as replay applies accepted records (the
 * decision core looks ahead with it; the chain fields and refusals are not touched).
 */
export function applyDecisions(state: FoldState, bodies: readonly DecisionBody[]): FoldState {
	const s = thaw(state);
	for (const body of bodies) apply(s, body as DecisionRecord);
	return s;
}

const short = (hex: string | null) => (hex === null ? "nothing" : `${hex.slice(0, 12)}…`);

/** Applies an adopt record: the held records it vouches for, in order; or why it is refused. */
function adopt(s: Mutable, r: Extract<DecisionRecord, { kind: "adopt" }>): string | null {
	const digest = heldDigest(s.held.map((h) => h.record.digest));
	if (r.count !== s.held.length || r.held !== digest)
		return `adopt record vouches for ${r.count} held ${nounFor(r.count, "record")} (${short(r.held)}), the branch holds ${s.held.length} (${short(digest)})`;
	const ids = new Set(s.held.map((h) => h.entryId));
	for (const h of s.held) apply(s, h.record);
	s.held = [];
	s.refusals = s.refusals.filter((f) => !(f.held && ids.has(f.entryId)));
	return null;
}

/**
 * Replays `records` (custom-entry data in branch order, with their entry ids) onto `base`, trusting
 * records signed with `key` (null: none; every intact record is held). A record is accepted when
 * its schema, digest, tag and link to the previous record hold; otherwise it is refused by entry id
 * and skipped, and the record after it is not refused for its link (the first altered record is
 * the one named).
 */
export function replay(
	records: readonly { entryId: string; data: unknown }[],
	base: FoldState = emptyState(),
	key: ChainKey | null = null,
): FoldState {
	const s = thaw(base);
	let afterRefusal = false;
	for (const { entryId, data } of records) {
		const checked = checkRecord(data, key);
		if (checked.status === "refused") {
			s.refusals.push({ entryId, reason: checked.reason });
			afterRefusal = true;
			continue;
		}
		const record = checked.record;
		if (record.prev !== s.lastDigest && !afterRefusal) {
			s.refusals.push({
				entryId,
				reason: `${record.kind} record is out of order: it follows ${short(record.prev)}, the branch's last record is ${short(s.lastDigest)} (a record before it is missing or was moved)`,
			});
			afterRefusal = true;
			continue;
		}
		afterRefusal = false;
		if (checked.status === "held") {
			s.held.push({ entryId, record });
			s.refusals.push({
				entryId,
				reason: `${checked.why}; held until the human adopts it (/fold-context adopt)`,
				held: true,
			});
		} else if (record.kind === "adopt") {
			const problem = adopt(s, record);
			if (problem) {
				s.refusals.push({ entryId, reason: problem });
				afterRefusal = true;
				continue;
			}
		} else apply(s, record);
		s.lastDigest = record.digest;
	}
	return s;
}
