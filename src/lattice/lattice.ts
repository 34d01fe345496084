// The fold lattice over one transcript: validates that folds nest and never partially overlap,
// derives parent/children/depth from leaf ranges, and lists what is visible given which folds are
// expanded. Pure; the caller supplies the records and the transcript order.

import type { TranscriptEntry } from "../transcript/index.ts";
import type { FoldChild, FoldRecord } from "./fold-types.ts";
import { Positions } from "./positions.ts";

/** A fold placed on the transcript: its record and its entry range [start, end). */
export interface PlacedFold {
	readonly record: FoldRecord;
	readonly start: number;
	readonly end: number;
	readonly parent: string | null;
	readonly depth: number;
	readonly children: readonly FoldChild[];
}

/** One item of the visible structure: a raw entry, or a collapsed fold standing for its range. */
type VisibleItem =
	| { readonly type: "entry"; readonly id: string; readonly index: number }
	| { readonly type: "fold"; readonly id: string; readonly start: number; readonly end: number };

export class LatticeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "LatticeError";
	}
}

export class Lattice {
	readonly folds: ReadonlyMap<string, PlacedFold>;
	/** Top-level folds in transcript order. */
	readonly roots: readonly string[];
	/** Entry id to transcript index. */
	readonly position: ReadonlyMap<string, number>;
	private readonly entries: readonly TranscriptEntry[];

	private constructor(
		entries: readonly TranscriptEntry[],
		position: Positions,
		folds: ReadonlyMap<string, PlacedFold>,
		roots: readonly string[],
	) {
		this.entries = entries;
		this.position = position;
		this.folds = folds;
		this.roots = roots;
	}

	/**
	 * Places `records` on `entries`. A record whose leaves are not a contiguous run of the transcript,
	 * or that partially overlaps another, is refused with a LatticeError naming it.
	 */
	static build(entries: readonly TranscriptEntry[], records: Iterable<FoldRecord>): Lattice {
		return Lattice.place(entries, Positions.of(entries.map((entry) => entry.id)), records);
	}

	/**
	 * `records` placed on this lattice's transcript, as `Lattice.build` places them there, sharing
	 * this lattice's entry positions (a commit places new folds on the same transcript several times).
	 */
	rebuiltWith(records: Iterable<FoldRecord>): Lattice {
		return Lattice.place(this.entries, this.position as Positions, records);
	}

	private static place(
		entries: readonly TranscriptEntry[],
		position: Positions,
		records: Iterable<FoldRecord>,
	): Lattice {
		const all: FoldRange[] = [];
		for (const record of records) {
			const range = leafRange(position, record.leafIds);
			if (range === "off") throw new LatticeError(`fold ${record.id} names entries that are not on this branch`);
			if (typeof range === "string")
				throw new LatticeError(`fold ${record.id} is not a contiguous run of the transcript (at ${range})`);
			all.push({ record, ...range });
		}
		// Outer folds first: by start ascending, then by end descending; a repeated id is placed once.
		all.sort(byPlace);
		const seen = new Set<string>();
		const ranges = all.filter((r) => !seen.has(r.record.id) && seen.add(r.record.id));
		const shape = nestRanges(ranges);
		if ("overlap" in shape)
			throw new LatticeError(`fold ${shape.overlap} partially overlaps fold ${shape.parent}; folds must nest`);
		const rangeOf = new Map(ranges.map((r) => [r.record.id, r] as const));
		const folds = new Map<string, PlacedFold>();
		for (const range of ranges) {
			const id = range.record.id;
			const { parent, depth } = shape.placed.get(id) as { parent: string | null; depth: number };
			const childIds = shape.childFolds.get(id) ?? [];
			const children = childrenOf(
				entries,
				range,
				childIds.map((c) => rangeOf.get(c) as FoldRange),
			);
			folds.set(id, { record: range.record, start: range.start, end: range.end, parent, depth, children });
		}
		return new Lattice(entries, position, folds, shape.childFolds.get(null) ?? []);
	}

