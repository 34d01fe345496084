// The sweep's targets with realistic reuse on, judged at every window and every plan length against the cheaper
// native of the same run: pi-fold's default (the ladder alone and the curating agent) costs at most 0.75x, answers at
// least its probes, and has no more blind misses on reused facts (reuse-report.ts). Met or MISSED with what was
// measured; nothing loosened. Pure over the reports.

import { cheaperNative } from "./native-baseline.ts";
import type { ArmReport } from "./report-schema.ts";
import type { Report } from "./session-report.ts";
import { DEFAULT_PIFOLD_ARMS, type SweepVerdict } from "./sweep-targets.ts";

/** The default's cost over the cheaper native's, at most. */
export const REUSE_COST_BOUND = 0.75;

interface Pair {
	where: string;
	arm: ArmReport;
	native: ArmReport | undefined;
}

function pairs(windows: readonly Report[], plans: readonly Report[]): Pair[] {
	const label = (r: Report, fromPlans: boolean) =>
		fromPlans
			? `${r.plan.stageCount} stages at ${(r.settings.window / 1000).toLocaleString("en-US")}k`
			: `${(r.settings.window / 1000).toLocaleString("en-US")}k`;
	const seen = new Set<Report>();
	const out: Pair[] = [];
	for (const [list, fromPlans] of [
		[windows, false],
		[plans, true],
	] as const)
		for (const r of list) {
			if (seen.has(r)) continue;
			seen.add(r);
			const native = cheaperNative(r.arms, "tiered");
			for (const arm of r.arms.filter((a) => DEFAULT_PIFOLD_ARMS.includes(a.name)))
				out.push({ where: `${arm.name} at ${label(r, fromPlans)}`, arm, native });
		}
	return out;
}

function every(target: string, list: readonly Pair[], ok: (p: Pair) => boolean, show: (p: Pair) => string) {
	const failed = list.filter((p) => !ok(p));
	const shown = (failed.length > 0 ? failed : list).map((p) => `${p.where} ${show(p)}`);
	return {
		target,
		met: list.length > 0 && failed.length === 0,
		measured: list.length === 0 ? "no such run" : shown.join("; "),
	} satisfies SweepVerdict;
}

const costRatio = (p: Pair) =>
	p.native && p.native.totals.cost > 0 ? p.arm.totals.cost / p.native.totals.cost : Number.NaN;

/** The three targets over every window and every plan length (a run in both lists counts once). */
export function reuseSweepVerdicts(windows: readonly Report[], plans: readonly Report[]): SweepVerdict[] {
	const list = pairs(windows, plans);
	const reused = list.filter((p) => (p.arm.reuse?.facts ?? 0) > 0);
	return [
		every(
			`with reuse on, pi-fold's default costs at most ${REUSE_COST_BOUND}x the cheaper native at every window and plan length`,
			list,
			(p) => costRatio(p) <= REUSE_COST_BOUND,
			(p) => `${costRatio(p).toFixed(2)}x ${p.native?.name ?? "no native"}`,
		),
		every(
			"with reuse on, pi-fold's default answers at least the cheaper native's probes at every window and plan length",
			list,
			(p) => !p.native || p.arm.probes.correct >= p.native.probes.correct,
			(p) => `${p.arm.probes.correct} vs ${p.native?.probes.correct ?? "-"}`,
		),
		every(
			"pi-fold's default has no more blind misses on reused facts than the cheaper native at every window and plan length",
			reused,
			(p) => (p.arm.reuse?.blind ?? 0) <= (p.native?.reuse?.blind ?? Number.POSITIVE_INFINITY),
			(p) => `${p.arm.reuse?.blind} vs ${p.native?.reuse?.blind ?? "-"} of ${p.arm.reuse?.facts}`,
		),
	];
}
