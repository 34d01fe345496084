// Entry id to transcript index for a lattice, shared between a lattice and the lattices extended
// from it (lattice.ts `extendedTo`): one Map of every id placed so far, of which each lattice sees
// the ids below its own length. A transcript that grew by appending then costs the new ids only.
// Extending in place is allowed once per length (the first lattice to grow past it); a second
// extension from the same length (another transcript that shares the prefix) copies the prefix
// first, so no lattice ever sees an id that was not in its transcript. Pure in-memory.

import { undoWhenKept } from "../common/index.ts";

/** The ids of a Map shared by lattices, as many as one lattice's transcript holds. */
export class Positions implements ReadonlyMap<string, number> {
	/** The map, and the length of the transcript it holds the ids of. */
	private readonly shared: { map: Map<string, number>; length: number };
	/** This transcript's length: ids at this position or later are not in it. */
	private readonly limit: number;
	/** Distinct ids in this transcript. */
	private readonly count: number;

	private constructor(shared: { map: Map<string, number>; length: number }, limit: number, count: number) {
		this.shared = shared;
		this.limit = limit;
		this.count = count;
	}

	/** The positions of `ids` (the last of a repeated id wins, as Map.set does). */
	static of(ids: readonly string[]): Positions {
		const map = new Map<string, number>();
		ids.forEach((id, i) => {
			map.set(id, i);
		});
		return new Positions({ map, length: ids.length }, ids.length, map.size);
	}

	/**
	 * The positions of this transcript followed by `more` (its ids at this.size onward), or null when
	 * an id of `more` is already placed (a repeated id: the caller builds from scratch).
	 */
	extended(more: readonly string[]): Positions | null {
		if (new Set(more).size !== more.length || more.some((id) => this.has(id))) return null;
		let shared = this.shared;
		if (shared.length !== this.limit) {
			// Another transcript grew the map past this one: copy this one's part.
			const map = new Map<string, number>();
			for (const [id, at] of this) map.set(id, at);
			shared = { map, length: this.limit };
		} else if (more.some((id) => shared.map.has(id))) return null;
		more.forEach((id, i) => {
			shared.map.set(id, this.limit + i);
		});
		shared.length = this.limit + more.length;
		// A forecast's extension (src/common memo-slots.ts) is taken back when it ends, so the real
		// transcript that follows extends this map in place instead of copying it.
		const grown = shared;
		const from = this.limit;
		undoWhenKept(() => {
			if (grown.length !== from + more.length) return;
			for (const id of more) grown.map.delete(id);
			grown.length = from;
		});
		return new Positions(shared, this.limit + more.length, this.count + more.length);
	}

	get(id: string): number | undefined {
		const at = this.shared.map.get(id);
		return at !== undefined && at < this.limit ? at : undefined;
	}

	has(id: string): boolean {
		return this.get(id) !== undefined;
	}

	get size(): number {
		return this.count;
	}

	*entries(): MapIterator<[string, number]> {
		for (const [id, at] of this.shared.map) {
			if (at >= this.limit) continue;
			yield [id, at];
		}
	}

	*keys(): MapIterator<string> {
		for (const [id] of this.entries()) yield id;
	}

	*values(): MapIterator<number> {
		for (const [, at] of this.entries()) yield at;
	}

	[Symbol.iterator](): MapIterator<[string, number]> {
		return this.entries();
	}

	forEach(fn: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
		for (const [id, at] of this.entries()) fn(at, id, this);
	}
}