	/**
	 * This lattice over `entries`, a transcript whose first entries are this one's (the caller checks
	 * that they are: src/policy snapshot.ts, by identity) followed by entries no fold holds: the
	 * same folds at the same places, the new entries raw at top level. Costs the new entries only;
	 * null when a new entry repeats an id (build anew).
	 */
	extendedTo(entries: readonly TranscriptEntry[]): Lattice | null {
		if (entries.length < this.entries.length) return null;
		const position = (this.position as Positions).extended(entries.slice(this.entries.length).map((entry) => entry.id));
		return position ? new Lattice(entries, position, this.folds, this.roots) : null;
	}

	/**
	 * This lattice with `added` placed too, on the same transcript: what `Lattice.build` over this
	 * lattice's folds (in the order they were placed) and then `added` gives, in the order of `added`.
	 * Costs the folds' count and the entries of the folds whose children change (the new ones and
	 * those that now hold one), not the transcript: a commit places a few folds beside many. Null
	 * when `build` would refuse them, or one repeats an id (the caller builds anew and gets the
	 * refusal or the right placement).
	 */
	withAdded(added: readonly FoldRecord[]): Lattice | null {
		const fresh: FoldRange[] = [];
		const ids = new Set(this.folds.keys());
		for (const record of added) {
			if (ids.has(record.id)) return null;
			ids.add(record.id);
			const range = leafRange(this.position, record.leafIds);
			if (typeof range === "string") return null;
			fresh.push({ record, ...range });
		}
		if (fresh.length === 0) return this;
		fresh.sort(byPlace);
		// The old folds are already in placing order; an old fold comes first among equal ranges.
		const ranges: FoldRange[] = [];
		const old = [...this.folds.values()];
		for (let i = 0, j = 0; i < old.length || j < fresh.length; ) {
			const a = old[i];
			const b = fresh[j];
			if (a && (!b || byPlace(a, b) <= 0)) {
				ranges.push(a);
				i++;
			} else {
				ranges.push(b as (typeof fresh)[number]);
				j++;
			}
		}
		const shape = nestRanges(ranges);
		if ("overlap" in shape) return null;
		const rangeOf = new Map(ranges.map((r) => [r.record.id, r] as const));
		const folds = new Map<string, PlacedFold>();
		for (const range of ranges) {
			const id = range.record.id;
			const { parent, depth } = shape.placed.get(id) as { parent: string | null; depth: number };
			const childIds = shape.childFolds.get(id) ?? [];
			const before = this.folds.get(id);
			if (before && before.parent === parent && before.depth === depth && sameFoldChildren(before, childIds)) {
				folds.set(id, before);
				continue;
			}
			const children =
				before && sameFoldChildren(before, childIds)
					? before.children
					: childrenOf(
							this.entries,
							range,
							childIds.map((c) => rangeOf.get(c) as FoldRange),
						);
			folds.set(id, { record: range.record, start: range.start, end: range.end, parent, depth, children });
		}
		return new Lattice(this.entries, this.position as Positions, folds, shape.childFolds.get(null) ?? []);
	}

	/** The placed fold with this id, or undefined. */
	get(id: string): PlacedFold | undefined {
		return this.folds.get(id);
	}

	/** The innermost fold containing entry index `index`, or undefined. */
	innermostAt(index: number): PlacedFold | undefined {
		let best: PlacedFold | undefined;
		for (const fold of this.folds.values()) {
			if (fold.start <= index && index < fold.end && (!best || fold.depth > best.depth)) best = fold;
		}
		return best;
	}

	/** Ancestors of a fold, nearest first. */
	ancestors(id: string): PlacedFold[] {
		const out: PlacedFold[] = [];
		let parent = this.folds.get(id)?.parent ?? null;
		while (parent !== null) {
			const fold = this.folds.get(parent) as PlacedFold;
			out.push(fold);
			parent = fold.parent;
		}
		return out;
	}

	/** Every fold in transcript order (outer before inner), for status trees. */
	inOrder(): PlacedFold[] {
		return [...this.folds.values()].sort((a, b) => a.start - b.start || b.end - a.end);
	}

