// Test helper: the randomized sweep's lossless invariants (issue 19), checked at every request on
// what the provider was sent. An accepted expand lands at the next boundary (the human's, typed
// between turns, after the request that was already on its way; the agent's, before the next request)
// and shows from the request after it: every fold the commits hold expanded, and whose enclosing folds
// are expanded too, has its own entries raw in the request. It
// stays so until it is refolded (by whoever expanded it, or by the budget's backstop, which names it in
// its commit), until a fold someone other than the ladder made covers it, or until Pi's compaction
// summarized its entries; a ladder fold over it that its commit does not name is a broken promise (so
// is one over the briefs of the folds nested in it, which the expand showed). The fold tree stays
// shallow where pi-fold builds it: on any chain of nested folds, the levels that are pi-fold's own
// folds (origin "ladder": its rungs, consolidations, excerpts, the rescue) stay within
// log2(folds) + 2, folds counting every fold in the tree. Folds the human or the agent made (origin
// "agent") do not count as levels: they nest as deep as their makers ask, and pi-fold never overrides
// them to flatten the tree (seed 11 of the sweep: the human's six folds, four spans each around the
// last and two tool batches inside them, are five levels by the human's choice). They still count as
// folds, and as the rank-0 folds a consolidation may pair, so a ladder chain built over or between
// them still fails (fold-depth-regressions.test.ts). No Pi.

import type { Lattice, PlacedFold } from "../../src/lattice/index.ts";
import type { FoldRuntime, Host } from "../../src/runtime/index.ts";
import type { SimSession } from "../../src/simulate/index.ts";

/** A decision record as the simulator stores it (the fields these checks read). */
interface RecordData {
	readonly kind?: string;
	readonly actor?: string;
	readonly foldId?: string;
	readonly fold?: { readonly id?: string };
	readonly retaken?: readonly string[];
}

/** What happened on the branch between two requests: refolds, retaken folds, compactions. */
interface Since {
	readonly refolded: Set<string>;
	readonly retaken: Set<string>;
	compacted: boolean;
	committed: boolean;
}

/** Whether `fold` and every fold enclosing it are expanded: its own entries are then shown raw. */
function shownExpanded(lattice: Lattice, fold: PlacedFold, expanded: ReadonlySet<string>): boolean {
	return expanded.has(fold.record.id) && lattice.ancestors(fold.record.id).every((a) => expanded.has(a.record.id));
}

/** Levels of folds on the deepest chain (a fold that holds no fold is one level). */
export function foldLevels(lattice: Lattice): number {
	let levels = 0;
	for (const fold of lattice.inOrder()) levels = Math.max(levels, fold.depth + 1);
	return levels;
}

/** Most of pi-fold's own folds (origin "ladder") on one chain, a fold and its ancestors. */
export function ladderLevels(lattice: Lattice): number {
	let levels = 0;
	for (const fold of lattice.inOrder()) {
		const chain = [fold, ...lattice.ancestors(fold.record.id)];
		levels = Math.max(levels, chain.filter((f) => f.record.origin === "ladder").length);
	}
	return levels;
}

/** The depth bound: pi-fold's levels of folds on any chain within log2(folds) + 2. */
export function depthProblem(lattice: Lattice): string | null {
	const folds = lattice.inOrder().length;
	if (folds === 0) return null;
	const levels = ladderLevels(lattice);
	const bound = Math.log2(folds) + 2;
	return levels > bound
		? `pi-fold's folds are ${levels} levels deep on one chain (${foldLevels(lattice)} levels in all) over ${folds} folds exceeds log2(folds) + 2 = ${bound.toFixed(2)}`
		: null;
}

/** Watches every request for the lossless invariants of one session. */
export class LosslessWatch {
	readonly problems: string[] = [];
	/** Folds shown expanded at the previous request, with the folds they then showed as briefs. */
	private shown = new Map<string, string[]>();
	/** Session entries already read for decisions. */
	private seen = 0;
	/** Requests at which an expanded fold showed its entries (the sweep's totals). */
	expandedShown = 0;
	/** Expands accepted and not yet landed by a commit, with the request they were first seen at. */
	private readonly pending = new Map<string, number>();
	/** Expands a commit landed (and not refolded since). */
	private readonly landed = new Set<string>();
	/** Expands the last commit landed, to be seen at this request. */
	private readonly fresh = new Set<string>();
	private requests = 0;
	private readonly byId = new Map<string, string>();
	/** Who made each fold on the branch (its mark's or fold's record), however long ago. */
	private readonly actors = new Map<string, string>();

	constructor(
		private readonly runtime: FoldRuntime,
		private readonly host: Host,
		private readonly session: SimSession,
		private readonly decisionType: string,
	) {}

	/** What the branch recorded since the previous request. */
	private since(): Since {
		const out: Since = {
			refolded: new Set(),
			retaken: new Set(),
			compacted: false,
			committed: false,
		};
		const entries = this.session.entries;
		for (; this.seen < entries.length; this.seen++) {
			const entry = entries[this.seen];
			if (!entry) continue;
			if (entry.type === "compaction") out.compacted = true;
			if (entry.type !== "custom" || entry.customType !== this.decisionType) continue;
			const data = entry.data as RecordData;
			if (data.kind === "expand" && data.foldId && !this.pending.has(data.foldId))
				this.pending.set(data.foldId, this.requests);
			if (data.kind === "refold" && data.foldId) {
				out.refolded.add(data.foldId);
				this.pending.delete(data.foldId);
				this.landed.delete(data.foldId);
			}
			if (data.kind === "commit") {
				out.committed = true;
				for (const id of this.pending.keys()) {
					this.landed.add(id);
					this.fresh.add(id);
				}
				this.pending.clear();
			}
			if ((data.kind === "fold" || data.kind === "mark") && data.fold?.id) {
				this.actors.set(data.fold.id, data.actor ?? "");
			}
			for (const id of data.retaken ?? []) out.retaken.add(id);
		}
		return out;
	}

