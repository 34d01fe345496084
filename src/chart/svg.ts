// A line chart as one self-contained SVG string, laid out for a reader who looks once: a title (and
// an optional subtitle and note), a legend with each series' colour and line style, the series, horizontal
// guides in neutral greys whose labels sit in the right margin (never over a series) and are pushed
// apart so they never overlap (a label pushed off its line is tied to it by a short leader), and the x axis in the caller's units (stages, requests) with its
// ticks. A series marked `underlay` (one another series would hide) is drawn first as a wide pale band,
// so the line drawn over it leaves it visible. Series and guides carry `class`/`data-*` attributes so
// tests can find them. Pure.

import { guideStyle, type LineStyle, seriesStyle } from "./style.ts";

interface ChartPoint {
	readonly x: number;
	readonly y: number;
	/** Drawn as a cross on the line (a request that was refused, for instance). */
	readonly cross?: boolean;
}

export interface ChartSeries {
	/** Identifies the series (`data-series`). */
	readonly name: string;
	/** The legend's text (default: the name). */
	readonly label?: string;
	readonly points: readonly ChartPoint[];
	/** Drawn first as a wide, pale, solid band, so a series drawn over it (about the same values) leaves it visible. */
	readonly underlay?: boolean;
}

interface ChartGuide {
	readonly value: number;
	readonly label: string;
}

export interface ChartInput {
	readonly title: string;
	readonly subtitle?: string;
	/** One more line under the subtitle: what the reader would otherwise ask about the lines. */
	readonly note?: string;
	readonly xLabel: string;
	readonly yLabel: string;
	/** The x range drawn. */
	readonly xMin: number;
	readonly xMax: number;
	/** Labelled ticks on the x axis (stage numbers, request numbers). */
	readonly xTicks: readonly { readonly at: number; readonly label: string }[];
	readonly series: readonly ChartSeries[];
	readonly guides: readonly ChartGuide[];
}

const WIDTH = 960;
const HEIGHT = 520;
const PLOT_LEFT = 76;
/** The right margin holds the guides' labels. */
const LABEL_MARGIN = 210;
const PLOT_RIGHT = WIDTH - LABEL_MARGIN;
const BOTTOM = 52;
const LEGEND_ROW = 20;
/** Guide label: characters per line, line height, lines at most. */
const LABEL_CHARS = 30;
const LABEL_LINE = 13;
/** Rough width of a 12px character, for laying out the legend. */
const CHAR_PX = 6.8;

function escapeXml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A round step for about `ticks` ticks up to `max`. */
export function niceStep(max: number, ticks: number): number {
	const raw = Math.max(max, 1) / ticks;
	const power = 10 ** Math.floor(Math.log10(raw));
	return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw) as number;
}

/** A series' style: its palette style, or the wide pale band of an underlay. */
function lookOf(s: ChartSeries, i: number): LineStyle & { opacity?: number } {
	const style = seriesStyle(i);
	return s.underlay ? { ...style, dash: "", width: style.width + 6, opacity: 0.35 } : style;
}

function strokeOf(style: LineStyle & { opacity?: number }): string {
	const opacity = style.opacity === undefined ? "" : ` stroke-opacity="${style.opacity}"`;
	const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : "";
	return `stroke="${style.color}" stroke-width="${style.width}"${dash}${opacity}`;
}

