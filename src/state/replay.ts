// Rebuilds pi-fold's state from the decision records on the active branch, in order. Each record
// is validated (schema, own digest, chain link); a record that fails is refused by name, skipped,
// and recorded so automatic folding pauses with a visible reason. Pure.

import type { FoldRecord } from "../lattice/index.ts";
import { recordDigest } from "./chain.ts";
import { type Actor, type DecisionRecord, parseDecisionRecord } from "./records.ts";

/** A pending mark (epoch scheduling): a fold decided but not yet applied to the window. */
export interface PendingMark {
	readonly fold: FoldRecord;
	readonly actor: Actor;
	/** Marked by a commit's top-up rather than by a decision of the agent or a rung. */
	readonly topUp: boolean;
}

export interface Refusal {
	readonly entryId: string;
	readonly reason: string;
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
	};
}

/** Applies one already-validated record to a mutable state. */
function apply(s: Mutable, r: DecisionRecord): void {
	switch (r.kind) {
		case "fold":
			s.folds.set(r.fold.id, r.fold);
			s.pendingMarks.delete(r.fold.id);
			s.expanded.delete(r.fold.id);
			return;
		case "mark":
			if (!s.folds.has(r.fold.id)) s.pendingMarks.set(r.fold.id, { fold: r.fold, actor: r.actor, topUp: r.topUp });
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
			const updated = { ...fold, brief: r.brief, briefSource: r.briefSource };
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
			if (r.op === "merge" && r.fold) s.folds.set(r.fold.id, r.fold);
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
	}
}

function describe(error: unknown): string {
	if (
		error &&
		typeof error === "object" &&
		"issues" in error &&
		Array.isArray((error as { issues: unknown[] }).issues)
	) {
		const issues = (error as { issues: { path: PropertyKey[]; message: string }[] }).issues;
		return issues.map((i) => `${i.path.map(String).join(".") || "(record)"}: ${i.message}`).join("; ");
	}
	return error instanceof Error ? error.message : String(error);
}

/**
 * Replays `records` (custom-entry data in branch order, with their entry ids) onto `base`.
 * A record is accepted when its schema, its own digest and its link to the previous record hold;
 * otherwise it is refused by entry id and skipped (the chain may continue through the digest it
 * claims, so one damaged record does not discard every later decision).
 */
export function replay(
	records: readonly { entryId: string; data: unknown }[],
	base: FoldState = emptyState(),
): FoldState {
	const s = thaw(base);
	let claimed: string | null = null;
	for (const { entryId, data } of records) {
		let record: DecisionRecord;
		try {
			record = parseDecisionRecord(data);
		} catch (error) {
			s.refusals.push({ entryId, reason: `malformed decision record: ${describe(error)}` });
			const digest = (data as { digest?: unknown } | null)?.digest;
			claimed = typeof digest === "string" ? digest : null;
			continue;
		}
		const expected = recordDigest(record);
		if (expected !== record.digest) {
			s.refusals.push({
				entryId,
				reason: `${record.kind} record was altered: its digest is ${record.digest.slice(0, 12)}…, its content hashes to ${expected.slice(0, 12)}…`,
			});
			claimed = record.digest;
			continue;
		}
		if (record.prev !== s.lastDigest && (claimed === null || record.prev !== claimed)) {
			s.refusals.push({
				entryId,
				reason: `${record.kind} record is out of order: it follows ${record.prev?.slice(0, 12) ?? "nothing"}…, the branch's last record is ${s.lastDigest?.slice(0, 12) ?? "none"}`,
			});
			continue;
		}
		apply(s, record);
		s.lastDigest = record.digest;
		claimed = null;
	}
	return s;
}
