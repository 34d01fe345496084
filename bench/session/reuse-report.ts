// What each arm did with the facts its later stages reused (reuse-plan.ts), measured by the harness: every reuse
// fact graded by the stage tool (correct or not) and sorted by the route the agent took (reuse-tally.ts): in view
// (a raw read, or a summary or brief stating it: no call), recalled (brief handle, search, peek, expand or a
// reread, with the calls it took), a blind miss (nothing in the window said where the fact was, so a real model
// would have guessed), or lost (the window named it but the recall found nothing). The recalls' calls are billed
// requests like any other, so their cost is in each arm's totals. Then the targets on one report: pi-fold's
// default has no more blind misses than the cheaper native, costs at most 0.75x its cost and answers at least its
// probes; in the recall-every-four-steps shape, also no more tokens than it and each fact in one call at most,
// none missed. Shares no code with the agent. Pure functions.

import { cheaperNative } from "./native-baseline.ts";
import type { Plan } from "./plan.ts";
import type { ArmReport } from "./report-schema.ts";
import type { ReuseTally } from "./reuse-tally.ts";
import type { Target } from "./targets.ts";

export { type QuestionTrace, type ReuseTally, reuseTally, reuseTallySchema } from "./reuse-tally.ts";

/** "40 / 12 / 3 (1 lost)" for the table; "-" when the plan asked no reuse fact. */
export function reuseCell(arm: ArmReport): string {
	const r = arm.reuse;
	if (!r || r.facts === 0) return "-";
	const lost = r.lost > 0 ? `, ${r.lost} lost` : "";
	const calls = r.recalled > 0 ? `, ${(r.recallCalls / r.recalled).toFixed(2)} calls a recall` : "";
	return `${r.raw} / ${r.recalled} / ${r.blind} of ${r.facts}${lost}${calls}`;
}

/** pi-fold's defaults: the automatic ladder alone, and the curating agent. */
const DEFAULT_ARMS = ["pifold-ladder", "pifold-agent"];

const x = (v: number) => `${v.toFixed(2)}x`;
/** The default's cost over the cheaper native's, at most (the sweep judges it at every window and plan length). */
const COST_BOUND = 0.75;

function verdict(target: string, checks: { text: string; met: boolean }[]): Target {
	if (checks.length === 0) return { target, measured: "not run", ratio: null, met: null };
	return { target, measured: checks.map((c) => c.text).join("; "), ratio: null, met: checks.every((c) => c.met) };
}

/** The reuse targets on one report's arms (the four-step ones only for that shape). */
export function reuseTargets(arms: readonly ArmReport[], plan: Pick<Plan, "shape">): Target[] {
	const native = cheaperNative(arms);
	const defaults = arms.filter((a) => DEFAULT_ARMS.includes(a.name) && a.reuse && a.reuse.facts > 0);
	const nativeReuse = native?.reuse;
	const against = native ? ` (${native.name})` : "";
	const targets = [
		verdict(
			"pi-fold's default: blind misses on reused facts <= the cheaper native's",
			nativeReuse
				? defaults.map((a) => ({
						text: `${a.name} ${a.reuse?.blind} vs ${nativeReuse.blind}${against}`,
						met: (a.reuse?.blind ?? 0) <= nativeReuse.blind,
					}))
				: [],
		),
		verdict(
			`pi-fold's default costs at most ${COST_BOUND}x the cheaper native`,
			native
				? defaults.map((a) => {
						const ratio = a.totals.cost / Math.max(Number.EPSILON, native.totals.cost);
						return { text: `${a.name} ${x(ratio)}${against}`, met: ratio <= COST_BOUND };
					})
				: [],
		),
		verdict(
			"pi-fold's default answers at least the cheaper native's probes",
			native
				? defaults.map((a) => ({
						text: `${a.name} ${a.probes.correct} vs ${native.probes.correct} of ${a.probes.total}${against}`,
						met: a.probes.correct >= native.probes.correct,
					}))
				: [],
		),
	];
	if (plan.shape !== "recall-every-four") return targets;
	return [
		...targets,
		verdict(
			"recall every four steps: pi-fold's default uses no more tokens than the cheaper native",
			native
				? defaults.map((a) => {
						const ratio = a.totals.totalTokens / Math.max(1, native.totals.totalTokens);
						return { text: `${a.name} ${x(ratio)}${against}`, met: ratio <= 1 };
					})
				: [],
		),
		verdict(
			"recall every four steps: pi-fold's default recalls each fact in one call, none missed",
			defaults.map((a) => {
				const r = a.reuse as ReuseTally;
				const misses = r.blind + r.lost;
				return {
					text: `${a.name} at most ${r.maxRecallCalls} calls (${r.recallCalls} over ${r.recalled} recalls), ${misses} missed of ${r.facts}`,
					met: r.maxRecallCalls <= 1 && misses === 0,
				};
			}),
		),
	];
}
