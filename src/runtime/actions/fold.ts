// The fold and reboundary actions: validate a span against the structural rules (src/policy
// span-rules: snapping, fresh tail, running turn, protections, incomplete tool batches, replaceable
// first entry), write the exact source to the fold store BEFORE recording the decision, and record
// it. The window changes only at the next commit. The store does the file I/O; the runtime appends
// the record through the host.

import { briefProblem, deterministicBrief } from "../../briefs/index.ts";
import { type FoldKind, type FoldRecord, foldId, foldSource, SpanError, snapSpan } from "../../lattice/index.ts";
import { markProblem, resolveId, spanKind, spanProblem } from "../../policy/index.ts";
import type { TranscriptEntry } from "../../transcript/index.ts";
import { type ActionInput, type ActionResult, landing, plural, refuse } from "./shared.ts";

/** Writes the source and returns the fold record for `leaves`. */
async function makeRecord(
	input: ActionInput,
	leaves: readonly TranscriptEntry[],
	kind: FoldKind,
	brief: string | undefined,
): Promise<FoldRecord> {
	const { sha256, bytes } = await input.runtime.store(input.host).put(foldSource(leaves));
	return {
		id: foldId(leaves),
		kind,
		origin: input.actor === "ladder" ? "ladder" : "agent",
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: brief?.trim() || deterministicBrief(leaves),
		briefSource: brief ? (input.actor === "human" ? "supplied" : "agent") : "deterministic",
	};
}

export async function foldAction(
	input: ActionInput,
	args: { from: string; to: string; brief?: string | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	const { transcript } = snap.view;
	let span: ReturnType<typeof snapSpan>;
	try {
		const from = resolveId(snap, args.from);
		const to = resolveId(snap, args.to);
		span = snapSpan(transcript, snap.units, snap.lattice, { from, to });
	} catch (error) {
		if (error instanceof SpanError) return refuse("fold", error.message);
		throw error;
	}
	const epoch = input.runtime.options.foldScheduling === "epoch";
	const problem = epoch ? markProblem(snap, span.start, span.end) : spanProblem(snap, span.start, span.end);
	if (problem) return refuse("fold", problem, { from: args.from, to: args.to });
	if (args.brief !== undefined) {
		const bad = briefProblem(args.brief);
		if (bad) return refuse("fold", bad);
	}
	const leaves = transcript.slice(span.start, span.end);
	const id = foldId(leaves);
	const notes = span.notes.length > 0 ? `\nSnapped: ${span.notes.join("; ")}.` : "";
	const crossed =
		span.crossedFolds.length > 0 ? `\nCrossed folds now nested inside: ${span.crossedFolds.join(", ")}.` : "";
	if (epoch && snap.state.pendingMarks.has(id))
		return {
			text: `Already marked: ${id} covers exactly this span and is pending; the next commit applies it (unmark withdraws it).${notes}`,
			details: { action: "fold", id, existing: true, pending: true, notes: span.notes },
		};
	if (snap.state.folds.has(id)) {
		const open = snap.state.expanded.has(id) ? ` It is expanded; refold it with {"action":"refold","id":"${id}"}.` : "";
		return {
			text: `Already folded: ${id} covers exactly this span (the same span is one fold).${open}${notes}`,
			details: { action: "fold", id, existing: true, notes: span.notes },
		};
	}
	const record = await makeRecord(input, leaves, spanKind(snap, span.start, span.end), args.brief);
	if (epoch) {
		input.runtime.decide(input.host, { kind: "mark", actor: input.actor, topUp: false, fold: record });
		const waits = spanProblem(snap, span.start, span.end) !== null;
		return {
			text: `Marked ${id} (${record.kind}, ${plural(leaves.length, "entry", "entries")} ${leaves[0]?.id}…${leaves.at(-1)?.id}); nothing in the window moves now. The runtime commits every pending mark in one rewrite${waits ? "; this span is in the fresh tail, so it waits until it ages out (or applies at once if it is at the very end of the window)" : ""}. Withdraw it with {"action":"unmark","id":"${id}"}. The exact source is stored (sha256 ${record.sourceSha256.slice(0, 16)}…).${notes}${crossed}\nBrief: ${record.brief}`,
			details: {
				action: "fold",
				id,
				kind: record.kind,
				pending: true,
				waits,
				leaves: leaves.length,
				notes: span.notes,
			},
		};
	}
	input.runtime.decide(input.host, { kind: "fold", actor: input.actor, fold: record });
	return {
		text: `Folded ${id} (${record.kind}, ${plural(leaves.length, "entry", "entries")} ${leaves[0]?.id}…${leaves.at(-1)?.id}, ${plural(record.sourceBytes, "byte")}); ${landing(input.actor)}. The exact source is stored (sha256 ${record.sourceSha256.slice(0, 16)}…): peek or expand it any time.${notes}${crossed}\nBrief: ${record.brief}`,
		details: {
			action: "fold",
			id,
			kind: record.kind,
			leaves: leaves.length,
			bytes: record.sourceBytes,
			sha256: record.sourceSha256,
			notes: span.notes,
			crossedFolds: span.crossedFolds,
		},
	};
}

export async function reboundaryAction(
	input: ActionInput,
	args: { op: "dissolve" | "merge"; ids: readonly string[]; brief?: string | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	for (const id of args.ids) {
		if (!snap.lattice.get(id)) return refuse("reboundary", `fold ${id} is not a fold on this branch`);
		if (snap.state.protectedFolds.has(id)) return refuse("reboundary", `fold ${id} is protected (unprotect it first)`);
	}
	if (args.op === "dissolve") {
		input.runtime.decide(input.host, {
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
	const record = await makeRecord(input, leaves, "span", args.brief);
	input.runtime.decide(input.host, {
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
