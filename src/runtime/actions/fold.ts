// The fold and reboundary actions: validate a span against the structural rules (src/policy
// span-rules: snapping, fresh tail, running turn, protections, incomplete tool batches, replaceable
// first entry), write the exact source to the fold store BEFORE recording the decision, and record
// it. The window changes only at the next commit. The store does the file I/O; the runtime appends
// the record through the host.

import { briefProblem, deterministicBrief } from "../../briefs/index.ts";
import { plural } from "../../common/index.ts";
import { type FoldKind, type FoldRecord, foldId, readsField, SpanError, snapSpan } from "../../lattice/index.ts";
import { markProblem, resolveId, type Snapshot, spanKind, spanProblem } from "../../policy/index.ts";
import type { TranscriptEntry } from "../../transcript/index.ts";
import { writeFoldSource } from "../fold-write.ts";
import { withNestedListing } from "../nested-listing.ts";
import { kindLabel } from "../status/words.ts";
import { type ActionResult, askFor, type DecidingInput, landing, refuse } from "./shared.ts";

/** Writes the source and returns the fold record for `leaves`. */
async function makeRecord(
	input: DecidingInput,
	leaves: readonly TranscriptEntry[],
	kind: FoldKind,
	brief: string | undefined,
): Promise<FoldRecord> {
	const { sha256, bytes } = await writeFoldSource(input.runtime.store(input.host), leaves);
	return {
		id: foldId(leaves),
		kind,
		origin: input.actor === "ladder" ? "ladder" : "agent",
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: brief?.trim() || deterministicBrief(leaves),
		briefSource: brief ? (input.actor === "human" ? "supplied" : "agent") : "deterministic",
		...readsField(leaves, kind),
	};
}

type Span = ReturnType<typeof snapSpan>;

/** The span the agent named, snapped to units, or the refusal. */
function namedSpan(snap: Snapshot, args: { from: string; to: string }): Span | ActionResult {
	try {
		return snapSpan(snap.view.transcript, snap.units, snap.lattice, {
			from: resolveId(snap, args.from),
			to: resolveId(snap, args.to),
		});
	} catch (error) {
		if (error instanceof SpanError) return refuse("fold", error.message);
		throw error;
	}
}

/** The snapping and crossing notes of a span, as lines of a reply. */
function spanNotes(span: Span): { notes: string; crossed: string } {
	return {
		notes: span.notes.length > 0 ? `\nSnapped: ${span.notes.join("; ")}.` : "",
		crossed: span.crossedFolds.length > 0 ? `\nCrossed folds now nested inside: ${span.crossedFolds.join(", ")}.` : "",
	};
}

/** The reply when the exact span is already a fold or a pending mark, else null. */
function existing(input: DecidingInput, snap: Snapshot, id: string, span: Span, epoch: boolean): ActionResult | null {
	const { notes } = spanNotes(span);
	if (epoch && snap.state.pendingMarks.has(id))
		return {
			text: `Already marked: ${id} covers exactly this span and is pending; the next commit applies it (unmark withdraws it).${notes}`,
			details: { action: "fold", id, existing: true, pending: true, notes: span.notes },
		};
	if (!snap.state.folds.has(id)) return null;
	const open = snap.state.expanded.has(id) ? ` It is expanded; refold it with ${askFor(input, "refold", id)}.` : "";
	return {
		text: `Already folded: ${id} covers exactly this span (the same span is one fold).${open}${notes}`,
		details: { action: "fold", id, existing: true, notes: span.notes },
	};
}

function range(leaves: readonly TranscriptEntry[]): string {
	return `${plural(leaves.length, "entry", "entries")} ${leaves[0]?.id}…${leaves.at(-1)?.id}`;
}

/** Records a pending mark (epoch scheduling) and says when it lands. */
function markReply(
	input: DecidingInput,
	snap: Snapshot,
	span: Span,
	record: FoldRecord,
	leaves: readonly TranscriptEntry[],
): ActionResult {
	input.decide({ kind: "mark", actor: input.actor, topUp: false, fold: record });
	const waits = spanProblem(snap, span.start, span.end) !== null;
	const { notes, crossed } = spanNotes(span);
	const wait = waits
		? "; this span is in the fresh tail, so it waits until it ages out (or applies at once if it is at the very end of the window)"
		: "";
	const human = `Marked ${record.id} (${kindLabel(record.kind)}, ${range(leaves)}) to fold: nothing changes now; pi-fold folds marked parts together when the window needs room${waits ? ". It is among the most recent messages, which stay whole, so it waits until newer work pushes it back" : ""}. Withdraw it with ${askFor(input, "unmark", record.id)}. Its exact original is kept (SHA-256 ${record.sourceSha256.slice(0, 16)}…).${notes}${crossed}\nBrief: ${record.brief}`;
	return {
		text:
			input.actor === "human"
				? human
				: `Marked ${record.id} (${record.kind}, ${range(leaves)}); nothing in the window moves now. The runtime commits every pending mark in one rewrite${wait}. Withdraw it with ${askFor(input, "unmark", record.id)}. The exact source is stored (sha256 ${record.sourceSha256.slice(0, 16)}…).${notes}${crossed}\nBrief: ${record.brief}`,
		details: {
			action: "fold",
			id: record.id,
			kind: record.kind,
			pending: true,
			waits,
			leaves: leaves.length,
			notes: span.notes,
		},
	};
}

