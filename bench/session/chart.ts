// The picture people look at instead of the table: each arm's request context, stage by stage, against the
// serving window, the long-context price tier and each arm's own rule, drawn only when an arm it applies to ran
// and naming those arms: where each native arm compacts, where the spec's immediate and epoch modes fold on their
// own (80% of the budget), and where pi-fold's default (cost scheduling, which folds whenever a fold pays and so
// has no fixed line of its own) must fold (92%). An arm whose line another would hide (pifold-ladder under
// pifold-agent) is drawn as a wide pale band under it, and a note says so. The x axis is in stages, so arms that
// send different numbers of requests line up: the requests of one stage share that stage's slot, in the order
// sent. Drawn by src/chart (title, legend, a colour-blind-safe colour and a line style per arm, neutral guides).
// Pure functions.

import { type ChartInput, type ChartSeries, niceStep, renderLineChart } from "../../src/chart/index.ts";
import { PRESSURE_BACKSTOP_OCCUPANCY, QUIET_OCCUPANCY } from "../../src/policy/index.ts";
import { pifoldServingBudget } from "./demo-options.ts";
import { PRICES, type RequestRecord } from "./ledger.ts";
import { PI_DEFAULT_RESERVE_TOKENS, tunedReserveTokens } from "./native-baseline.ts";
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

/** The pi-fold arms that run the spec's scheduling modes; every other pi-fold arm runs the default, cost scheduling. */
const SPEC_MODE_ARMS: readonly string[] = ["pifold-immediate", "pifold-epoch"];

/** "a", "a, b". */
function names(list: readonly string[]): string {
	return list.join(", ");
}

/** The guides: the window, the tier once in view, and each ran arm's own rule, naming the arms it applies to. */
export function guidesOf(report: Report, peak: number): { value: number; label: string }[] {
	const { window, maxTokens } = report.settings;
	const ran = new Set(report.arms.map((a) => a.name));
	const guides = [{ value: window, label: `model window ${fmt(window)}` }];
	if (PRICES.longContextThreshold < Math.max(window, peak) * 1.06)
		guides.push({
			value: PRICES.longContextThreshold,
			label: `long-context price above ${fmt(PRICES.longContextThreshold)}`,
		});
	if (ran.has("native"))
		guides.push({
			value: window - PI_DEFAULT_RESERVE_TOKENS,
			label: `native compacts above ${fmt(window - PI_DEFAULT_RESERVE_TOKENS)}`,
		});
	if (ran.has("native-tuned"))
		guides.push({
			value: window - tunedReserveTokens(window),
			label: `native-tuned compacts above ${fmt(window - tunedReserveTokens(window))}`,
		});
	const budget = pifoldServingBudget(window, maxTokens);
	const pifold = report.arms.filter((a) => a.pifold).map((a) => a.name);
	const spec = pifold.filter((n) => SPEC_MODE_ARMS.includes(n));
	const cost = pifold.filter((n) => !SPEC_MODE_ARMS.includes(n));
	if (spec.length > 0) {
		const fold = QUIET_OCCUPANCY * budget;
		guides.push({
			value: fold,
			label: `${names(spec)} fold above ${fmt(fold)} (${QUIET_OCCUPANCY * 100}%)`,
		});
	}
	if (cost.length > 0) {
		const must = PRESSURE_BACKSTOP_OCCUPANCY * budget;
		guides.push({
			value: must,
			label: `${names(cost)} fold when it pays, at the latest above ${fmt(must)} (${PRESSURE_BACKSTOP_OCCUPANCY * 100}%)`,
		});
	}
	return guides;
}

/** Each stage's largest request of a series. */
function stagePeaks(points: readonly { x: number; y: number }[]): Map<number, number> {
	const peaks = new Map<number, number>();
	for (const p of points) peaks.set(Math.floor(p.x), Math.max(peaks.get(Math.floor(p.x)) ?? 0, p.y));
	return peaks;
}

/** True when series `a`'s stage peaks are all within `tolerance` tokens of `b`'s, over the same stages. */
export function hiddenUnder(
	a: readonly { x: number; y: number }[],
	b: readonly { x: number; y: number }[],
	tolerance: number,
): boolean {
	const pa = stagePeaks(a);
	const pb = stagePeaks(b);
	if (pa.size === 0 || pa.size !== pb.size) return false;
	for (const [stage, y] of pa) {
		const other = pb.get(stage);
		if (other === undefined || Math.abs(other - y) > tolerance) return false;
	}
	return true;
}

/** The chart of a report, as data (tests read it; renderChart draws it). */
export function chartOf(report: Report): ChartInput {
	const drawn = report.arms.map((arm) => ({
		name: arm.name,
		label: `${arm.name} (${arm.stagesCompleted}/${arm.stageCount} stages)`,
		points: stagePoints(arm.requests),
	}));
	const peak = Math.max(0, ...drawn.flatMap((s) => s.points.map((p) => p.y)));
	// Within 2% of the plot's height, stage by stage, a line drawn later would cover this one.
	const tolerance = 0.02 * Math.max(report.settings.window, peak);
	const covers = drawn.map((s, i) => drawn.slice(i + 1).find((t) => hiddenUnder(s.points, t.points, tolerance)));
	const series: ChartSeries[] = drawn.map((s, i) => (covers[i] ? { ...s, underlay: true } : s));
	const hidden = drawn.flatMap((s, i) =>
		covers[i] ? [`${s.name} (the pale band) runs under ${covers[i]?.name}`] : [],
	);
	const stageCount = Math.max(1, ...report.arms.map((a) => a.stageCount));
	return {
		title: "Request context per stage",
		subtitle: `${report.arms.length} arms · ${stageCount} stages · plan ${report.plan.hash.slice(0, 12)} · a cross marks a request refused for overflow`,
		...(hidden.length > 0
			? { note: `${hidden.join("; ")}: at every stage their largest requests differ by under ${fmt(tolerance)} tokens` }
			: {}),
		xLabel: "stage (each stage's requests in the order sent)",
		yLabel: "request context (tokens)",
		xMin: 0,
		xMax: stageCount,
		xTicks: stageTicks(stageCount),
		series,
		guides: guidesOf(report, peak),
	};
}

export function renderChart(report: Report): string {
	return renderLineChart(chartOf(report));
}
