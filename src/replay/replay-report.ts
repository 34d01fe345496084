// The replay as the person who ran it reads it: a bottom line, then the session as it ran beside what
// pi-fold would have done, row by row, both estimated the same way (so the comparison carries no
// estimator error of its own), with where each number came from; the recorded bill as the estimator's
// check; how pi-fold's window held the agent's working set (fidelity-report.ts); and the chart (each
// request's size in both, against the window and pi-fold's limits). Pure.

import type { ChartInput } from "../chart/index.ts";
import { niceStep } from "../chart/index.ts";
import { nounFor, plural } from "../common/index.ts";
import { QUIET_OCCUPANCY } from "../policy/index.ts";
import { fidelityLines, recallRows } from "./fidelity-report.ts";
import type { Prices } from "./recorded-session.ts";
import { chartNote, divergenceNote, limitsLines, overLimitNote } from "./replay-notes.ts";
import type { ReplayResult } from "./replay-session.ts";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(2)}`;
const mb = (bytes: number) =>
	bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(1)} kB`;

function row(label: string, recorded: string, estimated: string): string {
	return `${label.padEnd(24)} ${recorded.padEnd(28)} ${estimated}`;
}

function pricesLine(r: ReplayResult): string {
	const p = r.prices;
	if (p.input + p.output + p.cacheRead + p.cacheWrite === 0)
		return "Prices: the file records no cost (pass --prices to price the tokens)";
	const recorded =
		r.recordedCost.from === "the prices" ? "; the file records no cost, so its tokens are priced too" : "";
	const rates = (t: Omit<Prices, "tiers">) =>
		`input $${t.input}, output $${t.output}, cache read $${t.cacheRead}, cache write $${t.cacheWrite}`;
	const tiers = (p.tiers ?? []).map(
		(t) => `; a request above ${t.inputTokensAbove.toLocaleString("en-US")} tokens: ${rates(t)}`,
	);
	return `Prices per million tokens (${r.pricesFrom}): ${rates(p)}${tiers.join("")}${recorded}`;
}

/** pi-fold's brief requests, as the summary row shows them. */
function briefsCell(r: ReplayResult): string {
	const b = r.pifold.briefs;
	if (b.calls === 0) return "none (built-in briefs)";
	return `${b.calls} ${nounFor(b.calls, "brief")} (${usd(b.cost)}, no cache)`;
}

/** The session's repeated, unchanged reads: how the replay sent them (the parts add up to the reads), and the total sent as recorded (nothing when none). */
function heldLine(r: ReplayResult): string[] {
	const h = r.pifold.heldRereads;
	if (h.reads === 0) return [];
	const read = `Read again: ${plural(h.reads, "read")} of a file the session had already read, unchanged (${int(h.chars)} characters).`;
	if (h.ranPiFold)
		return [
			`${read} The session ran pi-fold, so its agent read them again with pi-fold's guidelines in view: the replay sends them as recorded.`,
		];
	const how = [
		h.searched > 0
			? `${int(h.searched)} as pi-fold's search for the file (a fold held the earlier read) and a peek at what it points to, a request more each`
			: "",
		h.inView > 0 ? `${int(h.inView)} as a note that the window still shows it` : "",
		h.asRecorded > 0 ? `${int(h.asRecorded)} not reached (the replay stopped before them)` : "",
	].filter((s) => s !== "");
	const instead =
		h.costAsRecorded === null
			? ""
			: ` Sent as recorded instead (an agent that reads the file again anyway), pi-fold's total would be ${usd(h.costAsRecorded)}.`;
	return [
		`${read} Under pi-fold the earlier read is still held, and pi-fold's guidelines say to search and peek before rereading, so the replay sends them as that recall: ${how.join(", ")}.${instead}`,
	];
}

/** The session as it ran, estimated, and with pi-fold: their totals (summary and brief requests included). */
export function replayTotals(r: ReplayResult): { asRan: number; pifold: number } {
	return { asRan: r.check.cost + r.recordedCost.summaries, pifold: r.pifold.cost + r.pifold.briefs.cost };
}

/** What x is of y in words: "0.59x, 41% less" / "1.27x, 27% more" / "the same". */
function ratioWords(x: number, y: number): string {
	const ratio = x / y;
	const pct = Math.round(Math.abs(1 - ratio) * 100);
	if (pct === 0) return `${ratio.toFixed(2)}x, about the same`;
	return `${ratio.toFixed(2)}x, ${pct}% ${ratio < 1 ? "less" : "more"}`;
}

