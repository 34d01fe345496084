// The human's `/fold-context expand-all`: every fold of the branch restored, so the session reads
// whole (before uninstalling pi-fold, or changing its entry types). The plan: every placed fold
// that is still collapsed, outer before inner, each only after its source verifies (the store's
// blob, or the session's own entries when the store has none: bound-source.ts); a fold whose source
// cannot be verified stays folded and is named, with what to do when its blob is damaged
// (actions/source-failure.ts). Pending marks are withdrawn (they would fold again at a later
// commit). Each restore is recorded exactly as an expand is (one `expand` record per fold, actor
// human), so the next commit lands them all in one rewrite and the undo is `refold`.
// Automatic folding then pauses in this process (the ladder and the rescue would fold again before
// the human uninstalls); when the session whole would not fit pi-fold's limit, the reply says Pi's
// own compaction will make it fit. The reply opens with the outcome in one line, folds counted as
// /context counts them (the top-level ones, every fold beside). The runtime appends the records.

import { errorMessage, nounFor, plural } from "../common/index.ts";
import { buildSnapshot, type Snapshot, windowTokens } from "../policy/index.ts";
import type { ActionResult } from "./actions/shared.ts";
import { sourceNextStep } from "./actions/source-failure.ts";
import { readBoundSource } from "./bound-source.ts";
import { foldCounts, foldForest, sourcePresence } from "./fold-forest.ts";
import type { Host, SourceStore } from "./ports.ts";
import type { RuntimePort } from "./runtime-port.ts";

/** What expand-all will record. */
export interface ExpandAllPlan {
	/** Folds to expand, outer before inner (each source verified). */
	readonly expand: readonly string[];
	/** Folds already expanded (nothing to record). */
	readonly open: readonly string[];
	/** Folds whose source failed verification: they stay folded, and so do the folds inside them. */
	readonly refused: readonly { readonly foldId: string; readonly reason: string; readonly next?: string }[];
	/** Pending marks to withdraw. */
	readonly marks: readonly string[];
	/** Folds in state that are not on this transcript (a compaction summarized their entries). */
	readonly unplaced: readonly { readonly id: string; readonly reason: string }[];
	/** Estimated tokens the expands bring back into the window. */
	readonly growth: number;
}

/** The window with the session whole against pi-fold's limit, when it does not fit (Pi's tokens, as /context shows them). */
export interface Overflow {
	readonly whole: number;
	readonly budget: number;
}

