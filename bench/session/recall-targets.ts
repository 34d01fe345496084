// Issue 12's targets, checked against one report's arms: the curating arms (pifold-immediate, pifold-epoch, and
// pifold-agent when it ran) recover facts from folded history with at most 4 KB of fold source read and at most 2
// tool calls per recovered fact, and still answer every probe (12 of 12 at 64 stages); in every pi-fold arm the fold tree's deepest fold
// sits at most log2(leaf folds) + 2 levels down. A recovered fact is an answer that came from the folds: from a
// brief, a search, a peek or an expand. Verdicts come with the measured values; nothing is loosened. Pure functions.

import type { ArmReport } from "./report-schema.ts";
import type { Target } from "./targets.ts";

/** The arms that run the curating agent. */
export const CURATING_ARMS = ["pifold-immediate", "pifold-epoch", "pifold-agent"] as const;
/** Answer sources that are folded history. */
export const FOLD_SOURCES = ["brief", "search", "peek", "expand"] as const;
export const MAX_BYTES_PER_FACT = 4_096;
export const MAX_CALLS_PER_FACT = 2;

/** Facts an arm recovered from folds, and what reading them cost. */
export function recallCost(arm: ArmReport): { facts: number; bytes: number; calls: number } | undefined {
	const recall = arm.pifold?.recall;
	if (!recall) return undefined;
	const facts = FOLD_SOURCES.reduce((n, s) => n + (arm.answersBy[s] ?? 0), 0);
	return { facts, bytes: recall.sourceBytes, calls: recall.recoveryCalls };
}

const PROBES = "curating arms: every probe answered correctly (12 of 12 in the 64-stage run)";

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

function perFact(arms: readonly ArmReport[], target: string, of: "bytes" | "calls", limit: number): Target {
	const measured = arms.map((a) => {
		const c = recallCost(a);
		const per = c && c.facts > 0 ? c[of] / c.facts : Number.POSITIVE_INFINITY;
		const shown = of === "bytes" ? kb(per) : per.toFixed(2);
		return {
			name: a.name,
			per,
			text: `${a.name} ${Number.isFinite(per) ? shown : "no facts"} (${c?.[of] ?? 0} over ${c?.facts ?? 0} facts)`,
		};
	});
	if (arms.length === 0) return { target, measured: "not run", ratio: null, met: null };
	return {
		target,
		measured: measured.map((m) => m.text).join("; "),
		// An arm that recovered no fact from folds has no ratio to report (its text says "no facts").
		ratio: measured.every((m) => Number.isFinite(m.per)) ? Math.max(...measured.map((m) => m.per)) : null,
		met: measured.every((m) => m.per <= limit),
	};
}

export function recallTargets(arms: readonly ArmReport[]): Target[] {
	const curating = arms.filter((a) => (CURATING_ARMS as readonly string[]).includes(a.name) && a.pifold);
	const pifold = arms.filter((a) => a.pifold?.recall);
	const depth = pifold.map((a) => {
		const r = a.pifold?.recall as NonNullable<NonNullable<ArmReport["pifold"]>["recall"]>;
		const bound = r.leafFolds > 0 ? Math.log2(r.leafFolds) + 2 : 2;
		return {
			text: `${a.name} ${r.maxDepth} <= ${bound.toFixed(1)} (${r.leafFolds} leaf folds)`,
			met: r.maxDepth <= bound,
		};
	});
	return [
		perFact(curating, "curating arms: fold source read per recovered fact <= 4 KB", "bytes", MAX_BYTES_PER_FACT),
		perFact(curating, "curating arms: tool calls per recovered fact <= 2", "calls", MAX_CALLS_PER_FACT),
		curating.length === 0
			? { target: PROBES, measured: "not run", ratio: null, met: null }
			: {
					target: PROBES,
					measured: curating.map((a) => `${a.name} ${a.probes.correct} of ${a.probes.total}`).join(", "),
					ratio: null,
					met: curating.every((a) => a.probes.total > 0 && a.probes.correct === a.probes.total),
				},
		pifold.length === 0
			? {
					target: "every pi-fold arm: max fold-tree depth <= log2(leaf folds) + 2",
					measured: "not run",
					ratio: null,
					met: null,
				}
			: {
					target: "every pi-fold arm: max fold-tree depth <= log2(leaf folds) + 2",
					measured: depth.map((d) => d.text).join(", "),
					ratio: null,
					met: depth.every((d) => d.met),
				},
	];
}
