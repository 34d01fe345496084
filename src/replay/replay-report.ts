// The replay as the person who ran it reads it: what happened in the session (recorded) beside what
// pi-fold would have done (estimated), row by row, with where each number came from, the
// estimator's check, how its window held the agent's working set (fidelity-report.ts), and the chart (each request's size in both, against the window and pi-fold's
// limits). Pure.

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

/** The session's repeated, unchanged reads: how the replay sent them, and the total sent as recorded (nothing when none). */
function heldLine(r: ReplayResult): string[] {
	const h = r.pifold.heldRereads;
	if (h.reads === 0 || h.costAsRecorded === null) return [];
	const n = plural(h.reads, "read");
	const how = [
		h.searched > 0
			? `${int(h.searched)} as pi-fold's search for the file (a fold held the earlier read) and a peek at what it points to, a request more each`
			: "",
		h.inView > 0 ? `${int(h.inView)} as a note that the window still shows it` : "",
	].filter((s) => s !== "");
	return [
		`Read again: ${n} of a file the session had already read, unchanged (${int(h.chars)} characters). Under pi-fold the earlier read is still held, and pi-fold's guidelines say to search and peek before rereading, so the replay sends them as that recall: ${how.join(", ")}. Sent as recorded instead (an agent that reads the file again anyway), pi-fold's total would be ${usd(h.costAsRecorded)}.`,
	];
}

/** The side-by-side text. `source` names the file; `chartPath` where the chart went, if written. */
export function renderReplay(r: ReplayResult, source: string, chartPath?: string): string {
	const n = r.native;
	const f = r.pifold;
	const lines = [
		`pi-fold replay of ${source} (session ${r.sessionId}, file version ${r.version})`,
		...limitsLines(r),
		pricesLine(r),
		`Replayed ${int(r.messages)} messages of the active branch offline: no model calls (a brief the session model would write is priced at the session's prices, its whole request uncached; its text is the built-in brief)`,
		...(r.ranPiFold
			? [
					"This session already ran pi-fold: the first column is the session as it ran, with pi-fold; the second replays its messages through pi-fold afresh (its own folds left out).",
				]
			: []),
		"",
		r.ranPiFold
			? row("", "as it ran, with pi-fold", "pi-fold afresh (estimated)")
			: row("", "in the session (recorded)", "with pi-fold (estimated)"),
		row("Requests", int(n.requests.calls), int(f.requests.length)),
		row("Prompt tokens", int(n.requests.input + n.requests.cacheRead + n.requests.cacheWrite), int(f.prompt)),
		row("  read from cache", int(n.requests.cacheRead), int(f.cacheRead)),
		row("  not cached", int(n.requests.input + n.requests.cacheWrite), int(f.fresh)),
		row(
			"Output tokens",
			int(n.requests.output),
			f.heldRereads.searched > 0
				? `${int(f.output)} (the same replies, and the peek calls)`
				: `${int(f.output)} (the same replies)`,
		),
		row("Cost of the requests", usd(r.recordedCost.dollars), usd(f.cost)),
		row("Summary requests", `${n.summaries.calls} (${usd(r.recordedCost.summaries)})`, briefsCell(r)),
		row(
			"Total cost",
			usd(r.recordedCost.dollars + r.recordedCost.summaries),
			usd(r.pifold.cost + r.pifold.briefs.cost),
		),
		...recallRows(r, row),
		row("Peak request", int(n.peak), int(f.peak)),
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
		`Estimator check: that session as it ran, estimated the same way: ${int(r.check.prompt)} prompt tokens, ${usd(r.check.cost)} (recorded: ${int(n.requests.input + n.requests.cacheRead + n.requests.cacheWrite)}, ${usd(r.recordedCost.dollars)}).`,
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
