// The issue-5 targets, checked against one report's measured arms: pifold-epoch against native (total tokens, cost,
// surcharge, compactions, peak after the first commit, rereads, probes), pifold-epoch against pifold-immediate (fresh
// input), zero unattributed rewrites in every pi-fold arm, and the ladder-only arm completing inside its budget. Every
// verdict comes with the measured value; a target whose arms did not run is "not run". Pure functions.

import { z } from "zod";
import { pifoldServingBudget } from "./options.ts";
import type { ArmReport } from "./report-schema.ts";

export const targetSchema = z.object({
	target: z.string(),
	/** What was measured, with the ratio where the target is one. */
	measured: z.string(),
	ratio: z.number().nullable(),
	/** true met, false missed, null not run (an arm it compares is missing). */
	met: z.boolean().nullable(),
});

export type Target = z.infer<typeof targetSchema>;

const int = (n: number): string => Math.round(n).toLocaleString("en-US");

function ratioTarget(
	target: string,
	a: number | undefined,
	b: number | undefined,
	limit: number,
	show: (n: number) => string = int,
): Target {
	if (a === undefined || b === undefined) return { target, measured: "not run", ratio: null, met: null };
	const ratio = b === 0 ? (a === 0 ? 0 : Number.POSITIVE_INFINITY) : a / b;
	const shown = Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "inf";
	return {
		target,
		measured: `${shown} (${show(a)} vs ${show(b)})`,
		ratio: Number.isFinite(ratio) ? ratio : null,
		met: ratio <= limit,
	};
}

function check(target: string, measured: string | undefined, met: boolean): Target {
	return measured === undefined
		? { target, measured: "not run", ratio: null, met: null }
		: { target, measured, ratio: null, met };
}

export function evaluateTargets(arms: readonly ArmReport[], settings: { window: number; maxTokens: number }): Target[] {
	const by = new Map(arms.map((a) => [a.name, a]));
	const epoch = by.get("pifold-epoch");
	const native = by.get("native");
	const immediate = by.get("pifold-immediate");
	const ladder = by.get("pifold-ladder");
	const budget = pifoldServingBudget(settings.window, settings.maxTokens);
	const both = epoch && native;
	const usd = (n: number): string => `$${n.toFixed(2)}`;
	const targets: Target[] = [
		ratioTarget(
			"pifold-epoch vs native: total tokens <= 0.60x",
			epoch?.totals.totalTokens,
			native?.totals.totalTokens,
			0.6,
		),
		ratioTarget("pifold-epoch vs native: cost <= 0.55x", epoch?.totals.cost, native?.totals.cost, 0.55, usd),
		check(
			"pifold-epoch: no request over the long-context threshold (surcharge $0)",
			epoch && `${usd(epoch.totals.surcharge)} on ${epoch.totals.surchargeRequests} requests`,
			epoch?.totals.surchargeRequests === 0,
		),
		check("pifold-epoch: zero compactions", epoch && `${epoch.compactions}`, epoch?.compactions === 0),
		check(
			`pifold-epoch: peak context after the first commit <= 80% of the serving budget (${int(budget)})`,
			epoch &&
				(epoch.peakAfterFirstRewrite === null
					? "no commit"
					: `${int(epoch.peakAfterFirstRewrite)} = ${((epoch.peakAfterFirstRewrite / budget) * 100).toFixed(1)}%`),
			epoch?.peakAfterFirstRewrite !== null &&
				epoch?.peakAfterFirstRewrite !== undefined &&
				epoch.peakAfterFirstRewrite <= 0.8 * budget,
		),
		ratioTarget("pifold-epoch vs native: file rereads <= 0.3x", epoch?.rereads.count, native?.rereads.count, 0.3),
		check(
			"pifold-epoch vs native: probes correct >= native's, receipts included",
			both
				? `${epoch.probes.correct} vs ${native.probes.correct} of ${native.probes.total}; receipts ${epoch.receiptProbes.correct} vs ${native.receiptProbes.correct} of ${native.receiptProbes.total}`
				: undefined,
			!!both &&
				epoch.probes.correct >= native.probes.correct &&
				epoch.receiptProbes.correct >= native.receiptProbes.correct,
		),
		ratioTarget(
			"pifold-epoch vs pifold-immediate: fresh input <= 0.2x",
			epoch?.totals.freshInput,
			immediate?.totals.freshInput,
			0.2,
		),
	];
	const pifold = arms.filter((a) => a.pifold);
	targets.push(
		check(
			"every pi-fold arm: zero unattributed rewrites",
			pifold.length > 0 ? pifold.map((a) => `${a.name} ${a.pifold?.unattributedRewrites ?? 0}`).join(", ") : undefined,
			pifold.every((a) => a.pifold?.unattributedRewrites === 0),
		),
		check(
			`pifold-ladder: completes every stage inside the budget (${int(budget)})`,
			ladder &&
				`${ladder.stagesCompleted} of ${ladder.stageCount} stages, peak ${int(ladder.totals.peakContext)}, ${ladder.compactions} compactions`,
			ladder?.status === "complete" && ladder.totals.peakContext <= budget,
		),
	);
	return targets;
}