	/** Checks request `at`, whose messages the provider got. */
	request(at: number, messages: readonly unknown[]): void {
		const sent = new Set(messages.map((m) => JSON.stringify(m)));
		const snap = this.runtime.snapshot(this.host);
		const { lattice, state } = snap;
		const since = this.since();
		this.requests++;
		for (const [id, seen] of this.pending)
			if (seen < this.requests - 1 && state.expanded.has(id) && lattice.get(id) && !since.compacted)
				this.problems.push(`request ${at}: the expand of ${id} did not land at the boundary after it`);
		// What the window shows expanded: the expands commits landed that the state still holds.
		const expanded = new Set([...this.landed].filter((id) => state.expanded.has(id)));
		const depth = depthProblem(lattice);
		if (depth) this.problems.push(`request ${at}: ${depth}`);
		const now = new Map<string, string[]>();
		for (const fold of lattice.inOrder()) {
			if (!shownExpanded(lattice, fold, expanded)) continue;
			now.set(
				fold.record.id,
				fold.children.flatMap((c) => (c.type === "fold" ? [c.id] : [])),
			);
			const missing = fold.children.find(
				(c) => c.type === "entry" && !sent.has(this.messageJson(c.id, snap.view.transcript)),
			);
			if (missing)
				this.problems.push(`request ${at}: expanded fold ${fold.record.id} does not show entry ${missing.id}`);
			else this.expandedShown++;
		}
		for (const id of this.fresh) {
			const fold = lattice.get(id);
			// Landed and hidden: only under a fold the agent or the human made (or one of the other reasons).
			const why = fold && expanded.has(id) && !now.has(id) ? this.whyHidden(id, lattice, expanded, since) : null;
			if (why) this.problems.push(`request ${at}: the expand of ${id} landed but does not show (${why})`);
		}
		this.fresh.clear();
		for (const [id, briefs] of this.shown) {
			if (!now.has(id)) {
				const why = this.whyHidden(id, lattice, expanded, since);
				if (why) this.problems.push(`request ${at}: expanded fold ${id} ${why}`);
				continue;
			}
			// The briefs it showed stay briefs of their own: no ladder fold wraps them unnamed.
			for (const child of briefs) {
				const outer = lattice.get(child) ? lattice.ancestors(child)[0] : undefined;
				if (!outer || outer.record.id === id || since.compacted) continue;
				const actor = this.actors.get(outer.record.id);
				if (actor !== undefined && actor !== "ladder") continue;
				if (since.retaken.has(id) || since.retaken.has(child)) continue;
				this.problems.push(
					`request ${at}: fold ${child}, shown inside expanded fold ${id}, was folded away under ${outer.record.id} by the ladder`,
				);
			}
		}
		this.shown = now;
	}

	/** Null when the expanded fold `id` may have stopped showing, else what took it back. */
	private whyHidden(id: string, lattice: Lattice, expanded: ReadonlySet<string>, since: Since): string | null {
		if (since.compacted) return null; // Pi's compaction summarized the entries; the fold stays readable.
		if (since.refolded.has(id) && (since.retaken.has(id) || this.refoldedByActor(id))) return null;
		if (!lattice.get(id)) return "left the lattice with no compaction";
		if (!expanded.has(id)) return "was taken back with no refold";
		// Hidden under a fold that is collapsed now.
		for (const outer of lattice.ancestors(id)) {
			if (expanded.has(outer.record.id)) continue;
			const actor = this.actors.get(outer.record.id);
			if (actor !== undefined && actor !== "ladder") return null; // the agent or the human folded over it
			if (since.retaken.has(id) || since.retaken.has(outer.record.id)) return null; // the backstop, naming it
			if (since.refolded.has(outer.record.id)) return null; // its enclosing fold was refolded
			return `was folded away under ${outer.record.id} by the ladder, unnamed in its commit`;
		}
		return "stopped showing";
	}

	/** Whether the last refold of `id` on the branch was the agent's or the human's. */
	private refoldedByActor(id: string): boolean {
		for (let i = this.session.entries.length - 1; i >= 0; i--) {
			const entry = this.session.entries[i];
			if (entry?.type !== "custom" || entry.customType !== this.decisionType) continue;
			const data = entry.data as RecordData;
			if (data.kind === "refold" && data.foldId === id) return data.actor !== "ladder";
		}
		return false;
	}

	/** The JSON of entry `id`'s message as the transcript holds it (cached: entries do not change). */
	private messageJson(id: string, transcript: readonly { id: string; message: unknown }[]): string {
		let json = this.byId.get(id);
		if (json === undefined) {
			json = JSON.stringify(transcript.find((e) => e.id === id)?.message);
			this.byId.set(id, json);
		}
		return json;
	}
}
