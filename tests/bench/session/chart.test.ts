// The benchmark's chart as data and as SVG: requests sit in their stage's slot (so arms that send
// different numbers of requests line up by stage), ticks name stages, every arm is a series and
// every guide is there (the window; the long-context tier once it is in view; each ran arm's own rule,
// naming the arms it applies to); a line another would hide is a pale band under it, with a note.

import { describe, expect, it } from "vitest";
import { chartOf, renderChart, stagePoints, stageTicks } from "../../../bench/session/chart.ts";
import type { RequestRecord } from "../../../bench/session/ledger.ts";
import type { Report } from "../../../bench/session/session-report.ts";
import { findAll, parseXml } from "../../helpers/svg.ts";

function request(stage: number, context: number, kind: RequestRecord["kind"] = "agent"): RequestRecord {
	return {
		seq: 0,
		kind,
		stage,
		messages: 1,
		chars: context * 4,
		context,
		input: context,
		cacheRead: 0,
		cacheWrite: 0,
		output: 10,
		pureAppend: null,
		rejected: false,
		stopReason: "stop",
		ms: 1,
	};
}

describe("the benchmark's chart", () => {
	it("puts each stage's requests inside that stage's slot, in order", () => {
		const points = stagePoints([request(0, 1), request(1, 2), request(1, 3), request(2, 4), request(2, 9, "summary")]);
		expect(points.map((p) => p.x)).toEqual([1 / 6, 0.5, 5 / 6, 1.5]);
		expect(stageTicks(64).map((t) => t.label)).toEqual(["1", "10", "20", "30", "40", "50", "60"]);
	});

	const arm = (name: string, pifold: boolean, contexts = [100_000, 290_000, 120_000]) => ({
		name,
		stageCount: 3,
		stagesCompleted: 3,
		requests: contexts.map((c, i) => request(i + 1, c)),
		...(pifold ? { pifold: {} } : {}),
	});
	const reportOf = (...arms: ReturnType<typeof arm>[]) =>
		({
			settings: { window: 372_000, maxTokens: 16_384 },
			plan: { hash: "0123456789abcdef".repeat(4) },
			arms,
		}) as unknown as Report;

	it("draws one series per arm and every guide, each arm's rule naming the arms it applies to", () => {
		const report = reportOf(arm("native", false), arm("pifold-epoch", true, [90_000, 200_000, 280_000]));
		const chart = chartOf(report);
		expect(chart.guides.map((g) => g.label)).toEqual([
			"model window 372,000",
			"long-context price above 272,000",
			"native compacts above 355,616",
			"pifold-epoch fold above 284,493 (80%)",
		]);
		const svg = parseXml(renderChart(report));
		const series = findAll(svg, (e) => e.attrs.class === "series").map((g) => g.attrs["data-arm"]);
		expect(series).toEqual(["native", "pifold-epoch"]);
		expect(findAll(svg, (e) => e.attrs.class === "guide")).toHaveLength(4);
	});

	it("draws the default's rule (fold when it pays, at the latest at 92%) apart from the spec modes' 80%, each only when its arms ran", () => {
		const rules = (...arms: ReturnType<typeof arm>[]) =>
			chartOf(reportOf(...arms))
				.guides.map((g) => g.label)
				.slice(2);
		expect(rules(arm("native-tuned", false), arm("pifold-ladder", true), arm("pifold-agent", true))).toEqual([
			"native-tuned compacts above 255,616",
			"pifold-ladder, pifold-agent fold when it pays, at the latest above 327,167 (92%)",
		]);
		expect(rules(arm("pifold-immediate", true), arm("pifold-epoch", true), arm("pifold-agent", true))).toEqual([
			"pifold-immediate, pifold-epoch fold above 284,493 (80%)",
			"pifold-agent fold when it pays, at the latest above 327,167 (92%)",
		]);
		expect(rules(arm("native", false))).toEqual(["native compacts above 355,616"]);
	});

	it("draws a line another would hide as a pale band under it, and says so; lines apart stay as they are", () => {
		const report = reportOf(
			arm("pifold-ladder", true, [40_000, 45_000, 50_000]),
			arm("pifold-agent", true, [40_500, 44_000, 51_000]),
			arm("native", false, [100_000, 200_000, 300_000]),
		);
		const chart = chartOf(report);
		expect(chart.series.map((s) => [s.name, s.underlay === true])).toEqual([
			["pifold-ladder", true],
			["pifold-agent", false],
			["native", false],
		]);
		expect(chart.note).toBe(
			"pifold-ladder (the pale band) runs under pifold-agent: at every stage their largest requests differ by under 7,440 tokens",
		);
		const svg = parseXml(renderChart(report));
		const drawn = findAll(svg, (e) => e.name === "g" && (e.attrs.class ?? "").startsWith("series"));
		// The band is drawn first, wider than any line and pale, so the line over it leaves it visible.
		expect(drawn.map((g) => [g.attrs["data-arm"], g.attrs.class])).toEqual([
			["pifold-ladder", "series underlay"],
			["pifold-agent", "series"],
			["native", "series"],
		]);
		const stroke = (name: string) =>
			findAll(svg, (e) => e.name === "polyline").find((_, i) => drawn[i]?.attrs["data-arm"] === name)?.attrs;
		expect(Number(stroke("pifold-ladder")?.["stroke-width"])).toBeGreaterThan(
			Number(stroke("pifold-agent")?.["stroke-width"]) + 4,
		);
		expect(stroke("pifold-ladder")?.["stroke-opacity"]).toBe("0.35");
		expect(stroke("pifold-agent")?.["stroke-opacity"]).toBeUndefined();
		const apart = chartOf(
			reportOf(
				arm("pifold-ladder", true, [40_000, 45_000, 50_000]),
				arm("pifold-agent", true, [40_000, 60_000, 50_000]),
			),
		);
		expect(apart.series.some((s) => s.underlay)).toBe(false);
		expect(apart.note).toBeUndefined();
	});

	it("ties a guide's label pushed off its line to it with a leader", () => {
		const svg = parseXml(
			renderChart(reportOf(arm("native", false), arm("native-tuned", false), arm("pifold-agent", true))),
		);
		const guides = findAll(svg, (e) => e.attrs.class === "guide");
		const leaders = guides.filter((g) => g.children.some((c) => c.attrs.class === "leader"));
		expect(leaders.length).toBeGreaterThan(0);
		for (const g of leaders) {
			const [line, leader] = [g.children[0], g.children.find((c) => c.attrs.class === "leader")];
			expect(leader?.attrs.y1).toBe(line?.attrs.y1);
			expect(Number(leader?.attrs.y2)).toBeGreaterThan(Number(line?.attrs.y1));
		}
	});
});
