// The automatic ladder's rungs, oldest first: completed read-only tool batches, structurally closed
// chapters (absorbing only the tool folds inside their own span), and consolidation of adjacent
// visible folds past MAX_VISIBLE_FOLDS or CONSOLIDATE_OCCUPANCY. A rung proposes; the scheduler
// decides when anything lands. The fresh tail, the running turn's opening message, protected
// entries and protected folds never fold. Pure.

import type { Lattice } from "../lattice/index.ts";
import type { Chapter, TranscriptEntry, Unit } from "../transcript/index.ts";
import { CONSOLIDATE_MIN_FOLDS, CONSOLIDATE_OCCUPANCY, MAX_VISIBLE_FOLDS } from "./constants.ts";

/** A rung of the ladder; "rescue" is the last lossless resort before native compaction (src/policy rescue.ts). */
export type Rung = "tools" | "chapter" | "consolidation" | "rescue";

/** A fold a rung proposes: an entry range [start, end) and the tokens it would free. */
export interface Proposal {
	readonly rung: Rung;
	readonly start: number;
	readonly end: number;
	readonly freedTokens: number;
}

export interface LadderInput {
	readonly entries: readonly TranscriptEntry[];
	readonly units: readonly Unit[];
	readonly chapters: readonly Chapter[];
	/** Folds in force. */
	readonly lattice: Lattice;
	readonly expanded: ReadonlySet<string>;
	/** Entry ranges already claimed by pending marks (never proposed twice). */
	readonly pendingRanges: readonly { readonly start: number; readonly end: number }[];
	readonly protectedEntries: ReadonlySet<string>;
	readonly protectedFolds: ReadonlySet<string>;
	/** First unit of the protected fresh tail (the running turn's opening unit is passed separately). */
	readonly freshStartUnit: number;
	/** Unit index of the user message that opened the running turn (-1 if none). */
	readonly runningTurnUnit: number;
	/** Whether a tool batch is foldable by the tool rung (read-only tools; peek batches when enabled). */
	readonly toolFoldable: (unit: Unit) => boolean;
	/** Estimated tokens entries [start, end) occupy in the window now (collapsed folds count their placeholder). */
	readonly visibleTokens: (start: number, end: number) => number;
	/** Estimated tokens a new fold's placeholder occupies. */
	readonly placeholderTokens: number;
	/** Occupancy of the serving budget (0..). */
	readonly occupancy: number;
}

function protectedIn(input: LadderInput, start: number, end: number): boolean {
	for (let i = start; i < end; i++)
		if (input.protectedEntries.has((input.entries[i] as TranscriptEntry).id)) return true;
	for (const id of input.protectedFolds) {
		const fold = input.lattice.get(id);
		if (fold && fold.start < end && start < fold.end) return true;
	}
	return false;
}

function claimed(input: LadderInput, start: number, end: number): boolean {
	return input.pendingRanges.some((r) => r.start < end && start < r.end);
}

/** True when [start, end) would nest cleanly: no fold partially overlaps it and it is not already a fold. */
function nestsCleanly(lattice: Lattice, start: number, end: number, allowInside: (kind: string) => boolean): boolean {
	for (const fold of lattice.folds.values()) {
		if (fold.start === start && fold.end === end) return false;
		const overlaps = fold.start < end && start < fold.end;
		if (!overlaps) continue;
		const inside = start <= fold.start && fold.end <= end;
		if (inside && allowInside(fold.record.kind)) continue;
		return false;
	}
	return true;
}

function proposal(input: LadderInput, rung: Rung, start: number, end: number): Proposal {
	return { rung, start, end, freedTokens: Math.max(0, input.visibleTokens(start, end) - input.placeholderTokens) };
}

/** Tool rung: completed foldable tool batches outside the fresh tail, oldest first. */
export function toolProposals(input: LadderInput): Proposal[] {
	const out: Proposal[] = [];
	for (const unit of input.units) {
		if (unit.index >= input.freshStartUnit) break;
		if (!input.toolFoldable(unit) || !unit.complete) continue;
		if (protectedIn(input, unit.start, unit.end) || claimed(input, unit.start, unit.end)) continue;
		if (!nestsCleanly(input.lattice, unit.start, unit.end, () => false)) continue;
		const p = proposal(input, "tools", unit.start, unit.end);
		if (p.freedTokens > 0) out.push(p);
	}
	return out;
}

/** Chapter rung: closed chapters outside the fresh tail, absorbing only tool folds inside them. */
export function chapterProposals(input: LadderInput): Proposal[] {
	const out: Proposal[] = [];
	for (const chapter of input.chapters) {
		if (!chapter.closed || chapter.endUnit > input.freshStartUnit) continue;
		if (input.runningTurnUnit >= chapter.startUnit && input.runningTurnUnit < chapter.endUnit) continue;
		const start = (input.units[chapter.startUnit] as Unit).start;
		const end = (input.units[chapter.endUnit - 1] as Unit).end;
		if (protectedIn(input, start, end) || claimed(input, start, end)) continue;
		if (!nestsCleanly(input.lattice, start, end, (kind) => kind === "tools")) continue;
		const p = proposal(input, "chapter", start, end);
		if (p.freedTokens > 0) out.push(p);
	}
	return out;
}

/**
 * Consolidation rung: past MAX_VISIBLE_FOLDS visible collapsed folds, or at CONSOLIDATE_OCCUPANCY,
 * the oldest run of adjacent visible folds (no raw entry between them) becomes one deeper fold.
 * Past the fold-count limit the run is just long enough to come back under it.
 */
export function consolidationProposals(input: LadderInput): Proposal[] {
	const visible = input.lattice.visible(input.expanded);
	const folds = visible.filter((v) => v.type === "fold");
	const overCount = folds.length > MAX_VISIBLE_FOLDS;
	if (!overCount && input.occupancy < CONSOLIDATE_OCCUPANCY) return [];
	const unitOf = (entryIndex: number) =>
		input.units.find((u) => u.start <= entryIndex && entryIndex < u.end)?.index ?? 0;
	const runs: { start: number; end: number }[][] = [];
	let run: { start: number; end: number }[] | null = null;
	for (const item of visible) {
		const eligible =
			item.type === "fold" && !input.protectedFolds.has(item.id) && unitOf(item.end - 1) < input.freshStartUnit;
		if (item.type === "fold" && eligible) {
			if (run && (run.at(-1) as { end: number }).end === item.start) run.push(item);
			else {
				run = [item];
				runs.push(run);
			}
		} else run = null;
	}
	const out: Proposal[] = [];
	const pressure = input.occupancy >= CONSOLIDATE_OCCUPANCY;
	let excess = folds.length - MAX_VISIBLE_FOLDS;
	for (const r of runs) {
		if (!pressure && excess <= 0) break;
		const take = pressure ? r.length : Math.min(r.length, excess + 1);
		if (take < CONSOLIDATE_MIN_FOLDS) continue;
		const start = (r[0] as { start: number }).start;
		const end = (r[take - 1] as { end: number }).end;
		if (claimed(input, start, end)) continue;
		out.push(proposal(input, "consolidation", start, end));
		excess -= take - 1;
	}
	return out;
}
