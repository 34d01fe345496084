// What the agent chose to see stays as it saw it: the entries an expand restored (until the agent
// refolds the fold), and the results of its context-tool reads (peek, search) for SHOWN_READ_TURNS of
// its turns after they landed (a peek batch of a fold it then expanded, until it refolds it). No
// automatic rung folds these: not the tool rung, the chapter rung, the span rung, a consolidation or
// a top-up; only a commit the budget forces may take them back (an expanded fold is refolded, oldest
// first, before the rescue folds the work in hand), and it says so by name. Pure over the snapshot
// (it keeps its last answer, and on a transcript that grew by appending reads only the newest units).

import { registerMemo } from "../common/memo-slots.ts";
import { extendsByAppending, type TranscriptEntry, type Unit } from "../transcript/index.ts";
import { SHOWN_READ_TURNS } from "./constants.ts";
import type { Snapshot } from "./snapshot.ts";

/** Context-tool actions that show the agent folded content. */
const SHOWING_ACTIONS: ReadonlySet<string> = new Set(["peek", "search"]);

/** The context-tool calls of a completed batch that showed folded content (peek, search), or null when any call did more. */
function showingCalls(unit: Unit, entries: readonly TranscriptEntry[], toolName: string): { id?: string }[] | null {
	if (unit.kind !== "toolBatch" || !unit.complete || unit.toolNames.length === 0) return null;
	if (!unit.toolNames.every((n) => n === toolName)) return null;
	const content = entries[unit.start]?.message.content;
	if (!Array.isArray(content)) return null;
	const calls: { id?: string }[] = [];
	for (const block of content as { type?: string; arguments?: { action?: unknown; id?: unknown } }[]) {
		if (block.type !== "toolCall") continue;
		if (!SHOWING_ACTIONS.has(String(block.arguments?.action))) return null;
		calls.push(typeof block.arguments?.id === "string" ? { id: block.arguments.id } : {});
	}
	return calls.length > 0 ? calls : null;
}

/** The expanded folds whose span overlaps entries [start, end). */
export function expandedOver(snap: Snapshot, start: number, end: number): string[] {
	const out: string[] = [];
	for (const id of snap.state.expanded) {
		const fold = snap.lattice.get(id);
		if (fold && fold.start < end && start < fold.end) out.push(id);
	}
	return out;
}

/**
 * The last keptRawUnits computed, with what it read. A unit's answer depends on its own entries, the
 * expanded folds' ranges and, for a peek or search batch, whether SHOWN_READ_TURNS turns came after
 * it; once they have, more appended units cannot change it. So on a transcript that only grew by
 * appending, under the same expanded folds and lattice folds, the units before `settled` (each with
 * that many turns after it then, and now) keep their answers, and only the newest are read again.
 */
let lastKept: {
	transcript: readonly TranscriptEntry[];
	units: readonly Unit[];
	expanded: ReadonlySet<string>;
	folds: Snapshot["lattice"]["folds"];
	toolName: string;
	kept: boolean[];
	/** Units [0, settled) had at least SHOWN_READ_TURNS turns after them. */
	settled: number;
} | null = null;
registerMemo(
	() => lastKept,
	(value) => {
		lastKept = value as typeof lastKept;
	},
);

/**
 * Per unit of `snap`, whether it is something the agent chose to see and still holds: inside an
 * expanded fold, a batch of peeks or searches from its last SHOWN_READ_TURNS turns, or a peek batch
 * of a fold it expanded. One pass over the units (the turns after each counted from the end), or
 * over the newest only when the last answer still holds for the older ones (`lastKept`).
 */
export function keptRawUnits(snap: Snapshot, toolName: string): boolean[] {
	const { units } = snap;
	const { transcript } = snap.view;
	const last = lastKept;
	const same =
		last !== null &&
		last.expanded === snap.state.expanded &&
		last.folds === snap.lattice.folds &&
		last.toolName === toolName &&
		extendsByAppending(last.transcript, transcript);
	if (same && last.units === units) return last.kept;
	// Units before the last one of the old split are the same units now (only the last is split again).
	const reusable = same ? Math.min(last.settled, last.units.length - 1) : 0;
	const kept = new Array<boolean>(units.length).fill(false);
	let turnsAfter = 0;
	let settled = 0;
	let u = units.length - 1;
	for (; u >= 0; u--) {
		if (turnsAfter >= SHOWN_READ_TURNS && settled === 0) settled = u + 1;
		if (u < reusable && turnsAfter >= SHOWN_READ_TURNS) break;
		const unit = units[u] as Unit;
		if (expandedOver(snap, unit.start, unit.end).length > 0) kept[u] = true;
		else {
			const calls = showingCalls(unit, transcript, toolName);
			if (calls)
				kept[u] =
					turnsAfter < SHOWN_READ_TURNS || calls.some((c) => c.id !== undefined && snap.state.expanded.has(c.id));
		}
		if (unit.kind === "toolBatch" || unit.kind === "assistant") turnsAfter++;
	}
	for (let i = 0; i <= u; i++) kept[i] = (last as NonNullable<typeof last>).kept[i] as boolean;
	lastKept = { transcript, units, expanded: snap.state.expanded, folds: snap.lattice.folds, toolName, kept, settled };
	return kept;
}

/** A range check over `kept` (keptRawUnits): whether any entry of [start, end) lies in a kept unit, in O(1). */
export function keptRawRange(snap: Snapshot, kept: readonly boolean[]): (start: number, end: number) => boolean {
	const prefix = new Array<number>(snap.view.transcript.length + 1).fill(0);
	for (const unit of snap.units) for (let i = unit.start; i < unit.end; i++) prefix[i + 1] = kept[unit.index] ? 1 : 0;
	for (let i = 1; i < prefix.length; i++) prefix[i] = (prefix[i] as number) + (prefix[i - 1] as number);
	return (start, end) =>
		(prefix[Math.min(end, prefix.length - 1)] as number) - (prefix[Math.max(0, start)] as number) > 0;
}

/**
 * The expanded folds a commit the budget forces takes back first, oldest first, outermost only
 * (refolding one collapses what it holds): until they free `need` estimated tokens, or none is left.
 * Each frees what its restored entries show now (`tokens.range`), less its placeholder (`placeholderTokens`).
 */
export function expandedRefolds(
	snap: Snapshot,
	tokens: { range(start: number, end: number): number },
	need: number,
	placeholderTokens: number,
): { id: string; freed: number }[] {
	const outer = [...snap.state.expanded]
		.map((id) => snap.lattice.get(id))
		.filter(
			(f): f is NonNullable<typeof f> => f !== undefined && !(f.parent !== null && snap.state.expanded.has(f.parent)),
		)
		.sort((a, b) => a.start - b.start);
	const out: { id: string; freed: number }[] = [];
	let freed = 0;
	for (const fold of outer) {
		if (freed >= need) break;
		const gain = Math.max(0, tokens.range(fold.start, fold.end) - placeholderTokens);
		out.push({ id: fold.record.id, freed: gain });
		freed += gain;
	}
	return out;
}
