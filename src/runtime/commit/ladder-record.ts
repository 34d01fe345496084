// The ladder's folds of a commit plan (src/policy ladder-plan.ts) made into decisions: each fold's
// exact source written to the fold store first (a manifest over its entries, fold-write.ts), its
// brief written by the model where the plan says so (chapter, span and consolidation folds; a tool
// batch keeps the deterministic brief, as does any fold whose written brief fails), and the folds it
// holds listed. `fold` records under immediate scheduling, `mark` records (top-up flagged for the
// tool and chapter rungs) under cost and epoch. A written brief reads the span as the window shows
// it (`shownSpan`): every fold in force inside it collapsed to its placeholder and the raw entries
// between them as they are, so a span that absorbs earlier folds is summarized from their briefs plus
// what is new, the way the agent sees it, instead of from the start of its raw source cut at the
// request's character cap. The fold store does the I/O; the pipeline appends.

import { deterministicBrief } from "../../briefs/index.ts";
import { type BriefedKind, type FoldRecord, foldId, readsField } from "../../lattice/index.ts";
import { buildSnapshot, type LadderPlan, type Snapshot } from "../../policy/index.ts";
import { type PlaceholderNames, renderPlaceholder } from "../../projection/index.ts";
import type { DecisionBody } from "../../state/index.ts";
import type { TranscriptEntry } from "../../transcript/index.ts";
import { writeFoldSource } from "../fold-write.ts";
import { withQuotesAndListing } from "../nested-listing.ts";
import type { Host, SourceStore } from "../ports.ts";

/** Entries [start, end) of the transcript as the window shows them (collapsed folds as placeholders). */
export function shownSpan(snap: Snapshot, start: number, end: number, names: PlaceholderNames): TranscriptEntry[] {
	const out: TranscriptEntry[] = [];
	for (const item of snap.lattice.visible(snap.state.expanded)) {
		if (item.type === "entry") {
			if (item.index >= start && item.index < end) out.push(snap.view.transcript[item.index] as TranscriptEntry);
			continue;
		}
		if (item.start < start || item.end > end) continue;
		const fold = snap.lattice.get(item.id);
		const first = snap.view.transcript[item.start];
		if (!fold || !first) continue;
		out.push({ id: first.id, message: { role: first.message.role, content: renderPlaceholder(fold.record, names) } });
	}
	return out;
}

/** Writes the source of a ladder fold and returns its record (tool batches: deterministic brief). */
async function ladderRecord(
	host: Pick<Host, "writeBrief">,
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

/**
 * The decisions for the plan's ladder folds, in the plan's order (inner folds first), their sources
 * durable. A written brief reads the span as the window will show it: the folds of this commit
 * already made inside it as their briefs (`seen`).
 */
export async function ladderDecisions(
	host: Pick<Host, "writeBrief">,
	store: SourceStore,
	snap: Snapshot,
	ladder: LadderPlan,
	options: { readonly foldScheduling: string } & PlaceholderNames,
): Promise<DecisionBody[]> {
	const epoch = options.foldScheduling !== "immediate";
	const bodies: DecisionBody[] = [];
	let seen = snap;
	const recorded: FoldRecord[] = [];
	for (const f of ladder.folds) {
		const leaves = snap.view.transcript.slice(f.start, f.end);
		const view = seen;
		const shown = f.modelBrief ? () => shownSpan(view, f.start, f.end, options) : null;
		const record = await ladderRecord(host, store, leaves, f.kind, shown);
		if (record.id !== f.id) throw new Error(`ladder fold ${f.id} was planned over other entries than ${record.id}`);
		const fold = withQuotesAndListing(view, f.start, f.end, record);
		recorded.push(fold);
		seen = buildSnapshot(
			snap.view,
			{ ...snap.state, folds: new Map([...snap.state.folds, ...recorded.map((r) => [r.id, r] as const)]) },
			snap.known,
			snap.budget,
		);
		bodies.push(
			epoch ? { kind: "mark", actor: "ladder", topUp: f.topUp, fold } : { kind: "fold", actor: "ladder", fold },
		);
	}
	return bodies;
}