	/**
	 * The visible structure: walking the transcript, a fold is shown collapsed unless it is in
	 * `expanded`, in which case its children are shown (each by the same rule).
	 */
	visible(expanded: ReadonlySet<string>): VisibleItem[] {
		const out: VisibleItem[] = [];
		const walk = (children: readonly FoldChild[]) => {
			for (const child of children) {
				if (child.type === "entry") {
					out.push({ type: "entry", id: child.id, index: this.position.get(child.id) as number });
					continue;
				}
				const fold = this.folds.get(child.id) as PlacedFold;
				if (expanded.has(fold.record.id)) walk(fold.children);
				else out.push({ type: "fold", id: fold.record.id, start: fold.start, end: fold.end });
			}
		};
		walk(
			childrenOf(
				this.entries,
				{ start: 0, end: this.entries.length },
				this.roots.map((id) => this.folds.get(id) as PlacedFold),
			),
		);
		return out;
	}
}

/** The order folds are placed in: by start, the longer first. */
function byPlace(a: { start: number; end: number }, b: { start: number; end: number }): number {
	return a.start - b.start || b.end - a.end;
}

/** A fold's record and the range of entries it covers. */
type FoldRange = { record: FoldRecord; start: number; end: number };

/**
 * The range `leafIds` cover in `position`'s transcript: "off" when the first is not on it (or there
 * are none), the id where the run breaks when they are not a contiguous run of it.
 */
export function leafRange(
	position: ReadonlyMap<string, number>,
	leafIds: readonly string[],
): { start: number; end: number } | string {
	const start = position.get(leafIds[0] ?? "");
	if (start === undefined || leafIds.length === 0) return "off";
	for (let k = 1; k < leafIds.length; k++)
		if (position.get(leafIds[k] as string) !== start + k) return leafIds[k] as string;
	return { start, end: start + leafIds.length };
}

/**
 * Each range's parent and depth and each fold's child folds, for ranges in placing order with
 * distinct ids, or the first range that partially overlaps the fold open around it.
 */
function nestRanges(
	ranges: readonly FoldRange[],
):
	| { placed: Map<string, { parent: string | null; depth: number }>; childFolds: Map<string | null, string[]> }
	| { overlap: string; parent: string } {
	const placed = new Map<string, { parent: string | null; depth: number }>();
	const childFolds = new Map<string | null, string[]>([[null, []]]);
	const stack: { id: string; end: number; depth: number }[] = [];
	for (const range of ranges) {
		while (stack.length > 0 && (stack.at(-1) as { end: number }).end <= range.start) stack.pop();
		const parent = stack.at(-1);
		if (parent && range.end > parent.end) return { overlap: range.record.id, parent: parent.id };
		const depth = parent ? parent.depth + 1 : 0;
		placed.set(range.record.id, { parent: parent?.id ?? null, depth });
		(childFolds.get(parent?.id ?? null) as string[]).push(range.record.id);
		childFolds.set(range.record.id, []);
		stack.push({ id: range.record.id, end: range.end, depth });
	}
	return { placed, childFolds };
}

/** Whether `fold`'s child folds are `ids`, in order. */
function sameFoldChildren(fold: PlacedFold, ids: readonly string[]): boolean {
	let k = 0;
	for (const child of fold.children) {
		if (child.type !== "fold") continue;
		if (child.id !== ids[k]) return false;
		k++;
	}
	return k === ids.length;
}

/** Ordered children of a range: nested top-level folds and the entries between them. */
function childrenOf(
	entries: readonly TranscriptEntry[],
	range: { start: number; end: number },
	nested: readonly { record: FoldRecord; start: number; end: number }[],
): FoldChild[] {
	const out: FoldChild[] = [];
	let i = range.start;
	for (const fold of nested) {
		for (; i < fold.start; i++) out.push({ type: "entry", id: (entries[i] as TranscriptEntry).id });
		out.push({ type: "fold", id: fold.record.id });
		i = fold.end;
	}
	for (; i < range.end; i++) out.push({ type: "entry", id: (entries[i] as TranscriptEntry).id });
	return out;
}
