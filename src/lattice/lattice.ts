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
		const position = Positions.of(entries.map((entry) => entry.id));
		const ranges: { record: FoldRecord; start: number; end: number }[] = [];
		for (const record of records) {
			const first = position.get(record.leafIds[0] ?? "");
			if (first === undefined || record.leafIds.length === 0) {
				throw new LatticeError(`fold ${record.id} names entries that are not on this branch`);
			}
			record.leafIds.forEach((id, k) => {
				if (position.get(id) !== first + k)
					throw new LatticeError(`fold ${record.id} is not a contiguous run of the transcript (at ${id})`);
			});
			ranges.push({ record, start: first, end: first + record.leafIds.length });
		}
		// Outer folds first: by start ascending, then by end descending.
		ranges.sort((a, b) => a.start - b.start || b.end - a.end);
		const placed = new Map<string, PlacedFold>();
		const childFolds = new Map<string | null, string[]>([[null, []]]);
		const stack: { id: string; end: number; depth: number }[] = [];
		for (const range of ranges) {
			if (placed.has(range.record.id)) continue;
			while (stack.length > 0 && (stack.at(-1) as { end: number }).end <= range.start) stack.pop();
			const parent = stack.at(-1);
			if (parent && range.end > parent.end) {
				throw new LatticeError(`fold ${range.record.id} partially overlaps fold ${parent.id}; folds must nest`);
			}
			const depth = parent ? parent.depth + 1 : 0;
			placed.set(range.record.id, {
				record: range.record,
				start: range.start,
				end: range.end,
				parent: parent?.id ?? null,
				depth,
				children: [],
			});
			(childFolds.get(parent?.id ?? null) as string[]).push(range.record.id);
			childFolds.set(range.record.id, []);
			stack.push({ id: range.record.id, end: range.end, depth });
		}
		const folds = new Map<string, PlacedFold>();
		for (const [id, fold] of placed) {
			folds.set(id, {
				...fold,
				children: childrenOf(
					entries,
					fold,
					(childFolds.get(id) ?? []).map((c) => placed.get(c) as PlacedFold),
				),
			});
		}
		return new Lattice(entries, position, folds, childFolds.get(null) ?? []);
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
