// Renders a report as the spec's side-by-side Markdown table (one column per arm), plus the same-cut table when
// an arm stopped early. Pure functions.

import type { LedgerTotals } from "./ledger.ts";
import type { ArmReport, Report } from "./report.ts";

const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const usd = (n: number): string => `$${n.toFixed(2)}`;
const mb = (chars: number): string => `${(chars / 1_000_000).toFixed(2)} MB`;
const seconds = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`);

function table(header: string[], rows: string[][]): string {
	const line = (cells: string[]): string => `| ${cells.join(" | ")} |`;
	return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}

function totalsRows(totals: (arm: ArmReport) => LedgerTotals, arms: ArmReport[]): string[][] {
	const row = (label: string, f: (t: LedgerTotals) => string): string[] => [label, ...arms.map((a) => f(totals(a)))];
	return [
		row("Total tokens", (t) => int(t.totalTokens)),
		row("Fresh input", (t) => int(t.freshInput)),
		row("Cache read", (t) => int(t.cacheRead)),
		row("Output", (t) => int(t.output)),
		row("Billed calls", (t) =>
			t.summaryCalls > 0
				? `${t.billedCalls} (${t.summaryCalls} ${t.summaryCalls === 1 ? "summary" : "summaries"})`
				: `${t.billedCalls}`,
		),
		row("Cost at the price table", (t) => usd(t.cost)),
		row("Cost at flat base rates", (t) => usd(t.flatCost)),
		row("Long-context surcharge", (t) =>
			t.surchargeRequests > 0 ? `${usd(t.surcharge)} on ${t.surchargeRequests} requests` : "$0.00",
		),
		row("Pooled cache share", (t) => t.cacheShare.toFixed(3)),
		row("Peak request context", (t) => int(t.peakContext)),
	];
}

export function renderTable(report: Report): string {
	const arms = report.arms;
	const row = (label: string, f: (a: ArmReport) => string): string[] => [label, ...arms.map(f)];
	const statusText = (a: ArmReport): string =>
		`${a.stagesCompleted} of ${a.stageCount}${a.status === "complete" ? "" : ` (${a.status})`}`;
	const rows = [
		row("Stages completed", statusText),
		...totalsRows((a) => a.totals, arms),
		row("Mean request context", (a) => int(a.totals.meanContext)),
		row("Compactions / fold events", (a) => `${a.compactions} / ${a.foldEvents}`),
		row("Projection rewrites", (a) => int(a.totals.projectionRewrites)),
		row("Rejected requests (overflow)", (a) => int(a.totals.rejectedCalls)),
		row("File reads", (a) => `${a.fileReads.count}, ${mb(a.fileReads.chars)}`),
		row("Rereads", (a) => `${a.rereads.count}, ${mb(a.rereads.chars)}`),
		row("Probe answers correct", (a) => `${a.probes.correct} of ${a.probes.total}`),
		row("Revisit answers correct", (a) => `${a.revisits.correct} of ${a.revisits.total}`),
		row(
			"Answer sources",
			(a) =>
				Object.entries(a.answersBy)
					.sort((x, y) => y[1] - x[1])
					.map(([route, n]) => `${route} ${n}`)
					.join(", ") || "-",
		),
		row("Notes accepted", (a) => `${a.notes.accepted} of ${a.notes.total}`),
		row("Stage reissues", (a) => int(a.reissues)),
		row("Wall clock", (a) => seconds(a.wallMs)),
	];
	const parts = [
		`Plan ${report.plan.hash.slice(0, 12)} (seed ${JSON.stringify(report.plan.seed)}, ${report.plan.stageCount} stages), ` +
			`window ${int(report.settings.window)} tokens, long-context tier over ${int(report.prices.longContextThreshold)}.`,
		"",
		table(["Measure", ...arms.map((a) => a.name)], rows),
	];
	if (report.cut) {
		const cut = report.cut;
		const byName = new Map(cut.arms.map((c) => [c.name, c.totals]));
		parts.push(
			"",
			`Same plan, every arm cut at stage ${cut.stage} (the last stage all arms completed):`,
			"",
			table(
				["Measure", ...arms.map((a) => a.name)],
				totalsRows((a) => byName.get(a.name) as LedgerTotals, arms),
			),
		);
	}
	const failures = arms.filter((a) => a.error).map((a) => `- ${a.name}: ${a.error}`);
	if (failures.length > 0) parts.push("", "Where arms stopped:", ...failures);
	return `${parts.join("\n")}\n`;
}
