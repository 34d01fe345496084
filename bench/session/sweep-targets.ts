// The cost policy's targets (issues 9 and 10), judged on a whole window sweep, every ratio against
// the cheaper native arm at the same window and the same price table (`native` or `native-tuned`,
// native-baseline.ts; since issue 20), the verdict naming which one it was. A target names its bound;
// the verdict says met or MISSED with what was measured, window by window where it failed. Nothing is
// loosened to pass. Pure.

import { DEFAULT_PIFOLD_ARMS } from "./default-targets.ts";
import { cheaperNative, isNativeArm, type PriceTable } from "./native-baseline.ts";
import { predictionError } from "./predictions.ts";
import type { ArmReport } from "./report-schema.ts";
import type { Report } from "./session-report.ts";

export { DEFAULT_PIFOLD_ARMS };

export interface SweepVerdict {
	readonly target: string;
	readonly measured: string;
	readonly met: boolean;
}

/** One Markdown table row. */
export const markdownRow = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

/** The verdict table's lines: its head, then one row per verdict, met or MISSED. */
export function verdictRows(verdicts: readonly SweepVerdict[]): string[] {
	return [
		markdownRow(["Target", "Measured", "Verdict"]),
		markdownRow(["---", "---", "---"]),
		...verdicts.map((v) => markdownRow([v.target, v.measured, v.met ? "met" : "MISSED"])),
	];
}

type Measure = (arm: ArmReport) => number;
const cost: Measure = (a) => a.totals.cost;
const flat: Measure = (a) => a.totals.flatCost;
const tokens: Measure = (a) => a.totals.totalTokens;

/** One arm at one window against that window's native arms. */
interface Pair {
	readonly window: number;
	readonly arm: ArmReport;
	/** The cheaper native at the tiered table (tokens and probes are judged against it too). */
	readonly native: ArmReport | undefined;
	/** The cheaper native at flat base rates. */
	readonly nativeFlat: ArmReport | undefined;
}

function pairs(reports: readonly Report[], names?: readonly string[]): Pair[] {
	return reports.flatMap((r) => {
		const native = cheaperNative(r.arms, "tiered");
		const nativeFlat = cheaperNative(r.arms, "flat");
		return r.arms
			.filter((a) => !isNativeArm(a) && (!names || names.includes(a.name)))
			.map((arm) => ({ window: r.settings.window, arm, native, nativeFlat }));
	});
}

const baseline = (p: Pair, table: PriceTable = "tiered") => (table === "flat" ? p.nativeFlat : p.native);
const ratio = (p: Pair, f: Measure) => {
	const base = baseline(p, f === flat ? "flat" : "tiered");
	return base && f(base) > 0 ? f(p.arm) / f(base) : Number.NaN;
};
const where = (p: Pair) => `${p.arm.name} at ${(p.window / 1000).toLocaleString("en-US")}k`;

/** A verdict that holds when `ok` holds for every pair; the measured text lists the failures (or all, briefly). */
function every(
	target: string,
	list: readonly Pair[],
	ok: (p: Pair) => boolean,
	show: (p: Pair) => string,
): SweepVerdict {
	const failed = list.filter((p) => !ok(p));
	const shown = (failed.length > 0 ? failed : list).map((p) => `${where(p)} ${show(p)}`);
	return {
		target,
		met: list.length > 0 && failed.length === 0,
		measured: list.length === 0 ? "no such run" : shown.join("; "),
	};
}

const x = (v: number) => `${v.toFixed(2)}x`;
/** A ratio with the native it was taken against: "0.62x native-tuned". */
const vs = (p: Pair, f: Measure) =>
	`${x(ratio(p, f))} ${baseline(p, f === flat ? "flat" : "tiered")?.name ?? "no native"}`;

