// The benchmark's chart as data and as SVG: requests sit in their stage's slot (so arms that send
// different numbers of requests line up by stage), ticks name stages, every arm is a series and
// every guide is there (the window; the long-context tier once it is in view; with pi-fold arms,
// where pi-fold starts folding on its own).

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

	it("draws one series per arm and every guide, pi-fold's threshold with pi-fold arms", () => {
		const arm = (name: string, pifold: boolean) => ({
			name,
			stageCount: 4,
			stagesCompleted: 4,
			requests: [request(1, 100_000), request(2, 290_000), request(3, 120_000)],
			...(pifold ? { pifold: {} } : {}),
		});
		const report = {
			settings: { window: 372_000, maxTokens: 16_384 },
			plan: { hash: "0123456789abcdef".repeat(4) },
			arms: [arm("native", false), arm("pifold-epoch", true)],
		} as unknown as Report;
		const chart = chartOf(report);
		expect(chart.guides.map((g) => g.label)).toEqual([
			"model window 372,000 tokens",
			"long-context price tier above 272,000",
			"pi-fold folds on its own above 284,493 (80% of its budget)",
		]);
		const svg = parseXml(renderChart(report));
		const series = findAll(svg, (e) => e.attrs.class === "series").map((g) => g.attrs["data-arm"]);
		expect(series).toEqual(["native", "pifold-epoch"]);
		expect(findAll(svg, (e) => e.attrs.class === "guide")).toHaveLength(3);
	});
});
