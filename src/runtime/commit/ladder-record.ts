// Step 3 of the commit pipeline (pipeline.ts): the ladder's proposals of a commit become decisions,
// each fold's exact source written to the fold store first (a manifest over its entries, fold-write.ts): `fold` records under immediate
// scheduling, `mark` records (top-up flagged for the tool and chapter rungs) where a fold is a
// pending mark (cost, epoch). A proposal that is already a fold or a mark, that the structural
// rules refuse, or that would not nest with the folds in force, the marks this commit applies and the
// proposals taken before it, is skipped: the ladder never records a mark its own commit would refuse. Chapter, span and consolidation briefs are written by the model when the
// gate asks for it (tool batches keep the deterministic brief). The fold store does the I/O; the
// runtime appends the records.

import { deterministicBrief } from "../../briefs/index.ts";
import { type BriefedKind, type FoldRecord, foldId, Lattice, readsField } from "../../lattice/index.ts";
import { buildSnapshot, type FoldScheduling, type Proposal, type Snapshot, spanProblem } from "../../policy/index.ts";
import type { PlaceholderNames } from "../../projection/index.ts";
import type { DecisionBody } from "../../state/index.ts";
import type { TranscriptEntry } from "../../transcript/index.ts";
import { writeFoldSource } from "../fold-write.ts";
import { withNestedListing } from "../nested-listing.ts";
import type { Host, SourceStore } from "../ports.ts";
import { shownSpan } from "./brief-input.ts";

const KIND_OF_RUNG: Record<Proposal["rung"], BriefedKind> = {
	tools: "tools",
	chapter: "chapter",
	consolidation: "consolidation",
	span: "span",
	rescue: "span",
};

/** Writes the source of a ladder fold and returns its record (tool batches: deterministic brief). */
async function ladderRecord(
	host: Host,
	store: SourceStore,
	leaves: readonly TranscriptEntry[],
	kind: BriefedKind,
	shown: (() => readonly TranscriptEntry[]) | null,
): Promise<FoldRecord> {
	const { sha256, bytes } = await writeFoldSource(store, leaves);
	const fallback = { brief: deterministicBrief(leaves), source: "deterministic" as const };
	const brief =
		kind === "tools" || !shown ? fallback : await host.writeBrief(leaves, kind, shown()).catch(() => fallback);
	return {
		id: foldId(leaves),
		kind,
		origin: "ladder",
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: brief.brief,
		briefSource: brief.source,
		...readsField(leaves, kind),
	};
}

type Placement = Pick<FoldRecord, "id" | "leafIds">;

/** The folds this commit lands beside a new proposal: those placed on the transcript, and the marks it applies. */
function landingFolds(snap: Snapshot, applying: readonly string[]): Placement[] {
	const out: Placement[] = [...snap.lattice.folds.values()].map((f) => f.record);
	// A mark that does not nest is refused at placement; it holds no place here.
	for (const id of applying) {
		const mark = snap.state.pendingMarks.get(id);
		if (mark && nests(snap, out, mark.fold)) out.push(mark.fold);
	}
	return out;
}

/** Whether `fold` nests with every fold in `landing` (none partially overlaps it). */
function nests(snap: Snapshot, landing: readonly Placement[], fold: Placement): boolean {
	try {
		Lattice.build(snap.view.transcript, [...landing, fold] as FoldRecord[]);
		return true;
	} catch {
		return false;
	}
}

/** The ladder's decisions for a commit, with their sources already durable. */
export interface LadderDecisions {
	readonly bodies: DecisionBody[];
	readonly ids: string[];
	readonly topUp: Set<string>;
	readonly freedTokens: number;
}

/**
 * Step 3: the ladder's folds (immediate scheduling) or top-up-flagged marks (cost, epoch), their
 * sources written first; `modelBrief` says which chapter, span or consolidation gets a model-written brief.
 */
export async function ladderDecisions(
	host: Host,
	store: SourceStore,
	snap: Snapshot,
	proposals: readonly Proposal[],
	options: { readonly foldScheduling: FoldScheduling } & PlaceholderNames,
	modelBrief: (p: Proposal) => boolean = () => true,
	applying: readonly string[] = [],
): Promise<LadderDecisions> {
	const epoch = options.foldScheduling !== "immediate";
	const out: LadderDecisions = { bodies: [], ids: [], topUp: new Set(), freedTokens: 0 };
	let freed = 0;
	const landing = landingFolds(snap, applying);
	// Inner folds first: a span or a rescue that holds this commit's tool folds then lists them and
	// reads them as their briefs (`seen`: the state with this commit's folds placed so far).
	let seen = snap;
	const recorded: FoldRecord[] = [];
	for (const p of [...proposals].sort((a, b) => a.end - a.start - (b.end - b.start))) {
		const leaves = snap.view.transcript.slice(p.start, p.end);
		const id = foldId(leaves);
		if (snap.state.folds.has(id) || snap.state.pendingMarks.has(id) || out.ids.includes(id)) continue;
		// The rescue folds the fresh tail down to the unit in use; every other rule still holds.
		const rules = p.rung === "rescue" ? { ...snap, freshUnit: snap.units.length } : snap;
		if (spanProblem(rules, p.start, p.end)) continue;
		const leafIds = leaves.map((l) => l.id);
		if (!nests(snap, landing, { id, leafIds })) continue;
		landing.push({ id, leafIds });
		// A written brief reads the span as the window will show it (its nested folds as their briefs).
		const view = seen;
		const shown = modelBrief(p) ? () => shownSpan(view, p.start, p.end, options) : null;
		const record = await ladderRecord(host, store, leaves, KIND_OF_RUNG[p.rung], shown);
		const fold = withNestedListing(view, p.start, p.end, record);
		recorded.push(fold);
		seen = buildSnapshot(
			snap.view,
			{ ...snap.state, folds: new Map([...snap.state.folds, ...recorded.map((f) => [f.id, f] as const)]) },
			snap.known,
			snap.budget,
		);
		const topUp = p.rung === "tools" || p.rung === "chapter";
		out.bodies.push(epoch ? { kind: "mark", actor: "ladder", topUp, fold } : { kind: "fold", actor: "ladder", fold });
		out.ids.push(id);
		freed += p.freedTokens;
		if (topUp && epoch) out.topUp.add(id);
	}
	return { ...out, freedTokens: freed };
}
