// `/context details` for the human: what sits behind the headline, in plain words. The budget's
// parts, how folds are scheduled and what the scheduler last decided, marks waiting for a commit,
// what the window observer saw of each request (appended, rewritten by a commit, rewritten without
// one, cache misses at the provider), native compaction, requests pi-fold stopped, model-written
// briefs, excerpts of oversized results, the folds Pi's compaction summarized (one count) and those
// no one can read, protections and refusals, and where the originals are kept. Estimates are given
// in Pi's tokens (the calibration), as the headline's figures are. Pure over the status model.

import { plural } from "../../common/index.ts";
import { derivationLines } from "./budget-words.ts";
import type { CommandNames } from "./context-views.ts";
import { budgetLine, usageLine } from "./context-views.ts";
import type { StatusModel } from "./model.ts";
import { storeLines } from "./store-line.ts";

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Marks listed before "and N more". */
const MARKS_LISTED = 10;
/** Unreadable folds listed before "and N more". */
const UNREADABLE_LISTED = 10;
/** Protected entry ids listed before "and N more". */
const PROTECTED_LISTED = 12;

const MODE_WORDS: Record<string, string> = {
	cost: "Scheduling: cost (marks land together when that is cheaper than waiting)",
	epoch: "Scheduling: epoch (folds are marked, then land together when room is needed)",
	immediate: "Scheduling: immediate (each fold lands at the next request)",
};

/** Who marked a part, as a person reads it. */
const ORIGIN_WORDS: Record<string, string> = {
	agent: "the agent",
	human: "you",
	ladder: "pi-fold",
	"top-up": "pi-fold",
};

function schedulingLines(m: StatusModel): string[] {
	const s = m.scheduling;
	const mode = MODE_WORDS[s.mode] ?? `Scheduling: ${s.mode}`;
	const lines = [mode];
	const last = s.lastDecision;
	if (last) {
		const what = last.commit ? `folded: ${reasonWords(last.reason)}` : waitingWords(m, last.reason);
		lines.push(`Last decision, at the ${last.at}:`, `  ${what}`);
		lines.push(`  its estimate of the next request: ~${fmt(inPiTokens(m, last.occupancyTokens))} tokens`);
	}
	if (s.marks.length > 0) {
		lines.push(
			`Marked to fold: ${plural(s.marks.length, "part")}, freeing ~${fmt(s.commitWouldFreeTokens * m.rate)} tokens`,
		);
		for (const mark of s.marks.slice(0, MARKS_LISTED))
			lines.push(
				`  ${mark.id} · by ${ORIGIN_WORDS[mark.origin] ?? mark.origin} · ~${fmt(mark.freedTokens * m.rate)} tokens · ${mark.state === "waits (fresh tail)" ? "waits: among the most recent messages" : mark.state}`,
			);
		if (s.marks.length > MARKS_LISTED) lines.push(`  and ${s.marks.length - MARKS_LISTED} more`);
	}
	return lines;
}

/** An estimate of a whole request in Pi's tokens (the calibration: a fixed overhead and a rate). */
function inPiTokens(m: StatusModel, estimate: number): number {
	return m.overhead + estimate * m.rate;
}

/** A commit's reason in plain words: its parts as the schedulers write them, translated; dollars left to the commit line. */
function reasonWords(reason: string): string {
	const words = reason.split("; ").map((part) => {
		if (part === "an expand opened the epoch") return "an expand was asked for, and it shows at the next request";
		if (part === "decisions pending") return "folds you or the agent asked for were waiting";
		if (part.startsWith("it pays")) return "folding now costs less than it saves";
		return part.replace(/^occupancy [\d.]+% with stale tool mass$/, "the window is filling with old tool results");
	});
	return [...new Set(words)].join("; ");
}

/** A hold's reason in plain words (known reasons; anything else as the scheduler wrote it). */
function waitingWords(m: StatusModel, reason: string): string {
	if (reason.startsWith("quiet")) return "waiting: the window is below the level where pi-fold folds on its own";
	const holding = /^holding (\d+) mark/.exec(reason);
	if (holding) return `waiting: ${holding[1]} marked part(s) fold when the window needs room`;
	if (reason === "holding: nothing stale to fold") return "waiting: nothing old enough to fold yet";
	const cost = /^holding: ~([\d,]+) tokens foldable, worth a commit from ~([\d,]+)/.exec(reason);
	if (cost) {
		const [foldable, from] = [cost[1], cost[2]].map((n) => Number((n as string).replaceAll(",", "")) * m.rate);
		// Past pi-fold's limit the cost rule never fires: the limit does first.
		const pays =
			(from as number) < m.budget.budgetTokens
				? `; it pays once about ${fmt(from as number)} could`
				: "; pi-fold folds them when the window nears its limit";
		return `waiting: ~${fmt(foldable as number)} tokens could fold, but folding now costs more than it saves${pays}`;
	}
	return `waiting (${reason.replace(/^holding: /, "")})`;
}

