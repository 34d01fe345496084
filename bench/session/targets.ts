// The spec's targets for its epoch scheduling mode (not pi-fold's default), checked against one report's measured
// arms: pifold-epoch against the cheaper native (of `native` and `native-tuned`, native-baseline.ts; the measured
// text names it) on total tokens, cost, surcharge, compactions, peak after the first commit, rereads, probes; and
// against pifold-immediate (fresh input). Each carries `mode: "epoch"`: a miss is that mode's, printed in its own
// table, not a failure of the default (whose targets are default-targets.ts). Every verdict comes with the
// measured value; a target whose arms did not run is "not run". Pure functions.

import { z } from "zod";
import { pifoldServingBudget } from "./demo-options.ts";
import { cheaperNative } from "./native-baseline.ts";
import type { ArmReport } from "./report-schema.ts";

export const targetSchema = z.object({
	target: z.string(),
	/** What was measured, with the ratio where the target is one. */
	measured: z.string(),
	ratio: z.number().nullable(),
	/** true met, false missed, null not run (an arm it compares is missing). */
	met: z.boolean().nullable(),
	/** The non-default scheduling mode the target is about ("epoch"); absent for targets about the default. */
	mode: z.string().optional(),
});

export type Target = z.infer<typeof targetSchema>;

const int = (n: number): string => Math.round(n).toLocaleString("en-US");

function ratioTarget(
	target: string,
	a: number | undefined,
	b: number | undefined,
	limit: number,
	show: (n: number) => string = int,
	against?: string,
): Target {
	if (a === undefined || b === undefined) return { target, measured: "not run", ratio: null, met: null };
	const ratio = b === 0 ? (a === 0 ? 0 : Number.POSITIVE_INFINITY) : a / b;
	const shown = Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "inf";
	return {
		target,
		measured: `${shown} (${show(a)} vs ${show(b)}${against ? ` of ${against}` : ""})`,
		ratio: Number.isFinite(ratio) ? ratio : null,
		met: ratio <= limit,
	};
}

function check(target: string, measured: string | undefined, met: boolean): Target {
	return measured === undefined
		? { target, measured: "not run", ratio: null, met: null }
		: { target, measured, ratio: null, met };
}

const usd = (n: number): string => `$${n.toFixed(2)}`;

export function evaluateTargets(arms: readonly ArmReport[], settings: { window: number; maxTokens: number }): Target[] {
	const by = new Map(arms.map((a) => [a.name, a]));
	const epoch = by.get("pifold-epoch");
	const native = cheaperNative(arms);
	const budget = pifoldServingBudget(settings.window, settings.maxTokens);
	return [
		...epochSavingsTargets(epoch, native),
		epochPeakTarget(epoch, budget),
		...epochRecallTargets(epoch, native),
		ratioTarget(
			"pifold-epoch vs pifold-immediate: fresh input <= 0.2x",
			epoch?.totals.freshInput,
			by.get("pifold-immediate")?.totals.freshInput,
			0.2,
		),
	].map((t) => ({ ...t, mode: "epoch" }));
}

/** pifold-epoch against the cheaper native on what a session spends: total tokens, cost, the surcharge, compactions. */
function epochSavingsTargets(epoch: ArmReport | undefined, native: ArmReport | undefined): Target[] {
	return [
		ratioTarget(
			"pifold-epoch vs the cheaper native: total tokens <= 0.60x",
			epoch?.totals.totalTokens,
			native?.totals.totalTokens,
			0.6,
			int,
			native?.name,
		),
		ratioTarget(
			"pifold-epoch vs the cheaper native: cost <= 0.55x",
			epoch?.totals.cost,
			native?.totals.cost,
			0.55,
			usd,
			native?.name,
		),
		check(
			"pifold-epoch: no request over the long-context threshold (surcharge $0)",
			epoch && `${usd(epoch.totals.surcharge)} on ${epoch.totals.surchargeRequests} requests`,
			epoch?.totals.surchargeRequests === 0,
		),
		check("pifold-epoch: zero compactions", epoch && `${epoch.compactions}`, epoch?.compactions === 0),
	];
}

/** pifold-epoch's peak request context after its first commit, against the serving budget. */
function epochPeakTarget(epoch: ArmReport | undefined, budget: number): Target {
	return check(
		`pifold-epoch: peak context after the first commit <= 80% of the serving budget (${int(budget)})`,
		epoch &&
			(epoch.peakAfterFirstRewrite === null
				? "no commit"
				: `${int(epoch.peakAfterFirstRewrite)} = ${((epoch.peakAfterFirstRewrite / budget) * 100).toFixed(1)}%`),
		epoch?.peakAfterFirstRewrite !== null &&
			epoch?.peakAfterFirstRewrite !== undefined &&
			epoch.peakAfterFirstRewrite <= 0.8 * budget,
	);
}

/** pifold-epoch against the cheaper native on what the agent recalls: file rereads, probes and receipt probes. */
function epochRecallTargets(epoch: ArmReport | undefined, native: ArmReport | undefined): Target[] {
	const both = epoch && native;
	return [
		ratioTarget(
			"pifold-epoch vs the cheaper native: file rereads <= 0.3x",
			epoch?.rereads.count,
			native?.rereads.count,
			0.3,
			int,
			native?.name,
		),
		check(
			"pifold-epoch vs the cheaper native: probes correct >= its, receipts included",
			both
				? `${epoch.probes.correct} vs ${native.probes.correct} of ${native.probes.total}; receipts ${epoch.receiptProbes.correct} vs ${native.receiptProbes.correct} of ${native.receiptProbes.total} (${native.name})`
				: undefined,
			!!both &&
				epoch.probes.correct >= native.probes.correct &&
				epoch.receiptProbes.correct >= native.receiptProbes.correct,
		),
	];
}
