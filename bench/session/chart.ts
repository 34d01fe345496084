// The picture people look at instead of the table: each arm's request context, stage by stage, against the
// serving window, the long-context price tier and (with pi-fold arms) the occupancy where pi-fold starts folding
// on its own. The x axis is in stages, so arms that send different numbers of requests line up: the requests of
// one stage share that stage's slot, in the order sent. Drawn by src/chart (title, legend, a colour-blind-safe
// colour and a line style per arm, neutral guides). Pure functions.

import { type ChartInput, type ChartSeries, niceStep, renderLineChart } from "../../src/chart/index.ts";
import { QUIET_OCCUPANCY } from "../../src/policy/index.ts";
import { pifoldServingBudget } from "./demo-options.ts";
import { PRICES, type RequestRecord } from "./ledger.ts";
import type { Report } from "./session-report.ts";

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Agent requests at x positions in stages: stage s spans [s - 1, s], its requests spread evenly inside it. */
export function stagePoints(requests: readonly RequestRecord[]): { x: number; y: number; cross: boolean }[] {
	const agent = requests.filter((r) => r.kind === "agent");
	const perStage = new Map<number, number>();
	for (const r of agent) perStage.set(Math.max(1, r.stage), (perStage.get(Math.max(1, r.stage)) ?? 0) + 1);
	const seen = new Map<number, number>();
	return agent.map((r) => {
		const stage = Math.max(1, r.stage);
		const k = seen.get(stage) ?? 0;
		seen.set(stage, k + 1);
		return { x: stage - 1 + (k + 0.5) / (perStage.get(stage) as number), y: r.context, cross: r.rejected };
	});
}

/** Ticks at stage 1 and every round step after it, each in the middle of its stage's slot. */
export function stageTicks(stageCount: number): { at: number; label: string }[] {
	const step = niceStep(stageCount, 8);
	const stages = [1];
	for (let s = step; s <= stageCount; s += step) if (s > 1) stages.push(s);
	return stages.map((s) => ({ at: s - 0.5, label: String(s) }));
}

/** The chart of a report, as data (tests read it; renderChart draws it). */
export function chartOf(report: Report): ChartInput {
	const { window, maxTokens } = report.settings;
	const series: ChartSeries[] = report.arms.map((arm) => ({
		name: arm.name,
		label: `${arm.name} (${arm.stagesCompleted}/${arm.stageCount} stages)`,
		points: stagePoints(arm.requests),
	}));
	const guides = [{ value: window, label: `model window ${fmt(window)} tokens` }];
	const peak = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.y)));
	if (PRICES.longContextThreshold < Math.max(window, peak) * 1.06)
		guides.push({
			value: PRICES.longContextThreshold,
			label: `long-context price tier above ${fmt(PRICES.longContextThreshold)}`,
		});
	if (report.arms.some((a) => a.pifold)) {
		const fold = QUIET_OCCUPANCY * pifoldServingBudget(window, maxTokens);
		guides.push({
			value: fold,
			label: `pi-fold folds on its own above ${fmt(fold)} (${QUIET_OCCUPANCY * 100}% of its budget)`,
		});
	}
	const stageCount = Math.max(1, ...report.arms.map((a) => a.stageCount));
	return {
		title: "Request context per stage",
		subtitle: `${report.arms.length} arms · ${stageCount} stages · plan ${report.plan.hash.slice(0, 12)} · a cross marks a request refused for overflow`,
		xLabel: "stage (each stage's requests in the order sent)",
		yLabel: "request context (tokens)",
		xMin: 0,
		xMax: stageCount,
		xTicks: stageTicks(stageCount),
		series,
		guides,
	};
}

export function renderChart(report: Report): string {
	return renderLineChart(chartOf(report));
}
