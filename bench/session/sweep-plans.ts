// Short sessions (issue 20 item 6): the same seed and arms at one window (200k) for plans of several lengths
// (`pi-fold demo --stages-sweep 8,16,32,64`, part of `--sweep`), a table of every arm's cost per plan length with
// its ratio to the cheaper native arm of that plan, and the target "the default <= 1.0x the cheaper native" for
// every plan length, met or MISSED with what was measured. Pure over the reports.

import { PLANS_WINDOW } from "./demo-options.ts";
import { cheaperNative, isNativeArm } from "./native-baseline.ts";
import type { Report } from "./session-report.ts";
import { DEFAULT_PIFOLD_ARMS, markdownRow, type SweepVerdict, verdictRows } from "./sweep-targets.ts";

export { PLANS_WINDOW, SWEEP_STAGES } from "./demo-options.ts";
/** The target's bound: the default's cost over the cheaper native's. */
export const SHORT_PLAN_BOUND = 1.0;

const usd = (v: number) => `$${v.toFixed(2)}`;
const k = (w: number) => `${(w / 1000).toLocaleString("en-US")}k`;

/** The target at the plans' window: every default arm at most SHORT_PLAN_BOUND times the cheaper native. */
export function plansVerdict(reports: readonly Report[]): SweepVerdict {
	const stages = reports.map((r) => r.plan.stageCount);
	const window = reports[0]?.settings.window ?? PLANS_WINDOW;
	const checks = reports.flatMap((r) => {
		const native = cheaperNative(r.arms, "tiered");
		return r.arms
			.filter((a) => DEFAULT_PIFOLD_ARMS.includes(a.name))
			.map((a) => ({
				stages: r.plan.stageCount,
				arm: a.name,
				ratio: native && native.totals.cost > 0 ? a.totals.cost / native.totals.cost : Number.NaN,
				native: native?.name ?? "no native",
			}));
	});
	const failed = checks.filter((c) => !(c.ratio <= SHORT_PLAN_BOUND));
	const shown = (failed.length > 0 ? failed : checks).map(
		(c) => `${c.arm} at ${c.stages} stages ${c.ratio.toFixed(2)}x ${c.native}`,
	);
	return {
		target: `at ${k(window)} for plans of ${stages.join(", ")} stages: the default <= ${SHORT_PLAN_BOUND.toFixed(1)}x the cheaper native`,
		met: checks.length > 0 && failed.length === 0,
		measured: checks.length === 0 ? "no such run" : shown.join("; "),
	};
}

/** The short-plan table (a row per plan length and arm) and its verdict. Markdown. */
export function renderPlansTable(reports: readonly Report[], verdict: SweepVerdict): string {
	const rows = reports.flatMap((r) => {
		const native = cheaperNative(r.arms, "tiered");
		return r.arms.map((a) => {
			const ratio =
				!isNativeArm(a) && native && native.totals.cost > 0
					? ` (${(a.totals.cost / native.totals.cost).toFixed(2)}x)`
					: "";
			const commits = a.pifold ? `${a.pifold.commits}` : "";
			return markdownRow([
				`${r.plan.stageCount}`,
				a.name,
				`${a.stagesCompleted}/${a.stageCount}`,
				`${usd(a.totals.cost)}${ratio}`,
				`${a.totals.requests}`,
				`${a.compactions}`,
				commits,
			]);
		});
	});
	const window = reports[0]?.settings.window ?? PLANS_WINDOW;
	return [
		`Short plans at ${k(window)}: the same seed and arms for plans of ${reports.map((r) => r.plan.stageCount).join(", ")} stages; ratios are to the cheaper native arm of the same plan.`,
		"",
		markdownRow(["stages", "arm", "completed", "cost", "requests", "compactions", "commits"]),
		markdownRow(["---:", "---", "---", "---:", "---:", "---:", "---:"]),
		...rows,
		"",
		...verdictRows([verdict]),
		"",
	].join("\n");
}
