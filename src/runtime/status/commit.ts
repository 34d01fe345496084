// What a commit did, in the human's words (words.ts): what it folded, by kind ("2 rounds of tool
// calls and 1 prompt with its answer"), how many expanded entries it put back, the tokens it freed (the scheduler's estimate, or one from the folds'
// sizes when the scheduler made none) and, when the commit was priced, its cost arithmetic. The
// one-line notice in the TUI and the "Last commit" line of /context both read it. Pure.

import { nounFor } from "../../common/index.ts";
import type { FoldKind } from "../../lattice/index.ts";
import { PLACEHOLDER_TOKENS_ESTIMATE, requestMessageTokens, type Snapshot } from "../../policy/index.ts";
import { arithmetic, type CommitBody, FORCE_WORDS, freedFigure } from "../commit/index.ts";
import type { CommitNote } from "../telemetry.ts";
import { KIND_COUNTED } from "./words.ts";

/** What one commit did, ready to render. */
interface CommitFacts {
	readonly seq: number;
	/** When it ran: "at the end of a turn", "when the agent finished", ... */
	readonly when: string;
	readonly folded: number;
	/** The folded parts by kind, in words ("2 rounds of tool calls and 1 prompt with its answer"). */
	readonly kinds: string;
	/** Targets an expand put back in full (0 when unknown). */
	readonly restored: number;
	readonly freedTokens: number;
	/** The cost arithmetic in words, when the telemetry carries it (see {@link costText}). */
	readonly cost: string | null;
	/** What forced the commit, in words ("forced: the window reached its budget"), or null. */
	readonly force: string | null;
	/** Model-written briefs of this commit's folds that were not used (refused or failed), and the last why. */
	readonly briefsReplaced?: { readonly count: number; readonly reason: string | null } | undefined;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** A commit reason's first part ("end of a turn: quiet ...") as the human reads it. */
function whenOf(reason: string): string {
	const head = reason.split(":")[0]?.trim() ?? "";
	if (head === "end of a turn") return "at the end of a turn";
	if (head === "end of the agent's run") return "when the agent finished";
	return head ? `at the ${head}` : "";
}

/** The commit's cost arithmetic in words (the telemetry's prediction, as the receipt words it), or null. */
function costText(note: CommitNote, assumedPrices = false): string | null {
	return note.prediction ? arithmetic(recordedShape(note.prediction), assumedPrices) : null;
}

/** A live prediction in the record's shape (a break-even that never comes: null). */
function recordedShape(p: NonNullable<CommitNote["prediction"]>) {
	return { ...p, breakEvenRequests: Number.isFinite(p.breakEvenRequests) ? p.breakEvenRequests : null };
}

/** Estimated tokens a commit frees by folding `applied` (each counted once, nested folds inside it as they were). */
function estimateFreed(snap: Snapshot, applied: ReadonlySet<string>): number {
	const messages = new Map(snap.view.transcript.map((e) => [e.id, e.message]));
	const visibleBefore = (id: string): number => {
		const fold = snap.lattice.get(id);
		if (!fold) return 0;
		let sum = 0;
		for (const child of fold.children) {
			if (child.type === "entry") sum += requestMessageTokens([messages.get(child.id)]);
			else sum += applied.has(child.id) ? visibleBefore(child.id) : PLACEHOLDER_TOKENS_ESTIMATE;
		}
		return sum;
	};
	let freed = 0;
	for (const id of applied) {
		if (snap.lattice.ancestors(id).some((a) => applied.has(a.record.id))) continue;
		freed += Math.max(0, visibleBefore(id) - PLACEHOLDER_TOKENS_ESTIMATE);
	}
	return freed;
}

/**
 * The facts of `note` (and of its record `body`, when the caller has it) over `snap`; the cost in
 * tokens when the prices were assumed (the model states none).
 */
export function commitFacts(note: CommitNote, snap: Snapshot, body?: CommitBody, assumedPrices = false): CommitFacts {
	const applied = new Set(note.applied);
	const counts = new Map<FoldKind, number>();
	for (const id of applied) {
		const kind = (snap.lattice.get(id)?.record ?? snap.known.get(id))?.kind;
		if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
	}
	const listed = [...counts].map(([kind, n]) => `${n} ${nounFor(n, ...KIND_COUNTED[kind])}`);
	const kinds = listed.length > 1 ? `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}` : (listed[0] ?? "");
	return {
		seq: note.seq,
		when: whenOf(note.reason),
		folded: applied.size,
		kinds,
		restored: body?.edits.filter((e) => e.action === "restore").length ?? 0,
		freedTokens: note.freedTokens > 0 ? freedFigure(note.prediction, note.freedTokens) : estimateFreed(snap, applied),
		cost: costText(note, assumedPrices),
		force: note.force ? FORCE_WORDS[note.force] : null,
	};
}

/** What the commit did, in one clause: "folded 2 rounds of tool calls and 1 prompt with its answer, ~12,400 tokens freed". */
export function commitClause(f: CommitFacts): string {
	const parts: string[] = [];
	if (f.folded > 0) parts.push(`folded ${f.kinds || `${f.folded} ${nounFor(f.folded, "part")} of the conversation`}`);
	if (f.restored > 0) parts.push(`put back ${f.restored} expanded ${nounFor(f.restored, "entry", "entries")}`);
	if (parts.length === 0) parts.push("updated the window");
	if (f.freedTokens > 0) parts.push(`~${fmt(f.freedTokens)} tokens freed`);
	return parts.join(", ");
}

/** A summarizer's fallback reason ("summarizer brief refused: it repeated ...") in a person's words. */
function replacedWhy(reason: string | null): string {
	if (!reason) return "";
	const refused = /^summarizer brief refused: (.*)$/.exec(reason);
	if (refused) return ` (refused: ${refused[1]})`;
	const failed = /^summarizer failed: (.*)$/.exec(reason);
	if (failed) return ` (the request failed: ${failed[1]})`;
	return ` (${reason.replace(/^summarizer /, "the model ")})`;
}

/** The clause saying a commit's folds keep pi-fold's own brief instead of the model's, or "". */
export function replacedClause(f: Pick<CommitFacts, "briefsReplaced">): string {
	const r = f.briefsReplaced;
	if (!r || r.count <= 0) return "";
	const which =
		r.count === 1
			? "the model's brief for 1 fold was not used"
			: `the model's briefs for ${r.count} folds were not used`;
	return `; ${which}${replacedWhy(r.reason)}, so pi-fold wrote ${r.count === 1 ? "that brief" : "those briefs"} from the span itself`;
}

/** The one-line TUI notice of a commit that just landed. */
export function commitNotice(f: CommitFacts, statusCommand: string): string {
	const force = f.force ? `; ${f.force}` : "";
	const cost = f.cost ? `; ${f.cost}` : "";
	return `pi-fold ${commitClause(f)}${force}${cost}${replacedClause(f)}. /${statusCommand} lists the folds.`;
}