/** Records a fold (immediate scheduling) and says when it lands. */
function foldReply(
	input: DecidingInput,
	span: Span,
	record: FoldRecord,
	leaves: readonly TranscriptEntry[],
): ActionResult {
	input.decide({ kind: "fold", actor: input.actor, fold: record });
	const { notes, crossed } = spanNotes(span);
	return {
		text: `Folded ${record.id} (${input.actor === "human" ? kindLabel(record.kind) : record.kind}, ${range(leaves)}, ${plural(record.sourceBytes, "byte")}); ${landing(input.actor)}. The exact source is stored (sha256 ${record.sourceSha256.slice(0, 16)}…): peek or expand it any time.${notes}${crossed}\nBrief: ${record.brief}`,
		details: {
			action: "fold",
			id: record.id,
			kind: record.kind,
			leaves: leaves.length,
			bytes: record.sourceBytes,
			sha256: record.sourceSha256,
			notes: span.notes,
			crossedFolds: span.crossedFolds,
		},
	};
}

export async function foldAction(
	input: DecidingInput,
	args: { from: string; to: string; brief?: string | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	const span = namedSpan(snap, args);
	if ("text" in span) return span;
	const epoch = input.runtime.options.foldScheduling !== "immediate";
	const problem = epoch ? markProblem(snap, span.start, span.end) : spanProblem(snap, span.start, span.end);
	if (problem) return refuse("fold", problem, { from: args.from, to: args.to });
	const bad = args.brief === undefined ? null : briefProblem(args.brief);
	if (bad) return refuse("fold", bad);
	const leaves = snap.view.transcript.slice(span.start, span.end);
	const already = existing(input, snap, foldId(leaves), span, epoch);
	if (already) return already;
	const made = await makeRecord(input, leaves, spanKind(snap, span.start, span.end), args.brief);
	const record = withNestedListing(snap, span.start, span.end, made);
	return epoch ? markReply(input, snap, span, record, leaves) : foldReply(input, span, record, leaves);
}

export async function reboundaryAction(
	input: DecidingInput,
	args: { op: "dissolve" | "merge"; ids: readonly string[]; brief?: string | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	for (const id of args.ids) {
		if (!snap.lattice.get(id)) return refuse("reboundary", `fold ${id} is not a fold on this branch`);
		if (snap.state.protectedFolds.has(id)) return refuse("reboundary", `fold ${id} is protected (unprotect it first)`);
	}
	if (args.op === "dissolve") {
		input.decide({
			kind: "reboundary",
			actor: input.actor,
			op: "dissolve",
			foldIds: [...args.ids],
		});
		return {
			text: `Dissolved ${args.ids.join(", ")} back to raw entries (nested folds stay); ${landing(input.actor)}.`,
			details: { action: "reboundary", op: "dissolve", ids: args.ids },
		};
	}
	const folds = args.ids.map((id) => snap.lattice.get(id) as NonNullable<ReturnType<typeof snap.lattice.get>>);
	folds.sort((a, b) => a.start - b.start);
	const parent = folds[0]?.parent ?? null;
	for (let i = 0; i < folds.length; i++) {
		const fold = folds[i] as (typeof folds)[number];
		if (fold.parent !== parent)
			return refuse(
				"reboundary",
				`folds ${args.ids.join(", ")} are not siblings (${fold.record.id} has another parent)`,
			);
		const next = folds[i + 1];
		if (next && next.start !== fold.end)
			return refuse(
				"reboundary",
				`folds ${fold.record.id} and ${next.record.id} are not adjacent; merge takes adjacent folds`,
			);
	}
	if (args.brief !== undefined) {
		const bad = briefProblem(args.brief);
		if (bad) return refuse("reboundary", bad);
	}
	const start = folds[0]?.start ?? 0;
	const end = folds.at(-1)?.end ?? 0;
	const leaves = snap.view.transcript.slice(start, end);
	const merged = new Set(folds.map((f) => f.record.id));
	const record = withNestedListing(snap, start, end, await makeRecord(input, leaves, "span", args.brief), merged);
	input.decide({
		kind: "reboundary",
		actor: input.actor,
		op: "merge",
		foldIds: folds.map((f) => f.record.id),
		fold: record,
	});
	return {
		text: `Merged ${folds.map((f) => f.record.id).join(", ")} into ${record.id} (${plural(leaves.length, "entry", "entries")}); ${landing(input.actor)}.\nBrief: ${record.brief}`,
		details: { action: "reboundary", op: "merge", ids: args.ids, id: record.id },
	};
}
