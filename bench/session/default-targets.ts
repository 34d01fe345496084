// The targets one run states about pi-fold's default (the arms that run pi-fold as installed: the
// ladder alone, and the curating agent), each against the cheaper native arm of the same run: every
// stage inside the budget; cost at most 0.95x (the ladder alone) and 0.75x (with the curating
// agent), tiered and flat; tokens (at most 0.75x from a 200k window up, no more below it); the
// cheaper native's questions answered; no compaction from 120k up; the window rewritten only at a
// commit (every pi-fold arm); commit costs predicted within 10% of the next request's bill. Window-
// specific bounds (200k, 372k) only at those windows. The same bounds the window sweep judges
// (sweep-targets.ts), here on one run. A verdict comes with what was measured; a target whose arms did
// not run is "not run". Pure functions.

import { pifoldServingBudget } from "./demo-options.ts";
import { cheaperNative } from "./native-baseline.ts";
import { predictionError } from "./predictions.ts";
import type { ArmReport } from "./report-schema.ts";
import type { Target } from "./targets.ts";

/** The arms that run pi-fold's defaults: the ladder alone, and the curating agent. */
export const DEFAULT_PIFOLD_ARMS: readonly string[] = ["pifold-ladder", "pifold-agent"];

const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const x = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");

/** A target over some arms: met when `ok` holds for each; measured lists each arm's figure. */
function over(
	target: string,
	arms: readonly ArmReport[],
	ok: (a: ArmReport) => boolean,
	show: (a: ArmReport) => string,
): Target {
	if (arms.length === 0) return { target, measured: "not run", ratio: null, met: null };
	return { target, measured: arms.map((a) => `${a.name} ${show(a)}`).join("; "), ratio: null, met: arms.every(ok) };
}

/** The default arms of a run, in DEFAULT_PIFOLD_ARMS order. */
export function defaultArms(arms: readonly ArmReport[]): ArmReport[] {
	return DEFAULT_PIFOLD_ARMS.flatMap((name) => arms.filter((a) => a.name === name && a.pifold));
}

export function defaultTargets(arms: readonly ArmReport[], settings: { window: number; maxTokens: number }): Target[] {
	const defaults = defaultArms(arms);
	const tiered = cheaperNative(arms, "tiered");
	const flat = cheaperNative(arms, "flat");
	const budget = pifoldServingBudget(settings.window, settings.maxTokens);
	const ratio = (a: ArmReport, f: (r: ArmReport) => number, base: ArmReport | undefined): number =>
		base && f(base) > 0 ? f(a) / f(base) : Number.NaN;
	const cost = (a: ArmReport) => ratio(a, (r) => r.totals.cost, tiered);
	const flatCost = (a: ArmReport) => ratio(a, (r) => r.totals.flatCost, flat);
	const tokens = (a: ArmReport) => ratio(a, (r) => r.totals.totalTokens, tiered);
	const withNative = tiered && flat ? defaults : [];
	const costBound = (name: string, words: string, bound: number): Target =>
		over(
			`${words} costs at most ${bound}x the cheaper native, tiered and flat`,
			withNative.filter((a) => a.name === name),
			(a) => cost(a) <= bound && flatCost(a) <= bound,
			(a) => `${x(cost(a))} ${tiered?.name} / ${x(flatCost(a))} ${flat?.name}`,
		);
	const tokenBound = settings.window >= 200_000 ? 0.75 : 1;
	const window = settings.window;
	return [
		over(
			`pi-fold's default: every stage completed inside its budget (${int(budget)})`,
			defaults,
			(a) => a.status === "complete" && a.stagesCompleted === a.stageCount && a.totals.peakContext <= budget,
			(a) => `${a.stagesCompleted} of ${a.stageCount}, largest request ${int(a.totals.peakContext)}`,
		),
		costBound("pifold-ladder", "the ladder alone (pifold-ladder)", 0.95),
		costBound("pifold-agent", "with the curating agent (pifold-agent)", 0.75),
		over(
			tokenBound < 1
				? "pi-fold's default: at most 0.75x the cheaper native's tokens (200k and larger windows)"
				: "pi-fold's default: no more tokens than the cheaper native (windows under 200k)",
			withNative,
			(a) => tokens(a) <= tokenBound,
			(a) => x(tokens(a)),
		),
		...(window === 200_000
			? [
					over(
						"at 200k: pi-fold's default costs at most 0.8x the cheaper native",
						withNative,
						(a) => cost(a) <= 0.8,
						(a) => x(cost(a)),
					),
				]
			: []),
		...(window === 372_000
			? [
					over(
						"at 372k: pi-fold's default costs at most 0.50x the cheaper native, tokens at most 0.5x",
						withNative,
						(a) => cost(a) <= 0.5 && tokens(a) <= 0.5,
						(a) => `${x(cost(a))} / ${x(tokens(a))}`,
					),
				]
			: []),
		over(
			"pi-fold's default: at least the cheaper native's questions answered, receipts included",
			withNative,
			(a) =>
				!!tiered &&
				a.probes.correct >= tiered.probes.correct &&
				a.receiptProbes.correct >= tiered.receiptProbes.correct,
			(a) =>
				`${a.probes.correct} and ${a.receiptProbes.correct} vs ${tiered?.probes.correct} and ${tiered?.receiptProbes.correct}`,
		),
		...(window >= 120_000
			? [
					over(
						"pi-fold's default: no compaction (120k and larger windows)",
						defaults,
						(a) => a.compactions === 0,
						(a) => `${a.compactions}`,
					),
				]
			: []),
		over(
			"every pi-fold arm: the window rewritten only at its commits",
			arms.filter((a) => a.pifold),
			(a) => a.pifold?.unattributedRewrites === 0,
			(a) => `${a.pifold?.unattributedRewrites ?? 0} other rewrites`,
		),
		predictionTarget(defaults),
	];
}

/** The default arms' commit predictions (the next request's fresh tokens) against the bill. */
function predictionTarget(defaults: readonly ArmReport[]): Target {
	const target = "pi-fold's default: each commit's cost predicted within 10% of the bill";
	const checks = defaults.flatMap((a) => a.pifold?.commitChecks ?? []);
	if (checks.length === 0) return { target, measured: "not run", ratio: null, met: null };
	const e = predictionError(checks);
	return {
		target,
		measured: `${e.within} of ${e.commits} within 10%; median ${(e.median * 100).toFixed(1)}%, worst ${(e.worst * 100).toFixed(1)}%`,
		ratio: e.worst,
		met: e.worst <= 0.1,
	};
}
