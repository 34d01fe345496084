// Renders a report as the spec's side-by-side Markdown table (one column per arm), plus the same-cut table when
// an arm stopped early. Pure functions.

import { nounFor } from "../../src/common/index.ts";
import type { LedgerTotals } from "./ledger.ts";
import { cheaperNative } from "./native-baseline.ts";
import { recallCost } from "./recall-targets.ts";
import { reuseCell } from "./reuse-report.ts";
import type { ArmReport, Report } from "./session-report.ts";

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
		row("Billed calls", (t) => {
			const extra = [
				...(t.summaryCalls > 0 ? [`${t.summaryCalls} ${nounFor(t.summaryCalls, "summary", "summaries")}`] : []),
				...(t.briefCalls > 0 ? [`${t.briefCalls} ${nounFor(t.briefCalls, "brief")}`] : []),
			];
			return extra.length > 0 ? `${t.billedCalls} (${extra.join(", ")})` : `${t.billedCalls}`;
		}),
		row("Cost at the price table", (t) => usd(t.cost)),
		row("Cost at flat base rates", (t) => usd(t.flatCost)),
		row("Long-context surcharge", (t) =>
			t.surchargeRequests > 0 ? `${usd(t.surcharge)} on ${t.surchargeRequests} requests` : "$0.00",
		),
		row("Pooled cache share", (t) => t.cacheShare.toFixed(3)),
		row("Peak request context", (t) => int(t.peakContext)),
	];
}

/** Arm `a` against arm `b`: the issue-4 measures side by side with their ratio. */
function versus(a: ArmReport, b: ArmReport): string {
	const ratio = (x: number, y: number): string => (y === 0 ? (x === 0 ? "1.00x" : "-") : `${(x / y).toFixed(2)}x`);
	const row = (label: string, f: (r: ArmReport) => number, show = int): string[] => [
		label,
		show(f(a)),
		show(f(b)),
		ratio(f(a), f(b)),
	];
	return table(
		["Measure", a.name, b.name, "ratio"],
		[
			row("Total tokens", (r) => r.totals.totalTokens),
			row("Fresh input", (r) => r.totals.freshInput),
			row("Cache read", (r) => r.totals.cacheRead),
			row("Cost at the price table", (r) => r.totals.cost, usd),
			row("Peak request context", (r) => r.totals.peakContext),
			row("Rereads", (r) => r.rereads.count),
			row("Probe answers correct", (r) => r.probes.correct),
		],
	);
}

/** pi-fold's own measures; "-" for arms without pi-fold. Only when some arm ran pi-fold. */
function pifoldRows(arms: ArmReport[]): string[][] {
	if (!arms.some((a) => a.pifold)) return [];
	const row = (label: string, f: (m: NonNullable<ArmReport["pifold"]>) => string): string[] => [
		label,
		...arms.map((a) => (a.pifold ? f(a.pifold) : "-")),
	];
	return [
		row(
			"pi-fold folds (agent / ladder / model briefs)",
			(m) => `${m.folds} (${m.agentFolds} / ${m.ladderFolds} / ${m.modelBriefs})`,
		),
		row("pi-fold commits (agent marks / top-up)", (m) => `${m.commits} (${m.agentMarks} / ${m.topUpMarks})`),
		row("Pending marks at the end", (m) => int(m.pendingMarks)),
		row("Agent fold calls / refused calls", (m) => `${m.foldCalls} / ${m.refusedCalls}`),
		row("Peeks, bytes peeked / expands", (m) => `${m.peeks}, ${mb(m.peekBytes)} / ${m.expands}`),
		row("pi-fold rewrites / unattributed", (m) => `${m.rewrites} / ${m.unattributedRewrites}`),
		...recallRows(arms),
	];
}

/** Issue 12's measures: what recovering facts from folds cost, and the fold tree's depth. */
function recallRows(arms: ArmReport[]): string[][] {
	const row = (label: string, f: (a: ArmReport) => string): string[] => [label, ...arms.map(f)];
	const kb = (n: number): string => `${(n / 1024).toFixed(2)} KB`;
	const cost = (a: ArmReport, f: (c: NonNullable<ReturnType<typeof recallCost>>) => string): string => {
		const c = recallCost(a);
		return c ? f(c) : "-";
	};
	return [
		row("Searches, bytes shown", (a) => {
			const r = a.pifold?.recall;
			return r ? `${r.searches}, ${kb(r.searchBytes)}` : "-";
		}),
		row("Fold source read per recovered fact", (a) =>
			cost(a, (c) =>
				c.facts === 0 ? `- (${kb(c.bytes)}, no facts)` : `${kb(c.bytes / c.facts)} (${kb(c.bytes)} / ${c.facts})`,
			),
		),
		row("Tool calls per recovered fact", (a) =>
			cost(a, (c) =>
				c.facts === 0 ? `- (${c.calls} calls)` : `${(c.calls / c.facts).toFixed(2)} (${c.calls} / ${c.facts})`,
			),
		),
		row("Fold tree depth / log2(leaf folds) + 2", (a) => {
			const r = a.pifold?.recall;
			return r
				? `${r.maxDepth} / ${(r.leafFolds > 0 ? Math.log2(r.leafFolds) + 2 : 2).toFixed(1)} (${r.leafFolds} leaves)`
				: "-";
		}),
	];
}

