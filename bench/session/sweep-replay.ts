// The replay against the benchmark (issue 20): each sweep window's native session file (native.session.jsonl,
// Pi's own file of the `native` arm) replayed offline through `pi-fold replay`'s `replaySession` (src/replay) at the
// benchmark's price table (its base rates and its long-context tier, which the replay's policy sees as a live
// session sees its model's), its predicted cost (requests and metered briefs) and commits set beside the
// `pifold-ladder` arm's measured cost and fold events at the same window. The verdict: within 10% on cost and
// 25% on fold events at every window the sweep ran with both arms.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSessionFile, replaySession } from "../../src/replay/index.ts";
import { PRICES } from "./ledger.ts";
import type { Report } from "./session-report.ts";
import { markdownRow, type SweepVerdict, verdictRows } from "./sweep-targets.ts";

/** The arm whose session is replayed, and the arm the replay predicts. */
export const REPLAYED_ARM = "native";
export const PREDICTED_ARM = "pifold-ladder";
/** The bounds of the target: relative error on cost, and on fold events. */
export const REPLAY_COST_BOUND = 0.1;
export const REPLAY_FOLD_BOUND = 0.25;

/**
 * The benchmark's price table as the replay takes it (`--prices 5,30,0.5,5 --tier 272000:10,45,1,10`: fresh
 * prompt tokens bill as input, and a request above the threshold at the long-context rates).
 */
export const REPLAY_PRICES = {
	input: PRICES.base.input,
	output: PRICES.base.output,
	cacheRead: PRICES.base.cacheRead,
	cacheWrite: PRICES.base.input,
	tiers: [
		{
			input: PRICES.long.input,
			output: PRICES.long.output,
			cacheRead: PRICES.long.cacheRead,
			cacheWrite: PRICES.long.input,
			inputTokensAbove: PRICES.longContextThreshold,
		},
	],
} as const;

export interface ReplayAgreement {
	readonly window: number;
	/** Why this window is not compared, or null. */
	readonly notComparable: string | null;
	readonly predicted: { readonly cost: number; readonly folds: number; readonly overflows: number } | null;
	readonly measured: { readonly cost: number; readonly folds: number } | null;
}

/** Replays the window's native session (in `dir`) and sets it beside the measured ladder arm. */
export async function replayAgainstBenchmark(report: Report, dir: string): Promise<ReplayAgreement> {
	const window = report.settings.window;
	const ladder = report.arms.find((a) => a.name === PREDICTED_ARM);
	const native = report.arms.find((a) => a.name === REPLAYED_ARM);
	const none = (why: string): ReplayAgreement => ({ window, notComparable: why, predicted: null, measured: null });
	if (!ladder || !native) return none(`needs the ${REPLAYED_ARM} and ${PREDICTED_ARM} arms`);
	const measured = { cost: ladder.totals.cost, folds: ladder.foldEvents };
	const file = parseSessionFile(readFileSync(join(dir, `${REPLAYED_ARM}.session.jsonl`), "utf8"));
	const r = await replaySession(file, { window, maxOutput: report.settings.maxTokens, prices: REPLAY_PRICES });
	return {
		window,
		notComparable: null,
		predicted: {
			cost: r.pifold.cost + r.pifold.briefs.cost,
			folds: r.pifold.commits,
			overflows: r.pifold.overflows.length,
		},
		measured,
	};
}

/** predicted / measured - 1, or NaN when nothing was measured. */
export function relativeError(predicted: number, measured: number): number {
	return measured > 0 ? predicted / measured - 1 : predicted === 0 ? 0 : Number.NaN;
}

const within = (a: ReplayAgreement) =>
	a.predicted !== null &&
	a.measured !== null &&
	Math.abs(relativeError(a.predicted.cost, a.measured.cost)) <= REPLAY_COST_BOUND &&
	Math.abs(relativeError(a.predicted.folds, a.measured.folds)) <= REPLAY_FOLD_BOUND;

const k = (w: number) => `${(w / 1000).toLocaleString("en-US")}k`;
const pct = (e: number) => `${e >= 0 ? "+" : ""}${(e * 100).toFixed(1)}%`;

/** The target's verdict: met when every comparable window agrees (and at least one was compared). */
export function replayVerdict(agreements: readonly ReplayAgreement[]): SweepVerdict {
	const compared = agreements.filter((a) => a.predicted !== null && a.measured !== null);
	const failed = compared.filter((a) => !within(a));
	const shown = (failed.length > 0 ? failed : compared).map((a) => {
		const p = a.predicted as NonNullable<ReplayAgreement["predicted"]>;
		const m = a.measured as NonNullable<ReplayAgreement["measured"]>;
		return `${k(a.window)} cost ${pct(relativeError(p.cost, m.cost))}, fold events ${pct(relativeError(p.folds, m.folds))}`;
	});
	const skipped = agreements.filter((a) => a.notComparable !== null).map((a) => k(a.window));
	return {
		target: `replay predicts ${PREDICTED_ARM} within ${REPLAY_COST_BOUND * 100}% (cost) and ${REPLAY_FOLD_BOUND * 100}% (fold events)`,
		met: compared.length > 0 && failed.length === 0,
		measured:
			(compared.length === 0 ? "no comparable window" : shown.join("; ")) +
			(skipped.length > 0 ? `; not comparable at ${skipped.join(", ")}` : ""),
	};
}

const usd = (v: number) => `$${v.toFixed(2)}`;

/** The section "replay against the benchmark": a row per window, then the verdict. Markdown. */
export function renderReplayAgreement(agreements: readonly ReplayAgreement[], verdict: SweepVerdict): string {
	const rows = agreements.map((a) => {
		const p = a.predicted;
		const m = a.measured;
		if (!p || !m)
			return markdownRow([
				k(a.window),
				"not comparable",
				m ? usd(m.cost) : "",
				"",
				"",
				m ? `${m.folds}` : "",
				a.notComparable ?? "",
			]);
		return markdownRow([
			k(a.window),
			usd(p.cost),
			usd(m.cost),
			`${(p.cost / m.cost).toFixed(2)}x`,
			`${p.folds}`,
			`${m.folds}`,
			`${m.folds > 0 ? (p.folds / m.folds).toFixed(2) : "-"}x${p.overflows > 0 ? `; ${p.overflows} requests over the window` : ""}`,
		]);
	});
	return [
		"Replay against the benchmark: each window's `native` session file replayed by `pi-fold replay` at the benchmark's prices (5, 30, 0.5 and 5 dollars per million input, output, cache-read and cache-write tokens; 10, 45, 1 and 10 for a request above 272,000 tokens), against the `pifold-ladder` arm measured at that window.",
		"",
		markdownRow([
			"window",
			"predicted cost",
			"measured cost",
			"cost ratio",
			"predicted commits",
			"measured fold events",
			"fold ratio",
		]),
		markdownRow(["---", "---:", "---:", "---:", "---:", "---:", "---:"]),
		...rows,
		"",
		...verdictRows([verdict]),
		"",
	].join("\n");
}
