// The status data model, for the agent (the `status` action) and the human (`/context`): one plain
// object built from a snapshot and the telemetry (folds in each place: fold-forest.ts; pending marks and what a commit would free
// and rewrite, window occupancy against the serving budget, the observer's counters, refusals, why
// automatic folding is paused, the one occupancy figure the human sees, Pi's own, and where the
// originals are kept). render.ts
// turns it into the agent's bounded, paged text; context-views.ts and details.ts into the human's views.
// Pure over a snapshot.

import type { PlacedFold } from "../../lattice/index.ts";
import { markViews, type ServingBudget, type Snapshot, windowTokens } from "../../policy/index.ts";
import { resolveStoreDir, type StoreUsage } from "../../store/index.ts";
import { type FoldForest, foldForest, sourcePresence } from "../fold-forest.ts";
import type { Host, SourceStore } from "../ports.ts";
import type { RuntimePort } from "../runtime-port.ts";
import type { TelemetryView } from "../telemetry.ts";

/** A pending mark as status shows it. */
interface MarkStatus {
	readonly id: string;
	readonly origin: string;
	readonly freedTokens: number;
	readonly state: string;
}

/** Pending marks with origin, what a commit would free and the prefix it would rewrite. */
export interface SchedulingStatus {
	readonly mode: "cost" | "immediate" | "epoch";
	readonly marks: readonly MarkStatus[];
	readonly commitWouldFreeShare: number;
	readonly commitWouldFreeTokens: number;
	readonly prefixTokensRewritten: number;
	readonly lastDecision: TelemetryView["schedule"];
}

/**
 * The one occupancy figure every view shows: the host's own (Pi's footer: tokens of the model's
 * window and their percent), or, without one, the estimate below over the model's window.
 */
interface UsageFigure {
	readonly tokens: number | null;
	readonly window: number;
	readonly percent: number | null;
	/** True when the host supplied it (the same figure as its footer). */
	readonly fromHost: boolean;
}

export interface StatusModel {
	readonly snap: Snapshot;
	readonly usage: UsageFigure;
	readonly telemetry: TelemetryView;
	readonly scheduling: SchedulingStatus;
	readonly occupancy: { readonly tokens: number; readonly source: string };
	readonly budget: ServingBudget;
	/** Every fold in the window, in transcript order. */
	readonly folds: readonly PlacedFold[];
	/** Every fold in force, each in one place: the window, summarized by Pi (still readable), unreadable. */
	readonly forest: FoldForest;
	readonly collapsed: number;
	readonly paused: string | null;
	readonly evidenceIngestion: boolean;
	/** Where the exact originals of the folds are kept (the fold store's directory). */
	readonly storeDir: string;
	/** Pi's tokens per pi-fold estimated token (meter.ts calibration), for estimates a person reads. */
	readonly rate: number;
	readonly overhead: number;
	/** The cost arithmetic rests on assumed prices (the model and the settings give none): no dollars. */
	readonly pricesAssumed: boolean;
	/**
	 * The fold store's size and this session's share of it (undefined when the store cannot tell):
	 * read from disk when called, so only `/context details`, which shows it, pays for the walk.
	 */
	readonly store: () => StoreUsage | undefined;
}

/** The window's size: the host's own estimate when it has one, else chars/4 of the raw transcript. */
function occupancyOf(host: Pick<Host, "contextTokens">, snap: Snapshot) {
	const tokens = host.contextTokens();
	if (tokens !== null) return { tokens, source: "Pi's context usage" };
	let chars = 0;
	for (const e of snap.view.transcript) chars += JSON.stringify(e.message).length;
	return { tokens: Math.ceil(chars / 4), source: "estimate (chars/4 of the raw transcript)" };
}

function usageOf(host: Pick<Host, "contextUsage">, snap: Snapshot, estimate: number): UsageFigure {
	const own = host.contextUsage?.();
	if (own) return { tokens: own.tokens, window: own.window, percent: own.percent, fromHost: true };
	const window = snap.budget.descriptorWindow;
	return { tokens: estimate, window, percent: (estimate / window) * 100, fromHost: false };
}

function schedulingOf(runtime: RuntimePort, snap: Snapshot, telemetry: TelemetryView): SchedulingStatus {
	const tokens = windowTokens(snap);
	const views = markViews(snap, tokens);
	const marks = views.map((v) => {
		const mark = snap.state.pendingMarks.get(v.id);
		const origin = mark?.topUp ? "top-up" : (mark?.actor ?? v.actor);
		const state = v.protectedBy
			? `refuses at commit: ${v.protectedBy}`
			: v.inFreshTail
				? "waits (fresh tail)"
				: "ready";
		return { id: v.id, origin, freedTokens: v.freedTokens, state };
	});
	const ready = views.filter((v) => v.protectedBy === null);
	const freed = ready.reduce((sum, v) => sum + v.freedTokens, 0);
	const first = ready.length > 0 ? Math.min(...ready.map((v) => v.start)) : -1;
	return {
		mode: runtime.options.foldScheduling,
		marks,
		commitWouldFreeShare: freed / snap.budget.budgetTokens,
		commitWouldFreeTokens: freed,
		prefixTokensRewritten: first >= 0 ? tokens.range(0, first) : 0,
		lastDecision: telemetry.schedule,
	};
}

/** The store's usage and this session's share (its folds' sources), or undefined when it cannot tell or fails. */
function storeUsageOf(store: SourceStore, snap: Snapshot): StoreUsage | undefined {
	try {
		return store.usage?.([...snap.state.folds.values(), ...snap.known.values()].map((f) => f.sourceSha256));
	} catch {
		return undefined;
	}
}

/** Builds the status model of the host's session now. */
export function statusModel(runtime: RuntimePort, host: Host): StatusModel {
	const snap = runtime.snapshot(host);
	const telemetry = runtime.telemetry.view();
	const folds = snap.lattice.inOrder();
	const occupancy = occupancyOf(host, snap);
	return {
		snap,
		usage: usageOf(host, snap, occupancy.tokens),
		telemetry,
		scheduling: schedulingOf(runtime, snap, telemetry),
		occupancy,
		budget: snap.budget,
		folds,
		forest: foldForest(snap, sourcePresence(runtime.store(host))),
		collapsed: folds.filter((f) => !snap.state.expanded.has(f.record.id)).length,
		paused: runtime.pauseReason(),
		evidenceIngestion: runtime.options.evidenceIngestion,
		storeDir: resolveStoreDir({
			sessionDir: host.session().dir,
			sessionId: host.session().id,
			storeDirName: runtime.names.storeDirName,
		}),
		rate: runtime.calibration.rate,
		overhead: runtime.calibration.overhead,
		pricesAssumed: runtime.pricesAssumed(host),
		store: () => storeUsageOf(runtime.store(host), snap),
	};
}
