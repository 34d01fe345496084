// The structural rules every fold obeys, agent-made or automatic: which entries may fold (not the
// fresh tail, not the running turn's opening message, no incomplete tool batch, nothing protected,
// no summary Pi inserted, a first entry that can carry a brief: not a result whose call is gone), which may be MARKED under epoch
// scheduling (the same, except that a mark may sit in the fresh tail and wait), how an id the agent
// names resolves (entry, fold, or its own tool call id), and what kind a span is. Pure.

import type { FoldKind } from "../lattice/index.ts";
import { type TranscriptEntry, toChapters } from "../transcript/index.ts";
import { protectedByRecency, type Snapshot } from "./snapshot.ts";

/** Roles whose content a `context_edit` replacement swaps (the host keeps others as they are). */
export const EDITABLE_ROLES: ReadonlySet<string> = new Set(["user", "assistant", "toolResult", "custom"]);

/** Summaries the host inserts (compaction, branch summary): not editable, so never inside a fold. */
const SUMMARY_ROLES: ReadonlySet<string> = new Set(["compactionSummary", "branchSummary"]);

/** The rule about protections and summaries for entries [start, end), or null. */
function contentProblem(snap: Snapshot, start: number, end: number): string | null {
	const { transcript } = snap.view;
	for (let i = start; i < end; i++) {
		const entry = transcript[i] as TranscriptEntry;
		if (snap.state.protectedEntries.has(entry.id)) return `entry ${entry.id} is protected (unprotect it first)`;
		if (SUMMARY_ROLES.has(entry.message.role))
			return `entry ${entry.id} is a ${entry.message.role} Pi inserted, which a fold cannot include`;
	}
	for (const fold of snap.lattice.folds.values()) {
		if (fold.start >= start && fold.end <= end && snap.state.protectedFolds.has(fold.record.id))
			return `fold ${fold.record.id} is protected and would be absorbed (unprotect it first)`;
	}
	const first = transcript[start] as TranscriptEntry;
	if (!EDITABLE_ROLES.has(first.message.role))
		return `entry ${first.id} is a ${first.message.role} message, which cannot carry a brief; start the span after it`;
	// A result whose call Pi's compaction summarized: a brief there would be a result with no call.
	if (snap.units.find((u) => u.start <= start && start < u.end)?.kind === "orphan")
		return `entry ${first.id} is a tool result whose call is no longer in the context (Pi's compaction summarized it), so it cannot carry a brief; start the span after it`;
	return null;
}

/** Why the entries [start, end) may not fold, naming the entry; null when they may. */
export function spanProblem(snap: Snapshot, start: number, end: number): string | null {
	const { transcript } = snap.view;
	for (let i = start; i < end; i++) {
		const why = protectedByRecency(snap, i);
		if (why) return `entry ${(transcript[i] as TranscriptEntry).id} ${why}`;
	}
	for (const unit of snap.units) {
		if (unit.end <= start || unit.start >= end) continue;
		if (unit.kind === "toolBatch" && !unit.complete)
			return `entry ${unit.entryIds[0]} starts a tool batch whose results are not all in yet (incomplete batch)`;
	}
	return contentProblem(snap, start, end);
}

/**
 * Why entries [start, end) may not be MARKED (epoch scheduling): every rule of `spanProblem` except
 * the fresh tail, since a mark inside it waits and commits once it has aged out. The running turn's
 * opening message still refuses.
 */
export function markProblem(snap: Snapshot, start: number, end: number): string | null {
	const problem = spanProblem(snap, start, end);
	if (!problem || !/ is in the fresh tail /.test(problem)) return problem;
	for (let i = start; i < end; i++) {
		const unit = snap.units.find((u) => u.start <= i && i < u.end);
		if (unit?.index === snap.runningUnit)
			return `entry ${(snap.view.transcript[i] as TranscriptEntry).id} is the user message that opened the running turn`;
	}
	return spanProblem({ ...snap, freshUnit: snap.units.length, runningUnit: -1 }, start, end);
}

function inside(snap: Snapshot, foldId: string, start: number, end: number): boolean {
	const fold = snap.lattice.get(foldId);
	return fold !== undefined && fold.start >= start && fold.end <= end;
}

/** The kind of a fold over [start, end): consolidation, a tool batch, a closed chapter, or a span. */
export function spanKind(snap: Snapshot, start: number, end: number): FoldKind {
	const tops = [...snap.lattice.folds.values()].filter(
		(f) => f.start >= start && f.end <= end && !(f.parent && inside(snap, f.parent, start, end)),
	);
	tops.sort((a, b) => a.start - b.start);
	let at = start;
	const tiled = tops.every((f) => {
		const ok = f.start === at;
		at = f.end;
		return ok;
	});
	if (tops.length >= 2 && tiled && at === end) return "consolidation";
	const units = snap.units.filter((u) => u.start >= start && u.end <= end);
	if (units.length === 1 && units[0]?.kind === "toolBatch") return "tools";
	const chapters = toChapters(snap.units).filter((c) => c.closed);
	const startsChapter = chapters.some((c) => snap.units[c.startUnit]?.start === start);
	const endsChapter = chapters.some((c) => (snap.units[c.endUnit - 1]?.end ?? -1) === end);
	return startsChapter && endsChapter ? "chapter" : "span";
}

/**
 * An id as the agent names it: an entry id, a fold id, or a tool call id (which names the entry of
 * its result; the span then snaps to the whole tool batch). The model sees its own call ids; Pi
 * stores an OpenAI Responses call as `call_id|item_id` while the model sees only `call_id`, so
 * either half of such an id resolves too.
 */
export function resolveId(snap: Snapshot, id: string): string {
	if (snap.lattice.position.has(id) || snap.lattice.get(id)) return id;
	for (const entry of snap.view.transcript) {
		const callId = entry.message.role === "toolResult" ? entry.message.toolCallId : undefined;
		if (typeof callId !== "string") continue;
		if (callId === id || (callId.includes("|") && callId.split("|").includes(id))) return entry.id;
	}
	return id;
}