/** The bottom line: pi-fold against the session as it ran, both estimated the same way. */
export function bottomLine(r: ReplayResult): string {
	const t = replayTotals(r);
	const them = r.ranPiFold ? "replayed through pi-fold afresh, this session" : "with pi-fold this session";
	const asRan = r.ranPiFold ? "as it ran with pi-fold" : "as it ran";
	if (t.asRan > 0)
		return `Bottom line: ${them} would have cost ${usd(t.pifold)}, against ${usd(t.asRan)} ${asRan}, both estimated the same way: ${ratioWords(t.pifold, t.asRan)}.`;
	if (r.check.prompt > 0)
		return `Bottom line: ${them} would have sent ${int(r.pifold.prompt)} prompt tokens, against ${int(r.check.prompt)} ${asRan}, both estimated the same way: ${ratioWords(r.pifold.prompt, r.check.prompt)} (no prices, so no dollars: pass --prices).`;
	return "Bottom line: the session made no request to compare.";
}

/** The estimator's check: the session as it ran, estimated, against what the file records. */
function checkLine(r: ReplayResult): string {
	const n = r.native;
	const recordedPrompt = n.requests.input + n.requests.cacheRead + n.requests.cacheWrite;
	const bill = r.recordedCost.from === "the file" ? "its bill" : "its tokens at the prices";
	const off = (estimate: number, recorded: number) => {
		if (recorded <= 0) return "";
		const pct = Math.round((100 * (estimate - recorded)) / recorded);
		return pct === 0 ? ", the same" : `, ${Math.abs(pct)}% ${pct < 0 ? "under" : "over"}`;
	};
	return `Estimator check: the session as it ran, estimated the same way as pi-fold: ${int(r.check.prompt)} prompt tokens (recorded ${int(recordedPrompt)}${off(r.check.prompt, recordedPrompt)}), peak ${int(r.check.peak)} (recorded ${int(n.peak)}), requests ${usd(r.check.cost)} (recorded, ${bill}: ${usd(r.recordedCost.dollars)}${off(r.check.cost, r.recordedCost.dollars)}). The comparison above uses the estimate on both sides.`;
}