/** Words of `text` in lines of at most LABEL_CHARS characters. */
function wrapLabel(text: string): string[] {
	const lines: string[] = [];
	let line = "";
	for (const word of text.split(" ")) {
		if (line && line.length + 1 + word.length > LABEL_CHARS) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	if (line) lines.push(line);
	return lines;
}

/** The legend (rows of line samples and labels) from y = `top`; returns its markup and its bottom. */
function legend(series: readonly ChartSeries[], top: number): { out: string[]; bottom: number } {
	const out = ['<g class="legend">'];
	let x = PLOT_LEFT;
	let y = top;
	series.forEach((s, i) => {
		const text = s.label ?? s.name;
		const width = 40 + text.length * CHAR_PX + 24;
		if (x > PLOT_LEFT && x + width > WIDTH - 20) {
			x = PLOT_LEFT;
			y += LEGEND_ROW;
		}
		const style = lookOf(s, i);
		out.push(
			`<g class="legend-item" data-series="${escapeXml(s.name)}"><line x1="${x}" y1="${y - 4}" x2="${x + 32}" y2="${y - 4}" ${strokeOf(style)}/>`,
			`<text x="${x + 40}" y="${y}" fill="#111827">${escapeXml(text)}</text></g>`,
		);
		x += width;
	});
	out.push("</g>");
	return { out, bottom: y };
}

/** Label positions for guides at `ys`, pushed apart (in order of height) so no two overlap. */
function labelPositions(ys: readonly number[], heights: readonly number[], top: number): number[] {
	const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
	const placed = new Array<number>(ys.length).fill(0);
	let floor = top;
	for (const { y, i } of order) {
		const at = Math.max(y + 4, floor);
		placed[i] = at;
		floor = at + (heights[i] as number) + 4;
	}
	return placed;
}

function axes(input: ChartInput, top: number, plotH: number, maxY: number, x: (v: number) => number): string[] {
	const y = (v: number) => top + plotH - (v / maxY) * plotH;
	const out: string[] = [];
	const step = niceStep(maxY, 6);
	for (let v = 0; v <= maxY; v += step)
		out.push(
			`<line x1="${PLOT_LEFT}" y1="${y(v).toFixed(1)}" x2="${PLOT_RIGHT}" y2="${y(v).toFixed(1)}" stroke="#eceef1"/>`,
			`<text x="${PLOT_LEFT - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#374151">${v >= 1000 ? `${Math.round(v / 1000)}k` : v}</text>`,
		);
	const base = (top + plotH).toFixed(1);
	out.push(`<line x1="${PLOT_LEFT}" y1="${base}" x2="${PLOT_RIGHT}" y2="${base}" stroke="#9ca3af"/>`);
	for (const tick of input.xTicks)
		out.push(
			`<line class="x-tick" x1="${x(tick.at).toFixed(1)}" y1="${base}" x2="${x(tick.at).toFixed(1)}" y2="${(top + plotH + 5).toFixed(1)}" stroke="#9ca3af"/>`,
			`<text x="${x(tick.at).toFixed(1)}" y="${(top + plotH + 18).toFixed(1)}" text-anchor="middle" fill="#374151">${escapeXml(tick.label)}</text>`,
		);
	out.push(
		`<text class="x-label" x="${(PLOT_LEFT + PLOT_RIGHT) / 2}" y="${HEIGHT - 12}" text-anchor="middle" fill="#111827">${escapeXml(input.xLabel)}</text>`,
		`<text class="y-label" x="18" y="${top + plotH / 2}" transform="rotate(-90 18 ${top + plotH / 2})" text-anchor="middle" fill="#111827">${escapeXml(input.yLabel)}</text>`,
	);
	return out;
}

function seriesMarkup(s: ChartSeries, i: number, x: (v: number) => number, y: (v: number) => number): string[] {
	const style = lookOf(s, i);
	const points = s.points.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
	const out = [
		`<g class="series${s.underlay ? " underlay" : ""}" data-arm="${escapeXml(s.name)}" data-series="${escapeXml(s.name)}">`,
		`<polyline fill="none" ${strokeOf(style)} stroke-linejoin="round" points="${points}"/>`,
	];
	for (const p of s.points.filter((q) => q.cross))
		out.push(
			`<path class="cross" d="M${(x(p.x) - 5).toFixed(1)},${(y(p.y) - 5).toFixed(1)} l10,10 m0,-10 l-10,10" stroke="${style.color}" stroke-width="2"/>`,
		);
	out.push("</g>");
	return out;
}

export function renderLineChart(input: ChartInput): string {
	const out: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif" font-size="12">`,
		`<title>${escapeXml(input.title)}</title>`,
		`<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		`<text class="title" x="${PLOT_LEFT}" y="26" font-size="17" font-weight="600" fill="#111827">${escapeXml(input.title)}</text>`,
	];
	if (input.subtitle)
		out.push(`<text class="subtitle" x="${PLOT_LEFT}" y="45" fill="#4b5563">${escapeXml(input.subtitle)}</text>`);
	if (input.note)
		out.push(
			`<text class="note" x="${PLOT_LEFT}" y="${input.subtitle ? 61 : 45}" fill="#4b5563" font-size="11">${escapeXml(input.note)}</text>`,
		);
	const key = legend(input.series, (input.subtitle ? 70 : 54) + (input.note ? 16 : 0));
	out.push(...key.out);
	const top = key.bottom + 22;
	const plotH = HEIGHT - top - BOTTOM;
	const maxY =
		Math.max(1, ...input.series.flatMap((s) => s.points.map((p) => p.y)), ...input.guides.map((g) => g.value)) * 1.06;
	const span = Math.max(input.xMax - input.xMin, 1e-9);
	const x = (v: number) => PLOT_LEFT + ((v - input.xMin) / span) * (PLOT_RIGHT - PLOT_LEFT);
	const y = (v: number) => top + plotH - (v / maxY) * plotH;
	out.push(...axes(input, top, plotH, maxY, x));
	const labels = input.guides.map((g) => wrapLabel(g.label));
	const at = labelPositions(
		input.guides.map((g) => y(g.value)),
		labels.map((l) => l.length * LABEL_LINE),
		top,
	);
	input.guides.forEach((g, i) => {
		const style = guideStyle(i);
		const gy = y(g.value).toFixed(1);
		const lines = (labels[i] ?? []).map(
			(line, k) =>
				`<tspan x="${PLOT_RIGHT + 8}" y="${((at[i] as number) + k * LABEL_LINE).toFixed(1)}">${escapeXml(line)}</tspan>`,
		);
		// A label pushed below its line is tied to it by a short leader.
		const labelTop = (at[i] as number) - 4;
		const leader =
			labelTop - Number(gy) > 1
				? [
						`<line class="leader" x1="${PLOT_RIGHT}" y1="${gy}" x2="${PLOT_RIGHT + 6}" y2="${labelTop.toFixed(1)}" stroke="${style.color}" stroke-width="1"/>`,
					]
				: [];
		out.push(
			`<g class="guide" data-guide="${escapeXml(g.label)}">`,
			`<line x1="${PLOT_LEFT}" y1="${gy}" x2="${PLOT_RIGHT}" y2="${gy}" ${strokeOf(style)}/>`,
			...leader,
			`<text fill="${style.color}" font-size="11">${lines.join("")}</text>`,
			"</g>",
		);
	});
	// Underlays first, so the series drawn over them leave them visible; each keeps its own style index.
	const order = input.series.map((s, i) => ({ s, i })).sort((a, b) => Number(!!b.s.underlay) - Number(!!a.s.underlay));
	for (const { s, i } of order) out.push(...seriesMarkup(s, i, x, y));
	out.push("</svg>");
	return `${out.join("\n")}\n`;
}
