// The automatic ladder's rungs, oldest first: completed read-only tool batches, structurally closed
// chapters (absorbing only the tool folds inside their own span), and consolidation of adjacent
// visible folds past MAX_VISIBLE_FOLDS or CONSOLIDATE_OCCUPANCY, two at a time
// (CONSOLIDATE_MIN_FOLDS) and of equal consolidation rank where it can, so the fold tree stays
// logarithmic. A rung proposes; the scheduler decides when anything lands. The fresh tail, the
// running turn's opening message, protected entries and protected folds never fold. Pure.

import type { Lattice } from "../lattice/index.ts";
import type { Chapter, TranscriptEntry, Unit } from "../transcript/index.ts";
import { CONSOLIDATE_OCCUPANCY, MAX_VISIBLE_FOLDS } from "./constants.ts";
import { nestsCleanly, topFoldEnd } from "./nesting.ts";

/**
 * A rung of the ladder; "span" is cost scheduling's fold of the stale conversation (src/policy
 * span-rung.ts); "rescue" is the last lossless resort before native compaction (src/policy rescue.ts).
 */
export type Rung = "tools" | "chapter" | "consolidation" | "span" | "rescue";

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
	/** Whether entries [start, end) hold something the agent chose to see and still holds (src/policy kept-raw.ts). */
	readonly keptRaw: (start: number, end: number) => boolean;
	/** First unit of the protected fresh tail (the running turn's opening unit is passed separately). */
	readonly freshStartUnit: number;
	/** Unit index of the user message that opened the running turn (-1 if none). */
	readonly runningTurnUnit: number;
	/** Whether a tool batch is foldable by the tool rung (read-only tools; peek batches when enabled). */
	readonly toolFoldable: (unit: Unit) => boolean;
	/** Estimated tokens entries [start, end) occupy in the window now (collapsed folds count their placeholder). */
	readonly visibleTokens: (start: number, end: number) => number;
	/** Estimated tokens the placeholder of a new fold over [start, end), `spanTokens` now, occupies (ladder-input.ts placeholderEstimate). */
	readonly placeholderTokens: (start: number, end: number, spanTokens: number) => number;
	/** Occupancy of the serving budget (0..). */
	readonly occupancy: number;
}

/**
 * Protected evidence, or what the agent chose to see: entries an expand put back in view (until it
 * refolds them: folding them again would undo the expand at once) and its recent peeks and searches.
 */
function protectedIn(input: LadderInput, start: number, end: number): boolean {
	for (let i = start; i < end; i++)
		if (input.protectedEntries.has((input.entries[i] as TranscriptEntry).id)) return true;
	for (const id of input.protectedFolds) {
		const fold = input.lattice.get(id);
		if (fold && fold.start < end && start < fold.end) return true;
	}
	return input.keptRaw(start, end);
}

function claimed(input: LadderInput, start: number, end: number): boolean {
	return input.pendingRanges.some((r) => r.start < end && start < r.end);
}

function proposal(input: LadderInput, rung: Rung, start: number, end: number): Proposal {
	const visible = input.visibleTokens(start, end);
	return { rung, start, end, freedTokens: Math.max(0, visible - input.placeholderTokens(start, end, visible)) };
}

/** Tool rung: completed foldable tool batches outside the fresh tail, oldest first. */
export function toolProposals(input: LadderInput): Proposal[] {
	const out: Proposal[] = [];
	for (let u = 0; u < input.units.length; u++) {
		const unit = input.units[u] as Unit;
		if (unit.index >= input.freshStartUnit) break;
		// A top-level fold holding (or equal to) this unit: neither it nor any unit that starts inside
		// that fold nests cleanly, so the walk goes on after the fold (folded history costs its folds).
		const foldEnd = topFoldEnd(input.lattice, unit.start);
		if (foldEnd !== undefined && foldEnd >= unit.end) {
			u = firstUnitFrom(input.units, foldEnd, u + 1) - 1;
			continue;
		}
		if (!input.toolFoldable(unit) || !unit.complete) continue;
		if (protectedIn(input, unit.start, unit.end) || claimed(input, unit.start, unit.end)) continue;
		// A result shown as an excerpt nests inside its own batch's fold.
		if (!nestsCleanly(input.lattice, unit.start, unit.end, (kind) => kind === "result")) continue;
		const p = proposal(input, "tools", unit.start, unit.end);
		if (p.freedTokens > 0) out.push(p);
	}
	return out;
}