/** Plans expand-all over one snapshot: reads (and verifies) each collapsed fold's source once. */
export async function planExpandAll(
	snap: Snapshot,
	store: SourceStore,
	nextStep: (error: unknown, foldId: string) => string | undefined = () => undefined,
): Promise<ExpandAllPlan> {
	const expand: string[] = [];
	const open: string[] = [];
	const refused: { foldId: string; reason: string; next?: string }[] = [];
	const blocked = new Set<string>();
	for (const fold of snap.lattice.inOrder()) {
		const id = fold.record.id;
		if (fold.parent !== null && blocked.has(fold.parent)) {
			blocked.add(id);
			continue;
		}
		if (snap.state.expanded.has(id)) {
			open.push(id);
			continue;
		}
		try {
			await readBoundSource(store, fold.record, snap.view);
			expand.push(id);
		} catch (error) {
			const next = nextStep(error, id);
			refused.push({ foldId: id, reason: errorMessage(error), ...(next ? { next } : {}) });
			blocked.add(id);
		}
	}
	const opened = buildSnapshot(
		snap.view,
		{ ...snap.state, expanded: new Set([...snap.state.expanded, ...expand]) },
		snap.known,
		snap.budget,
	);
	const growth = Math.max(0, windowTokens(opened).total - windowTokens(snap).total);
	return { expand, open, refused, marks: [...snap.state.pendingMarks.keys()], unplaced: snap.unplaced, growth };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Refused folds named one per line, this many at most (the rest counted). */
const REFUSED_LISTED = 3;

/** `n` folds of which `top` are top-level, as /context counts them: "2 folds (4 counting those nested inside)". */
function counted(top: number, n: number): string {
	return `${plural(top, "fold")}${n > top ? ` (${fmt(n)} counting those nested inside)` : ""}`;
}

/** How many of `ids` are top-level in the window (the lattice's roots), as /context's headline counts them. */
function topLevel(snap: Snapshot, ids: readonly string[]): number {
	return ids.filter((id) => snap.lattice.get(id)?.parent === null).length;
}

/** The plan's counts as /context counts folds: the top-level ones, every fold beside. */
export interface ExpandAllCounts {
	/** Top-level folds among those to expand, and among those already expanded. */
	readonly expandTop: number;
	readonly openTop: number;
	/** Top-level folds Pi's compaction summarized (no place to restore them), as /context counts them. */
	readonly unplacedTop: number;
}

/** The counts of `plan` over `snap`; `unplacedTop` as the fold forest counts summarized folds. */
export function expandAllCounts(snap: Snapshot, plan: ExpandAllPlan, unplacedTop: number): ExpandAllCounts {
	return { expandTop: topLevel(snap, plan.expand), openTop: topLevel(snap, plan.open), unplacedTop };
}

/**
 * The plan in plain words, for the human: the outcome in one summary line (folds counted as
 * /context counts them), then only what needs a word more: the folds whose source failed (a few
 * named, the rest counted), the limit when the session whole would not fit it (/context's limit,
 * in Pi's tokens), and that automatic folding is paused.
 */
export function expandAllText(
	plan: ExpandAllPlan,
	commandName: string,
	counts: ExpandAllCounts,
	overflow?: Overflow,
): string {
	const lines: string[] = [];
	const nothing = plan.expand.length === 0 && plan.refused.length === 0 && plan.marks.length === 0;
	if (nothing && plan.unplaced.length === 0)
		lines.push(
			plan.open.length > 0
				? `Nothing to expand: all ${counted(counts.openTop, plan.open.length)} on this branch ${nounFor(counts.openTop, "is", "are")} already expanded.`
				: "Nothing to expand: this branch has no folds.",
		);
	else {
		const parts: string[] = [];
		if (plan.expand.length > 0) parts.push(`Expanding ${counted(counts.expandTop, plan.expand.length)}`);
		if (plan.open.length > 0) parts.push(`${counted(counts.openTop, plan.open.length)} already expanded`);
		if (plan.marks.length > 0)
			parts.push(`withdrew ${plural(plan.marks.length, "pending mark")} (not yet folded in the window)`);
		if (plan.refused.length > 0)
			parts.push(
				`${plural(plan.refused.length, "fold")} not expanded: ${nounFor(plan.refused.length, "its", "their")} source failed its check`,
			);
		if (plan.unplaced.length > 0)
			parts.push(
				`${counted(counts.unplacedTop, plan.unplaced.length)} not expanded: Pi's compaction summarized their entries, so there is no place to restore them (/${commandName} peek <fold-id> still reads each; /context lists them)`,
			);
		const lands =
			plan.expand.length > 0
				? ` The model sees the original entries after the agent's next turn; undo one with /${commandName} refold <fold-id>.`
				: "";
		const first = parts.join("; ");
		lines.push(`${first.charAt(0).toUpperCase()}${first.slice(1)}.${lands}`);
	}
	for (const r of plan.refused.slice(0, REFUSED_LISTED))
		lines.push(`Not expanded: ${r.reason}. It stays folded, with any folds inside it.`, ...(r.next ? [r.next] : []));
	if (plan.refused.length > REFUSED_LISTED)
		lines.push(
			`And ${plural(plan.refused.length - REFUSED_LISTED, "more fold")} whose source failed its check (/context lists them).`,
		);
	if (overflow)
		lines.push(
			`The session whole would be about ${fmt(overflow.whole)} tokens, more than pi-fold's limit of ${fmt(overflow.budget)} tokens (as /context shows it): Pi's own compaction will summarize the oldest part to make it fit, as it would without pi-fold.`,
		);
	lines.push(
		"Automatic folding is paused until pi-fold is loaded again (/reload or a restart), so nothing folds before you uninstall it; folds you ask for still work.",
	);
	return lines.join("\n");
}

/** Runs expand-all for the human under the runtime's lock: plans, then records each expand and unmark. */
export function expandAll(runtime: RuntimePort, host: Host): Promise<ActionResult> {
	return runtime.transaction(host, async (decide) => {
		const snap = runtime.snapshot(host);
		const input = { runtime, host, actor: "human" as const };
		const plan = await planExpandAll(snap, runtime.store(host), (error, id) =>
			sourceNextStep(input, error, "expand", id),
		);
		for (const foldId of plan.marks) decide({ kind: "unmark", actor: "human", foldId });
		for (const foldId of plan.expand) decide({ kind: "expand", actor: "human", foldId });
		// Nothing may fold again before the human uninstalls: the ladder and the rescue stop here.
		runtime.holdAutomatic(`/${runtime.options.commandNames.fold} expand-all asked for the session whole`);
		// In Pi's tokens against pi-fold's limit, the two figures /context shows.
		const { overhead, rate } = runtime.calibration;
		const whole = overhead + (runtime.windowEstimate(host, snap) + plan.growth) * rate;
		const budget = snap.budget.budgetTokens;
		const overflow = plan.expand.length > 0 && whole > budget ? { whole, budget } : undefined;
		const forest = foldCounts(foldForest(snap, sourcePresence(runtime.store(host))), snap.state.expanded);
		const counts = expandAllCounts(snap, plan, forest.summarized + forest.unreadable);
		return {
			text: expandAllText(plan, runtime.options.commandNames.fold, counts, overflow),
			details: {
				action: "expand-all",
				expanded: plan.expand,
				open: plan.open,
				withdrawn: plan.marks,
				refused: plan.refused,
				unplaced: plan.unplaced.map((u) => u.id),
			},
			...(plan.refused.length > 0 || overflow ? { isError: true } : {}),
		};
	});
}