function costTargets(reports: readonly Report[]): SweepVerdict[] {
	const defaults = pairs(reports, DEFAULT_PIFOLD_ARMS);
	const at = (w: number) => defaults.filter((p) => p.window === w);
	const atLeast = (w: number) => defaults.filter((p) => p.window >= w);
	return [
		every(
			"pi-fold's default costs at most 0.9x the cheaper native, tiered and flat, at every window",
			defaults,
			(p) => ratio(p, cost) <= 0.9 && ratio(p, flat) <= 0.9,
			(p) => `${vs(p, cost)} / ${vs(p, flat)}`,
		),
		every(
			"pi-fold's default uses at most 0.75x the cheaper native's tokens at 200k and above",
			atLeast(200_000),
			(p) => ratio(p, tokens) <= 0.75,
			(p) => vs(p, tokens),
		),
		every(
			"pi-fold's default uses no more tokens than the cheaper native below 200k",
			defaults.filter((p) => p.window < 200_000),
			(p) => ratio(p, tokens) <= 1,
			(p) => vs(p, tokens),
		),
		every(
			"at 372k, tiered: cost at most 0.50x the cheaper native and tokens at most 0.5x",
			at(372_000),
			(p) => ratio(p, cost) <= 0.5 && ratio(p, tokens) <= 0.5,
			(p) => `${vs(p, cost)} / ${vs(p, tokens)}`,
		),
		every(
			"at 200k: cost at most 0.8x the cheaper native",
			at(200_000),
			(p) => ratio(p, cost) <= 0.8,
			(p) => vs(p, cost),
		),
		every(
			"the default with the curating agent costs at most 0.75x the cheaper native, tiered and flat, at every window",
			pairs(reports, ["pifold-agent"]),
			(p) => ratio(p, cost) <= 0.75 && ratio(p, flat) <= 0.75,
			(p) => `${vs(p, cost)} / ${vs(p, flat)}`,
		),
		every(
			"the ladder alone costs at most 0.95x the cheaper native, tiered and flat, at every window",
			pairs(reports, ["pifold-ladder"]),
			(p) => ratio(p, cost) <= 0.95 && ratio(p, flat) <= 0.95,
			(p) => `${vs(p, cost)} / ${vs(p, flat)}`,
		),
		every(
			"the ladder alone never costs more than the cheaper native (tiered and flat)",
			pairs(reports, ["pifold-ladder"]),
			(p) => ratio(p, cost) <= 1 && ratio(p, flat) <= 1,
			(p) => `${vs(p, cost)} / ${vs(p, flat)}`,
		),
	];
}

function sessionTargets(reports: readonly Report[]): SweepVerdict[] {
	const defaults = pairs(reports, DEFAULT_PIFOLD_ARMS);
	const all = pairs(reports);
	const pifold = all.filter((p) => p.arm.pifold !== undefined);
	const complete = (a: ArmReport) => a.stagesCompleted === a.stageCount;
	return [
		every(
			"pi-fold's default completes every stage at every window",
			defaults,
			(p) => complete(p.arm),
			(p) => `${p.arm.stagesCompleted}/${p.arm.stageCount}`,
		),
		every(
			"pi-fold's default compacts zero times at 120k and above",
			defaults.filter((p) => p.window >= 120_000),
			(p) => p.arm.compactions === 0,
			(p) => `${p.arm.compactions}`,
		),
		every(
			"pi-fold's default answers at least the cheaper native's probes and receipt probes",
			defaults,
			(p) =>
				!p.native ||
				(p.arm.probes.correct >= p.native.probes.correct &&
					p.arm.receiptProbes.correct >= p.native.receiptProbes.correct),
			(p) =>
				`${p.arm.probes.correct}+${p.arm.receiptProbes.correct} vs ${p.native?.probes.correct}+${p.native?.receiptProbes.correct} ${p.native?.name ?? "no native"}`,
		),
		every(
			"every arm completes every stage with zero fenced aborts",
			all,
			(p) => complete(p.arm) && (p.arm.pifold?.fencedAborts ?? 0) === 0,
			(p) => `${p.arm.stagesCompleted}/${p.arm.stageCount}, ${p.arm.pifold?.fencedAborts ?? 0} aborts`,
		),
		every(
			"zero unattributed rewrites in every pi-fold arm",
			pifold,
			(p) => (p.arm.pifold?.unattributedRewrites ?? 0) === 0,
			(p) => `${p.arm.pifold?.unattributedRewrites ?? 0}`,
		),
	];
}

function predictionTarget(reports: readonly Report[]): SweepVerdict {
	const checks = reports.flatMap((r) => r.arms.flatMap((a) => a.pifold?.commitChecks ?? []));
	const e = predictionError(checks);
	return {
		target: "predicted against actual commit cost (fresh tokens of the next request) within 10%",
		met: e.commits > 0 && e.worst <= 0.1,
		measured: `${e.within} of ${e.commits} commits within 10%; median error ${(e.median * 100).toFixed(1)}%, worst ${(e.worst * 100).toFixed(1)}%`,
	};
}

/** Every target of the sweep, in the order the issues state them. */
export function evaluateSweep(reports: readonly Report[]): SweepVerdict[] {
	return [
		...sessionTargets(reports).slice(0, 1),
		...costTargets(reports),
		...sessionTargets(reports).slice(1),
		predictionTarget(reports),
	];
}