export function renderTable(report: Report): string {
	const arms = report.arms;
	const parts = [
		`Plan ${report.plan.hash.slice(0, 12)} (seed ${JSON.stringify(report.plan.seed)}, ${report.plan.stageCount} stages), ` +
			`window ${int(report.settings.window)} tokens, long-context tier over ${int(report.prices.longContextThreshold)}.`,
		"",
		table(["Measure", ...arms.map((a) => a.name)], measureRows(arms)),
		...cutSection(report),
		...versusSection(arms),
		...targetSection("Targets (issue 5), measured on this run:", report.targets),
		...targetSection("Targets (issue 12, recall), measured on this run:", report.recallTargets),
		...targetSection("Targets for reused facts, measured on this run:", report.reuseTargets ?? []),
	];
	const failures = arms.filter((a) => a.error).map((a) => `- ${a.name}: ${a.error}`);
	if (failures.length > 0) parts.push("", "Where arms stopped:", ...failures);
	return `${parts.join("\n")}\n`;
}

/** The main table's rows: one per measure, one column per arm. */
function measureRows(arms: ArmReport[]): string[][] {
	const row = (label: string, f: (a: ArmReport) => string): string[] => [label, ...arms.map(f)];
	const statusText = (a: ArmReport): string =>
		`${a.stagesCompleted} of ${a.stageCount}${a.status === "complete" ? "" : ` (${a.status})`}`;
	return [
		row("Stages completed", statusText),
		...totalsRows((a) => a.totals, arms),
		row("Mean request context", (a) => int(a.totals.meanContext)),
		row("Peak context after the first rewrite", (a) =>
			a.peakAfterFirstRewrite === null ? "-" : int(a.peakAfterFirstRewrite),
		),
		row("Compactions / fold events", (a) => `${a.compactions} / ${a.foldEvents}`),
		row("Projection rewrites", (a) => int(a.totals.projectionRewrites)),
		...pifoldRows(arms),
		row("Rejected requests (overflow)", (a) => int(a.totals.rejectedCalls)),
		row("File reads", (a) => `${a.fileReads.count}, ${mb(a.fileReads.chars)}`),
		row("Rereads", (a) => `${a.rereads.count}, ${mb(a.rereads.chars)}`),
		row("Probe answers correct", (a) => `${a.probes.correct} of ${a.probes.total}`),
		row("Receipt probes correct", (a) => `${a.receiptProbes.correct} of ${a.receiptProbes.total}`),
		row("Revisit answers correct", (a) => `${a.revisits.correct} of ${a.revisits.total}`),
		row("Reused facts: raw / recalled / blind misses", reuseCell),
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
}

/** The same-cut table when an arm stopped early (every arm's totals at the last stage all completed); else nothing. */
function cutSection(report: Report): string[] {
	if (!report.cut) return [];
	const cut = report.cut;
	const byName = new Map(cut.arms.map((c) => [c.name, c.totals]));
	return [
		"",
		`Same plan, every arm cut at stage ${cut.stage} (the last stage all arms completed):`,
		"",
		table(
			["Measure", ...report.arms.map((a) => a.name)],
			totalsRows((a) => byName.get(a.name) as LedgerTotals, report.arms),
		),
	];
}

/** The agent arm (pifold-agent, else pifold-immediate) against the cheaper native, when both ran; else nothing. */
function versusSection(arms: ArmReport[]): string[] {
	const agent = arms.find((a) => a.name === "pifold-agent") ?? arms.find((a) => a.name === "pifold-immediate");
	const native = cheaperNative(arms);
	if (!agent || !native) return [];
	const which = native.name === "native" ? "native" : `${native.name}, the cheaper native`;
	return ["", `Agent curation (${agent.name}) against ${which} (issue 4's benchmark):`, "", versus(agent, native)];
}

/** A heading and the targets that ran, with their verdicts; nothing when none ran. */
function targetSection(heading: string, targets: Report["targets"]): string[] {
	const ran = targets.filter((t) => t.met !== null);
	if (ran.length === 0) return [];
	return [
		"",
		heading,
		"",
		table(
			["Target", "Measured", "Verdict"],
			ran.map((t) => [t.target, t.measured, t.met ? "met" : "MISSED"]),
		),
	];
}
