// The human's `/fold-context expand-all`: every fold of the branch restored, so the session reads
// whole (before uninstalling pi-fold, or changing its entry types). The plan: every placed fold
// that is still collapsed, outer before inner, each only after its source verifies (the store's
// blob, or the session's own entries when the store has none: bound-source.ts); a fold whose source
// cannot be verified stays folded and is named, with what to do when its blob is damaged
// (actions/source-failure.ts). Pending marks are withdrawn (they would fold again at a later
// commit). Each restore is recorded exactly as an expand is (one `expand` record per fold, actor
// human), so the next commit lands them all in one rewrite and the undo is `refold`.
// Automatic folding then pauses in this process (the ladder and the rescue would fold again before
// the human uninstalls); when the session whole would not fit pi-fold's budget, the reply says Pi's
// own compaction will make it fit. The runtime appends the records.

import { errorMessage, nounFor, plural } from "../common/index.ts";
import { buildSnapshot, type Snapshot, windowTokens } from "../policy/index.ts";
import type { ActionResult } from "./actions/shared.ts";
import { sourceNextStep } from "./actions/source-failure.ts";
import { readBoundSource } from "./bound-source.ts";
import type { Host, SourceStore } from "./ports.ts";
import type { RuntimePort } from "./runtime.ts";

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

/** The window with the session whole against pi-fold's budget, when it does not fit (estimated tokens). */
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

/** The plan in plain words, for the human. */
export function expandAllText(plan: ExpandAllPlan, commandName: string, overflow?: Overflow): string {
	const lines: string[] = [];
	if (plan.expand.length === 0 && plan.refused.length === 0 && plan.marks.length === 0)
		lines.push(
			plan.open.length > 0
				? `Nothing to expand: all ${plural(plan.open.length, "fold")} on this branch ${nounFor(plan.open.length, "is", "are")} already expanded.`
				: "Nothing to expand: this branch has no folds.",
		);
	else {
		const parts: string[] = [];
		if (plan.expand.length > 0) parts.push(`Expanding ${plural(plan.expand.length, "fold")}`);
		if (plan.open.length > 0) parts.push(`${plural(plan.open.length, "fold")} already expanded`);
		if (plan.marks.length > 0)
			parts.push(`withdrew ${plural(plan.marks.length, "pending mark")} (not yet folded in the window)`);
		if (parts.length > 0) {
			const first = parts.join("; ");
			const lands =
				plan.expand.length > 0
					? ` The model sees the original entries after the agent's next turn; undo one with /${commandName} refold <fold-id>.`
					: "";
			lines.push(`${first.charAt(0).toUpperCase()}${first.slice(1)}.${lands}`);
		}
	}
	for (const r of plan.refused)
		lines.push(`Not expanded: ${r.reason}. It stays folded, with any folds inside it.`, ...(r.next ? [r.next] : []));
	for (const u of plan.unplaced)
		lines.push(
			`Not expanded: fold ${u.id} is not in the context (${u.reason}); /${commandName} peek ${u.id} reads it.`,
		);
	if (overflow)
		lines.push(
			`The session whole is ~${fmt(overflow.whole)} tokens, more than pi-fold's budget of ~${fmt(overflow.budget)}: Pi's own compaction will summarize the oldest part to make it fit, as it would without pi-fold.`,
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
		const whole = runtime.windowEstimate(host, snap) + plan.growth;
		const budget = runtime.estimatedBudget(host);
		const overflow = plan.expand.length > 0 && whole > budget ? { whole, budget } : undefined;
		return {
			text: expandAllText(plan, runtime.options.commandNames.fold, overflow),
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