function observerLines(m: StatusModel): string[] {
	const c = m.telemetry.counters;
	return [
		`Requests ${m.telemetry.baseline}: ${c.requests}`,
		`  ${c.appends} only added messages to the previous request (its cache stays valid)`,
		`  ${c.identical} repeated it exactly; ${c.rewrites} changed earlier messages, the prompt or the tools`,
		`  ${c.unattributedRewrites} of those changes no commit or compaction explains (should be 0)`,
		`  ${c.providerCacheMisses} missed the provider's cache with nothing changed (the provider's doing)`,
		...wireLines(m.telemetry.wire),
	];
}

/** The same measurement on each request body as it left for the provider, where the host shows it. */
function wireLines(wire: StatusModel["telemetry"]["wire"]): string[] {
	if (!wire) return [];
	return [
		`Request bodies as they left for the provider: ${wire.requests}`,
		`  ${wire.appends} only added to the previous body; ${wire.rewrites} changed it, ${wire.unattributedRewrites} with nothing to explain it (should be 0)`,
	];
}

function eventLines(m: StatusModel): string[] {
	const t = m.telemetry;
	const lines: string[] = [];
	for (const c of t.compactions.recent.slice(-3))
		lines.push(`Pi's compaction (${c.reason}): ${c.decision === "cancelled" ? "cancelled" : "let through"}: ${c.why}`);
	if (t.fenced.total > 0)
		lines.push(
			`Requests pi-fold stopped because no fold could make them fit: ${t.fenced.total} (last: ${t.fenced.recent.at(-1)})`,
		);
	const u = t.briefs;
	if (u.calls > 0 || u.fallbacks > 0)
		lines.push(
			`Briefs written by a model: ${u.calls} (${u.fallbacks} fell back to the built-in brief) · ${fmt(u.input)} tokens in, ${fmt(u.output)} out`,
		);
	if (m.evidenceIngestion && (t.evidence.written > 0 || t.evidence.refused > 0))
		lines.push(
			`Tool results too large for the window shown as excerpts: ${t.evidence.written} (${t.evidence.refused} left whole: their originals would pass the 512 MiB one session may store for excerpts)`,
		);
	return lines;
}

function stateLines(m: StatusModel, cmd: CommandNames): string[] {
	const { snap } = m;
	const lines: string[] = [];
	const entries = [...snap.state.protectedEntries];
	if (entries.length > 0) {
		const more = entries.length > PROTECTED_LISTED ? ` and ${entries.length - PROTECTED_LISTED} more` : "";
		lines.push(`Protected entries (never folded): ${entries.slice(0, PROTECTED_LISTED).join(", ")}${more}`);
	}
	if (snap.state.protectedFolds.size > 0) lines.push(`Protected folds: ${[...snap.state.protectedFolds].join(", ")}`);
	const { summarized, unreadable } = m.forest;
	if (summarized.length > 0)
		lines.push(
			`Folds Pi's compaction summarized: ${summarized.length}, still readable (/${cmd.fold} peek <id>, /${cmd.fold} search <text>)`,
		);
	for (const u of unreadable.slice(0, UNREADABLE_LISTED)) lines.push(`Fold ${u.record.id} cannot be read: ${u.reason}`);
	if (unreadable.length > UNREADABLE_LISTED)
		lines.push(`  and ${unreadable.length - UNREADABLE_LISTED} more unreadable`);
	if (snap.view.foreign.size > 0)
		lines.push(`Entries another extension edited (pi-fold leaves them): ${[...snap.view.foreign].join(", ")}`);
	for (const r of m.telemetry.commitRefusals) lines.push(`Refused at the last commit: ${r.foldId}: ${r.reason}`);
	for (const r of snap.state.refusals) lines.push(`Refused decision record ${r.entryId}: ${r.reason}`);
	if (m.paused) lines.push(`Automatic folding is paused: ${m.paused.replace(/^automatic folding paused: /, "")}`);
	return lines;
}

/** The details view. */
export function renderDetails(m: StatusModel, cmd: CommandNames): string {
	const b = m.budget;
	const lines = [
		usageLine(m),
		budgetLine(m),
		...derivationLines(b).map((l) => `  ${l}`),
		...schedulingLines(m),
		...observerLines(m),
		...eventLines(m),
		...stateLines(m, cmd),
		...storeLines(m),
		`Exact originals of the folds are kept in ${m.storeDir}`,
		`Back to the summary: /${cmd.status} · settings: /${cmd.fold} config`,
	];
	return lines.join("\n");
}
