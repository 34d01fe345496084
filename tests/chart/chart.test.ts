// The chart a reader understands at a glance, read back from the SVG it writes: a title and a legend;
// every series present with its own colour AND its own line style (the legend drawn the same way);
// every guide present, grey, labelled in the right margin beyond every series, labels never
// overlapping even when the guides nearly coincide; the x axis in the caller's units.

import { describe, expect, it } from "vitest";
import { type ChartInput, GUIDE_STYLES, renderLineChart, SERIES_STYLES } from "../../src/chart/index.ts";
import { findAll, parseXml, textOf, type XmlElement } from "../helpers/svg.ts";

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const isGrey = (hex: string) => {
	const [r, g, b] = rgb(hex);
	return Math.max(r, g, b) - Math.min(r, g, b) <= 24;
};

const input: ChartInput = {
	title: "Request context per stage",
	subtitle: "three arms",
	xLabel: "stage",
	yLabel: "request context (tokens)",
	xMin: 0,
	xMax: 4,
	xTicks: [1, 2, 3, 4].map((s) => ({ at: s - 0.5, label: String(s) })),
	series: [
		{ name: "native", points: [0.5, 1.5, 2.5, 3.5].map((x, i) => ({ x, y: 40_000 * (i + 1) })) },
		{
			name: "pifold-ladder",
			label: "pifold-ladder (4/4 stages)",
			points: [0.25, 0.75, 1.5, 2.5, 3.5].map((x) => ({ x, y: 60_000 })),
		},
		{
			name: "unmanaged",
			points: [
				{ x: 0.5, y: 90_000 },
				{ x: 1.5, y: 170_000, cross: true },
			],
		},
	],
	// Three guides within a few pixels of each other: their labels must still not overlap.
	guides: [
		{ value: 160_000, label: "model window 160,000 tokens" },
		{ value: 158_000, label: "long-context price tier above 158,000" },
		{ value: 156_000, label: "pi-fold folds on its own above 156,000 (80% of its budget)" },
	],
};

const svg = parseXml(renderLineChart(input));
const byClass = (c: string) => findAll(svg, (e) => e.attrs.class === c);
const lineOf = (g: XmlElement) => findAll(g, (e) => e.name === "polyline" || e.name === "line")[0] as XmlElement;

describe("the chart", () => {
	it("has a title, a subtitle and axis labels", () => {
		expect(textOf(byClass("title")[0] as XmlElement)).toBe("Request context per stage");
		expect(textOf(byClass("subtitle")[0] as XmlElement)).toBe("three arms");
		expect(textOf(byClass("x-label")[0] as XmlElement)).toBe("stage");
		expect(findAll(svg, (e) => e.name === "title").map(textOf)).toEqual(["Request context per stage"]);
	});

	it("draws every series with its own colour and its own line style", () => {
		const series = byClass("series");
		expect(series.map((g) => g.attrs["data-series"])).toEqual(["native", "pifold-ladder", "unmanaged"]);
		const lines = series.map(lineOf);
		expect(lines.map((l) => l.attrs.points?.split(" ").length)).toEqual([4, 5, 2]);
		const colors = lines.map((l) => l.attrs.stroke);
		const dashes = lines.map((l) => l.attrs["stroke-dasharray"] ?? "solid");
		expect(new Set(colors).size).toBe(3);
		expect(new Set(dashes).size).toBe(3);
		expect(colors.some((c) => isGrey(c as string))).toBe(false);
		expect(findAll(series[2] as XmlElement, (e) => e.attrs.class === "cross")).toHaveLength(1);
	});

	it("has a legend drawing each series as the plot does, with its label", () => {
		const items = byClass("legend-item");
		expect(items.map((i) => textOf(i).trim())).toEqual(["native", "pifold-ladder (4/4 stages)", "unmanaged"]);
		items.forEach((item, i) => {
			const sample = lineOf(item);
			const line = lineOf(byClass("series")[i] as XmlElement);
			expect(sample.attrs.stroke).toBe(line.attrs.stroke);
			expect(sample.attrs["stroke-dasharray"]).toBe(line.attrs["stroke-dasharray"]);
		});
	});

	it("draws every guide in grey, with distinct styles and labels clear of the series and of each other", () => {
		const guides = byClass("guide");
		expect(guides.map((g) => g.attrs["data-guide"])).toEqual(input.guides.map((g) => g.label));
		const lines = guides.map(lineOf);
		expect(lines.every((l) => isGrey(l.attrs.stroke as string))).toBe(true);
		expect(new Set(lines.map((l) => l.attrs["stroke-dasharray"])).size).toBe(3);
		const seriesColors = byClass("series").map((g) => lineOf(g).attrs.stroke);
		expect(lines.some((l) => seriesColors.includes(l.attrs.stroke))).toBe(false);
		const rightmost = Math.max(
			...byClass("series").flatMap((g) =>
				(lineOf(g).attrs.points ?? "").split(" ").map((p) => Number(p.split(",")[0])),
			),
		);
		const spans = guides.map((g) => {
			const ys = findAll(g, (e) => e.name === "tspan").map((t) => Number(t.attrs.y));
			const xs = findAll(g, (e) => e.name === "tspan").map((t) => Number(t.attrs.x));
			expect(Math.min(...xs)).toBeGreaterThan(rightmost);
			expect(textOf(g).replace(/\s+/g, " ")).toContain(input.guides[guides.indexOf(g)]?.label.split(" ")[0]);
			return { top: Math.min(...ys) - 11, bottom: Math.max(...ys) };
		});
		spans.sort((a, b) => a.top - b.top);
		for (let i = 1; i < spans.length; i++)
			expect(spans[i]?.top).toBeGreaterThanOrEqual((spans[i - 1] as { bottom: number }).bottom);
	});

	it("labels the x axis with the caller's ticks", () => {
		const ticks = findAll(svg, (e) => e.attrs.class === "x-tick");
		expect(ticks).toHaveLength(4);
	});
});

describe("the palette", () => {
	it("gives each series a colour-blind-safe colour and a dash of its own, and the guides neutral greys", () => {
		expect(new Set(SERIES_STYLES.map((s) => s.color)).size).toBe(SERIES_STYLES.length);
		expect(new Set(SERIES_STYLES.map((s) => s.dash)).size).toBe(SERIES_STYLES.length);
		expect(SERIES_STYLES.slice(0, 6).some((s) => isGrey(s.color))).toBe(false);
		expect(GUIDE_STYLES.every((s) => isGrey(s.color))).toBe(true);
		const seriesDashes = new Set(SERIES_STYLES.map((s) => s.dash));
		expect(GUIDE_STYLES.some((g) => seriesDashes.has(g.dash))).toBe(false);
	});
});