/** The side-by-side text. `source` names the file; `chartPath` where the chart went, if written. */
export function renderReplay(r: ReplayResult, source: string, chartPath?: string): string {
	const n = r.native;
	const f = r.pifold;
	const c = r.check;
	const totals = replayTotals(r);
	const lines = [
		`pi-fold replay of ${source} (session ${r.sessionId}, file version ${r.version})`,
		...limitsLines(r),
		pricesLine(r),
		`Replayed ${int(r.messages)} messages of the active branch offline: no model calls (a brief the session model would write is priced at the session's prices, its whole request uncached; its text is the built-in brief)`,
		...(r.ranPiFold
			? [
					"This session already ran pi-fold: the first column is the session as it ran, with pi-fold; the second replays its messages through pi-fold afresh (its own folds left out).",
					...(r.ranBuiltInBriefs
						? [
								"Its folds' briefs were all built in (none written by a model), so the replay writes built-in briefs too (--settings with a summarizer says otherwise).",
							]
						: []),
				]
			: []),
		"",
		bottomLine(r),
		"",
		r.ranPiFold
			? row("", "as it ran (estimated)", "pi-fold afresh (estimated)")
			: row("", "as it ran (estimated)", "with pi-fold (estimated)"),
		row("Requests", int(c.requests), int(f.requests.length)),
		row("Prompt tokens", int(c.prompt), int(f.prompt)),
		row("  read from cache", int(c.cacheRead), int(f.cacheRead)),
		row("  not cached", int(c.fresh), int(f.fresh)),
		row(
			"Output tokens",
			int(c.output),
			f.heldRereads.searched > 0
				? `${int(f.output)} (the same replies, and the peek calls)`
				: `${int(f.output)} (the same replies)`,
		),
		row("Cost of the requests", usd(c.cost), usd(f.cost)),
		row("Summary requests", `${n.summaries.calls} (${usd(r.recordedCost.summaries)}, as recorded)`, briefsCell(r)),
		row("Total cost", usd(totals.asRan), usd(totals.pifold)),
		...recallRows(r, row),
		row("Peak request", int(c.peak), int(f.peak)),
		row(
			"Compactions / folds",
			`${n.compactions} ${nounFor(n.compactions, "compaction")}`,
			`${f.folds} ${nounFor(f.folds, "fold")} (${f.agentFolds} the agent's) in ${f.commits} ${nounFor(f.commits, "commit")}`,
		),
		row(
			"Out of the model's reach",
			`${int(n.summarizedAway)} messages summarized away`,
			`none: ${int(f.foldedEntries)} entries folded, ${mb(f.foldedBytes)}`,
		),
		"",
		`Every folded entry stays in pi-fold's fold store byte for byte, addressed and verified by SHA-256; peek or expand brings it back.`,
		"Left out: the replay sends the session's own replies, so where the session did not read a file again it cannot see an agent going back to what pi-fold folded (a peek, a search); each costs a request more than this estimate.",
		...heldLine(r),
		"",
		...fidelityLines(r),
		"",
		`Estimates: the simulator's count of each request times ${r.calibration.slope.toFixed(3)}, plus ${int(r.calibration.intercept)} tokens a request the file does not carry (system prompt and tools), fitted on the same session as it ran.`,
		checkLine(r),
	];
	if (n.other.calls > 0)
		lines.push(
			`Other usage in the file (cache warming and the like): ${n.other.calls} records, ${usd(n.other.cost)}; not replayed.`,
		);
	if (f.overflows.length > 0) {
		const which = f.overflows.slice(0, 5).join(", ") + (f.overflows.length > 5 ? ", …" : "");
		lines.push(
			`Over the window: ${f.overflows.length} of pi-fold's requests (replies ${which}) are estimated above the ${int(r.window)}-token window; a live session would have overflowed there and Pi's compaction would have run, which this replay does not model. Their cost is counted as if sent.`,
		);
	}
	lines.push(...overLimitNote(r));
	if (f.stopped) lines.push(`Stopped early: ${f.stopped}.`);
	for (const p of f.problems.slice(0, 5)) lines.push(`Note: ${p}`);
	lines.push(...divergenceNote(r));
	if (chartPath) lines.push(`Chart: ${chartPath}`);
	return `${lines.join("\n")}\n`;
}

/** The chart: each reply's request size, recorded and with pi-fold, against the window and pi-fold's limits. */
export function replayChart(r: ReplayResult): ChartInput {
	const recorded = r.native.prompts.map((p, i) => ({ x: i + 1, y: p.prompt }));
	const pifold = r.pifold.requests.map((q) => ({ x: q.reply, y: q.prompt }));
	const xMax = Math.max(2, recorded.length, ...pifold.map((p) => p.x));
	const step = niceStep(xMax, 8);
	const ticks = [1];
	for (let x = step; x <= xMax; x += step) if (x > 1) ticks.push(x);
	const note = chartNote(r);
	const asRan = r.ranPiFold ? "as it ran, with pi-fold" : "in the session";
	return {
		title: r.ranPiFold
			? "Request size per reply: the session as it ran with pi-fold, and pi-fold replayed afresh"
			: "Request size per reply: the session as it ran, and with pi-fold",
		subtitle: `${r.model ?? "session"} · ${int(r.window)}-token window · pi-fold's sizes are estimates`,
		...(note ? { note } : {}),
		xLabel: "reply (in the order the session made them)",
		yLabel: "request size (tokens)",
		xMin: 0.5,
		xMax: xMax + 0.5,
		xTicks: ticks.map((t) => ({ at: t, label: String(t) })),
		series: [
			{ name: "recorded", label: `${asRan} (${r.native.compactions} compactions)`, points: recorded },
			{
				name: "pi-fold",
				label: `${r.ranPiFold ? "pi-fold afresh" : "with pi-fold"} (${r.pifold.commits} commits, estimated)`,
				points: pifold,
			},
		],
		guides: [
			{ value: r.window, label: `model window ${int(r.window)} tokens` },
			{ value: r.budget, label: `pi-fold's limit ${int(r.budget)} (window less the reply's reserve)` },
			{ value: QUIET_OCCUPANCY * r.budget, label: `pi-fold folds on its own above ${int(QUIET_OCCUPANCY * r.budget)}` },
		],
	};
}
