// The picture people look at instead of the table: request context per call, one series per arm, against the
// serving window, the long-context threshold and (with pi-fold arms) 80% of pi-fold's serving budget. Emits a
// self-contained SVG string. Pure functions.

import { PRICES } from "./ledger.ts";
import { pifoldServingBudget } from "./options.ts";
import type { Report } from "./report.ts";

const WIDTH = 960;
const HEIGHT = 440;
const M = { left: 70, right: 20, top: 48, bottom: 44 };
const LEGEND_ROW = 20;
const COLORS = ["#c2410c", "#1d4ed8", "#15803d", "#7e22ce", "#0f766e", "#a16207"];

function escapeXml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function niceStep(max: number, ticks: number): number {
	const raw = max / ticks;
	const power = 10 ** Math.floor(Math.log10(raw));
	return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw) as number;
}

export function renderChart(report: Report): string {
	const series = report.arms.map((arm) => arm.requests.filter((r) => r.kind === "agent"));
	const maxX = Math.max(2, ...series.map((s) => s.length));
	const maxY = Math.max(report.settings.window, ...series.flat().map((r) => r.context)) * 1.05;
	// The legend takes one row for up to four arms, two rows beyond; the plot starts below it.
	const perRow = report.arms.length <= 4 ? Math.max(1, report.arms.length) : Math.ceil(report.arms.length / 2);
	const top = M.top + (report.arms.length > perRow ? LEGEND_ROW : 0);
	const plotW = WIDTH - M.left - M.right;
	const plotH = HEIGHT - top - M.bottom;
	const x = (i: number): number => M.left + (i / (maxX - 1)) * plotW;
	const y = (v: number): number => top + plotH - (v / maxY) * plotH;
	const out: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif" font-size="12">`,
		`<title>Request context per call, ${escapeXml(report.arms.map((a) => a.name).join(" vs "))}</title>`,
		`<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
	];
	const yStep = niceStep(maxY, 6);
	for (let v = 0; v <= maxY; v += yStep) {
		out.push(
			`<line x1="${M.left}" y1="${y(v).toFixed(1)}" x2="${WIDTH - M.right}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`,
			`<text x="${M.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#374151">${Math.round(v / 1000)}k</text>`,
		);
	}
	const xStep = niceStep(maxX, 8);
	for (let i = 0; i < maxX; i += xStep)
		out.push(
			`<text x="${x(i).toFixed(1)}" y="${HEIGHT - M.bottom + 18}" text-anchor="middle" fill="#374151">${i + 1}</text>`,
		);
	out.push(
		`<text x="${M.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle" fill="#111827">agent request</text>`,
		`<text x="16" y="${top + plotH / 2}" transform="rotate(-90 16 ${top + plotH / 2})" text-anchor="middle" fill="#111827">request context (tokens)</text>`,
	);
	const guide = (value: number, label: string, color: string): void => {
		out.push(
			`<line class="guide" x1="${M.left}" y1="${y(value).toFixed(1)}" x2="${WIDTH - M.right}" y2="${y(value).toFixed(1)}" stroke="${color}" stroke-dasharray="6 4"/>`,
			`<text x="${M.left + 6}" y="${(y(value) - 5).toFixed(1)}" fill="${color}">${escapeXml(label)}</text>`,
		);
	};
	guide(report.settings.window, `window ${report.settings.window.toLocaleString("en-US")}`, "#b91c1c");
	if (PRICES.longContextThreshold < maxY)
		guide(
			PRICES.longContextThreshold,
			`long-context tier ${PRICES.longContextThreshold.toLocaleString("en-US")}`,
			"#6b7280",
		);
	if (report.arms.some((a) => a.pifold)) {
		const budget = pifoldServingBudget(report.settings.window, report.settings.maxTokens);
		guide(
			0.8 * budget,
			`80% of pi-fold's serving budget ${Math.round(0.8 * budget).toLocaleString("en-US")}`,
			"#0f766e",
		);
	}
	report.arms.forEach((arm, a) => {
		const color = COLORS[a % COLORS.length] as string;
		const points = (series[a] ?? []).map((r, i) => `${x(i).toFixed(1)},${y(r.context).toFixed(1)}`);
		out.push(`<g class="series" data-arm="${escapeXml(arm.name)}">`);
		// Earlier arms draw wider, so a later arm that sends the same prompts shows as a line inside the earlier one.
		const width = Math.max(1.4, 4 - a * 1.3);
		out.push(
			`<polyline fill="none" stroke="${color}" stroke-width="${width}" stroke-linejoin="round" points="${points.join(" ")}"/>`,
		);
		(series[a] ?? []).forEach((r, i) => {
			if (r.rejected)
				out.push(
					`<path d="M${(x(i) - 5).toFixed(1)},${(y(r.context) - 5).toFixed(1)} l10,10 m0,-10 l-10,10" stroke="${color}" stroke-width="2"/>`,
				);
		});
		out.push("</g>");
		const lx = M.left + 10 + (a % perRow) * Math.min(190, plotW / perRow);
		const ly = 16 + Math.floor(a / perRow) * LEGEND_ROW;
		out.push(
			`<rect x="${lx.toFixed(1)}" y="${ly}" width="14" height="14" fill="${color}"/>`,
			`<text x="${(lx + 20).toFixed(1)}" y="${ly + 11}" fill="#111827">${escapeXml(`${arm.name} (${arm.stagesCompleted}/${arm.stageCount})`)}</text>`,
		);
	});
	out.push("</svg>");
	return `${out.join("\n")}\n`;
}
