// Renders a report as the spec's side-by-side Markdown table (one column per arm, each row in plain words), the
// same-cut table when an arm stopped early, the default with a curating agent against the cheaper native, the
// targets (the default's, recall, then the spec's epoch mode's apart: its misses are that mode's), and the bottom
// line. Pure functions.

import { nounFor } from "../../src/common/index.ts";
import { bottomLine } from "./bottom-line.ts";
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
		row("Input tokens not from the cache", (t) => int(t.freshInput)),
		row("Input tokens read from the cache", (t) => int(t.cacheRead)),
		row("Output tokens", (t) => int(t.output)),
		row("Model requests (summaries, briefs)", (t) => {
			const extra = [
				...(t.summaryCalls > 0 ? [`${t.summaryCalls} ${nounFor(t.summaryCalls, "summary", "summaries")}`] : []),
				...(t.briefCalls > 0 ? [`${t.briefCalls} ${nounFor(t.briefCalls, "brief")}`] : []),
			];
			return extra.length > 0 ? `${t.billedCalls} (${extra.join(", ")})` : `${t.billedCalls}`;
		}),
		row("Cost", (t) => usd(t.cost)),
		row("Cost with no long-context price", (t) => usd(t.flatCost)),
		row("Paid extra for long context", (t) =>
			t.surchargeRequests > 0 ? `${usd(t.surcharge)} on ${t.surchargeRequests} requests` : "$0.00",
		),
		row("Share of input from the cache", (t) => t.cacheShare.toFixed(3)),
		row("Largest request (tokens)", (t) => int(t.peakContext)),
	];
}

/** Arm `a` against arm `b`: what a session spends and recalls, side by side with their ratio. */
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
			row("Input tokens not from the cache", (r) => r.totals.freshInput),
			row("Input tokens read from the cache", (r) => r.totals.cacheRead),
			row("Cost", (r) => r.totals.cost, usd),
			row("Largest request (tokens)", (r) => r.totals.peakContext),
			row("Files read again", (r) => r.rereads.count),
			row("Questions on earlier work answered right", (r) => r.probes.correct),
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
			"Folds (by the agent / automatic / briefs by the model)",
			(m) => `${m.folds} (${m.agentFolds} / ${m.ladderFolds} / ${m.modelBriefs})`,
		),
		row(
			"Commits (agent's folds in them / added to free enough)",
			(m) => `${m.commits} (${m.agentMarks} / ${m.topUpMarks})`,
		),
		row("Agent's folds still waiting at the end", (m) => int(m.pendingMarks)),
		row("Agent's fold calls / refused", (m) => `${m.foldCalls} / ${m.refusedCalls}`),
		row("Peeks (MB read) / expands", (m) => `${m.peeks}, ${mb(m.peekBytes)} / ${m.expands}`),
		row("Window rewrites / not at a commit", (m) => `${m.rewrites} / ${m.unattributedRewrites}`),
		...recallRows(arms),
	];
}

/** What recovering facts from folds cost, and how deep folds nest. */
function recallRows(arms: ArmReport[]): string[][] {
	const row = (label: string, f: (a: ArmReport) => string): string[] => [label, ...arms.map(f)];
	const kb = (n: number): string => `${(n / 1024).toFixed(2)} KB`;
	const cost = (a: ArmReport, f: (c: NonNullable<ReturnType<typeof recallCost>>) => string): string => {
		const c = recallCost(a);
		return c ? f(c) : "-";
	};
	return [
		row("Searches (KB shown)", (a) => {
			const r = a.pifold?.recall;
			return r ? `${r.searches}, ${kb(r.searchBytes)}` : "-";
		}),
		row("Original text read per fact recalled", (a) =>
			cost(a, (c) =>
				c.facts === 0 ? `- (${kb(c.bytes)}, no facts)` : `${kb(c.bytes / c.facts)} (${kb(c.bytes)} / ${c.facts})`,
			),
		),
		row("Tool calls per fact recalled", (a) =>
			cost(a, (c) =>
				c.facts === 0 ? `- (${c.calls} calls)` : `${(c.calls / c.facts).toFixed(2)} (${c.calls} / ${c.facts})`,
			),
		),
		row("Folds nested, deepest / limit", (a) => {
			const r = a.pifold?.recall;
			return r
				? `${r.maxDepth} / ${(r.leafFolds > 0 ? Math.log2(r.leafFolds) + 2 : 2).toFixed(1)} (${r.leafFolds} folds)`
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
		...targetSection("Targets for pi-fold's default, measured on this run:", report.defaultTargets),
		...targetSection("Recall targets, measured on this run:", report.recallTargets),
		...targetSection("Targets for reused facts, measured on this run:", report.reuseTargets ?? []),
		...targetSection(
			"The spec's epoch mode (pifold-epoch, not pi-fold's default) against the spec's targets for it:",
			report.targets,
		),
	];
	const failures = arms.filter((a) => a.error).map((a) => `- ${a.name}: ${a.error}`);
	if (failures.length > 0) parts.push("", "Where arms stopped:", ...failures);
	parts.push("", ...bottomLine(report));
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
		row("Average request (tokens)", (a) => int(a.totals.meanContext)),
		row("Largest request after the first fold or compaction", (a) =>
			a.peakAfterFirstRewrite === null ? "-" : int(a.peakAfterFirstRewrite),
		),
		row("Compactions / pi-fold commits", (a) => `${a.compactions} / ${a.foldEvents}`),
		row("Requests that rewrote the window", (a) => int(a.totals.projectionRewrites)),
		...pifoldRows(arms),
		row("Requests refused as too large", (a) => int(a.totals.rejectedCalls)),
		row("Files read (MB)", (a) => `${a.fileReads.count}, ${mb(a.fileReads.chars)}`),
		row("Files read again (MB)", (a) => `${a.rereads.count}, ${mb(a.rereads.chars)}`),
		row("Questions on earlier work answered right", (a) => `${a.probes.correct} of ${a.probes.total}`),
		row("Of them, about receipts", (a) => `${a.receiptProbes.correct} of ${a.receiptProbes.total}`),
		row("Questions on revisited files answered right", (a) => `${a.revisits.correct} of ${a.revisits.total}`),
		row("Reused facts: raw / recalled / blind misses", reuseCell),
		row(
			"Where answers came from",
			(a) =>
				Object.entries(a.answersBy)
					.sort((x, y) => y[1] - x[1])
					.map(([route, n]) => `${route} ${n}`)
					.join(", ") || "-",
		),
		row("Notes accepted", (a) => `${a.notes.accepted} of ${a.notes.total}`),
		row("Stages asked again", (a) => int(a.reissues)),
		row("Time to run", (a) => seconds(a.wallMs)),
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
	const who = agent.name === "pifold-agent" ? "pi-fold's default with a curating agent" : "a curating agent";
	return ["", `${who} (${agent.name}) against ${which}:`, "", versus(agent, native)];
}

/** A heading and the targets that ran, with their verdicts (a non-default mode's miss is that mode's, not MISSED); nothing when none ran. */
function targetSection(heading: string, targets: Report["targets"]): string[] {
	const ran = targets.filter((t) => t.met !== null);
	if (ran.length === 0) return [];
	return [
		"",
		heading,
		"",
		table(
			["Target", "Measured", "Verdict"],
			ran.map((t) => [t.target, t.measured, t.met ? "met" : t.mode ? `missed by ${t.mode} mode` : "MISSED"]),
		),
	];
}