/** The first unit at or after `from` whose first entry is at `entryIndex` or later (units in order). */
function firstUnitFrom(units: readonly Unit[], entryIndex: number, from: number): number {
	let lo = from;
	let hi = units.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if ((units[mid] as Unit).start < entryIndex) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** The unit holding entry `index` (units in order, each over its own entries), or undefined. */
function unitAt(units: readonly Unit[], index: number): Unit | undefined {
	const next = firstUnitFrom(units, index + 1, 0);
	const unit = units[next - 1];
	return unit && unit.start <= index && index < unit.end ? unit : undefined;
}

/**
 * Chapter rung: closed chapters outside the fresh tail, absorbing only tool folds inside them; none
 * holding a summary Pi inserted (no fold may, so the commit would drop it). The user message that
 * opened a chapter stays raw: the fold holds the work that answered it.
 */
export function chapterProposals(input: LadderInput): Proposal[] {
	const out: Proposal[] = [];
	for (const chapter of input.chapters) {
		if (!chapter.closed || chapter.endUnit > input.freshStartUnit) continue;
		if (input.runningTurnUnit >= chapter.startUnit && input.runningTurnUnit < chapter.endUnit) continue;
		// After a compaction the first chapter opens with Pi's summary, which no fold may include.
		if (input.units.slice(chapter.startUnit, chapter.endUnit).some((u) => u.kind === "summary")) continue;
		// The user's own words stay raw: the chapter's fold starts after the message that opened it.
		let first = chapter.startUnit;
		while (first < chapter.endUnit && (input.units[first] as Unit).kind === "user") first++;
		if (first >= chapter.endUnit) continue;
		const start = (input.units[first] as Unit).start;
		const end = (input.units[chapter.endUnit - 1] as Unit).end;
		if (protectedIn(input, start, end) || claimed(input, start, end)) continue;
		if (!nestsCleanly(input.lattice, start, end, (kind) => kind === "tools" || kind === "result")) continue;
		const p = proposal(input, "chapter", start, end);
		if (p.freedTokens > 0) out.push(p);
	}
	return out;
}

/**
 * A fold's consolidation rank: 0 for any fold that is not a consolidation, else one more than the
 * highest rank among the folds directly inside it. Merging only equal ranks (a binary counter) keeps
 * a rank-r consolidation over at least 2^r folds of rank 0, so nesting depth grows with log2 of the
 * folds, not with their number.
 */
export function consolidationRank(lattice: Lattice, id: string, memo = new Map<string, number>()): number {
	const known = memo.get(id);
	if (known !== undefined) return known;
	const fold = lattice.get(id);
	let rank = 0;
	if (fold?.record.kind === "consolidation")
		for (const child of fold.children)
			if (child.type === "fold") rank = Math.max(rank, 1 + consolidationRank(lattice, child.id, memo));
	memo.set(id, rank);
	return rank;
}

type Visible = { readonly id: string; readonly start: number; readonly end: number; readonly rank: number };

/**
 * Runs of adjacent eligible visible folds, oldest first: no raw entry between them, or (`bridgeUser`,
 * under pressure) only the raw user messages that opened chapters, which the merge then holds.
 */
function consolidationRuns(
	input: LadderInput,
	visible: ReturnType<Lattice["visible"]>,
	bridgeUser: boolean,
): Visible[][] {
	const unitOf = (entryIndex: number) => unitAt(input.units, entryIndex)?.index ?? 0;
	// Only folds of whole units merge: an excerpt stands for one result inside its batch, and a fold of
	// two excerpts would show one result for two calls.
	const startsUnit = (index: number) => unitAt(input.units, index)?.start === index;
	const endsUnit = (index: number) => unitAt(input.units, index - 1)?.end === index;
	const userEntry = (index: number) => unitAt(input.units, index)?.kind === "user" && !input.keptRaw(index, index + 1);
	const memo = new Map<string, number>();
	const runs: Visible[][] = [];
	let run: Visible[] | null = null;
	for (const item of visible) {
		// A raw user message between two folds: under pressure the run goes on over it.
		if (bridgeUser && item.type === "entry" && run && userEntry(item.index)) continue;
		// Not a fold inside one the agent expanded: it asked to see these briefs.
		const eligible =
			item.type === "fold" &&
			startsUnit(item.start) &&
			endsUnit(item.end) &&
			!input.protectedFolds.has(item.id) &&
			unitOf(item.end - 1) < input.freshStartUnit &&
			!input.keptRaw(item.start, item.end);
		if (item.type === "fold" && eligible) {
			const v = {
				id: item.id,
				start: item.start,
				end: item.end,
				rank: consolidationRank(input.lattice, item.id, memo),
			};
			const last = run?.at(-1);
			const gapIsUser = (from: number, to: number) => {
				for (let i = from; i < to; i++) if (!userEntry(i)) return false;
				return true;
			};
			if (run && last && (last.end === item.start || (bridgeUser && gapIsUser(last.end, item.start)))) run.push(v);
			else {
				run = [v];
				runs.push(run);
			}
		} else run = null;
	}
	return runs;
}

/**
 * Adjacent pairs of equal rank to merge, as a binary counter carries: the lowest rank first, then
 * the oldest. Folds of different ranks never merge: a large consolidation taking one small fold at
 * a time is how a chain (depth growing with the session) forms. Pairs never share a fold. At most
 * `want` pairs.
 */
function mergePairs(runs: readonly Visible[][], want: number): [Visible, Visible][] {
	const pairs: [Visible, Visible][] = [];
	for (const run of runs)
		for (let i = 0; i + 1 < run.length; i++)
			if ((run[i] as Visible).rank === (run[i + 1] as Visible).rank)
				pairs.push([run[i] as Visible, run[i + 1] as Visible]);
	pairs.sort((x, y) => x[0].rank - y[0].rank || x[0].start - y[0].start);
	const used = new Set<string>();
	const out: [Visible, Visible][] = [];
	for (const [a, b] of pairs) {
		if (out.length >= want) break;
		if (used.has(a.id) || used.has(b.id)) continue;
		used.add(a.id);
		used.add(b.id);
		out.push([a, b]);
	}
	return out.sort((x, y) => x[0].start - y[0].start);
}

/**
 * Consolidation rung: past MAX_VISIBLE_FOLDS visible collapsed folds, up to as many merges of two
 * adjacent visible folds of equal rank (no raw entry between them) as bring the count back under
 * it; at CONSOLIDATE_OCCUPANCY, every such pair, and pairs with only raw user messages between them
 * too (the merge holds them, and its brief quotes them verbatim). Pairs are chosen as a binary counter carries
 * (mergePairs), so the fold tree's depth stays logarithmic in the number of folds; where no equal
 * pair exists the count stays over the limit until new folds make one.
 */
export function consolidationProposals(input: LadderInput): Proposal[] {
	const visible = input.lattice.visible(input.expanded);
	const count = visible.filter((v) => v.type === "fold").length;
	const overCount = count > MAX_VISIBLE_FOLDS;
	const pressure = input.occupancy >= CONSOLIDATE_OCCUPANCY;
	if (!overCount && !pressure) return [];
	const needed = Math.max(0, count - MAX_VISIBLE_FOLDS);
	return mergePairs(consolidationRuns(input, visible, pressure), pressure ? Number.POSITIVE_INFINITY : needed)
		.filter(([a, b]) => !claimed(input, a.start, b.end))
		.map(([a, b]) => proposal(input, "consolidation", a.start, b.end));
}
