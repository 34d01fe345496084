// The working-set fidelity in the replay's words (fidelity.ts): a few plain lines under the table for
// one session, the recalls as a row of the total, and the cells and total row of a folder's table.
// Pure.

import { plural } from "../common/index.ts";
import type { Fidelity, WorkingSetFigures } from "./fidelity.ts";
import { RECALL_FRESH_TOKENS, RECALL_OUTPUT_TOKENS } from "./fidelity.ts";
import type { ReplayResult } from "./replay-session.ts";

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(2)}`;
/** A share of `of` as a percentage with one decimal ("-" of nothing). */
const pct = (n: number, of: number) => (of > 0 ? ((100 * n) / of).toFixed(1) : "-");
/** A share of `of` as a whole percentage. */
const share = (n: number, of: number) => (of > 0 ? ((100 * n) / of).toFixed(0) : "-");
const ratio = (x: number | null) => (x === null ? "-" : `${x.toFixed(2)}x`);

/** What the measure counts and misses, in one line. */
export const FIDELITY_CAVEAT =
	"What the working set counts: facts a reply quoted (paths, code-shaped identifiers of 8+ characters, numbers of 4+ digits, hex ids, quoted strings) that it first saw in a tool result at least 3 requests back, looked up by exact substring. It misses facts used without quoting them, short identifiers and paraphrase, cannot tell whether a named fact was enough, and counts tokens a model knows anyway: the session as it ran is that noise floor.";

/** "raw / named / missing" percentages of a series' facts. */
function factShares(w: WorkingSetFigures): string {
	return `${pct(w.raw, w.facts)} / ${pct(w.named, w.facts)} / ${pct(w.missing, w.facts)}`;
}

/** "raw / paraphrased / gone" percentages of a series' user messages. */
function userShares(w: WorkingSetFigures): string {
	const u = w.users;
	return `${share(u.raw, u.lookups)} / ${share(u.paraphrased, u.lookups)} / ${share(u.gone, u.lookups)}`;
}

/** The lines under one session's table. */
export function fidelityLines(r: ReplayResult): string[] {
	const { pifold: p, asRan: a, recalls } = r.fidelity;
	const requests = r.pifold.requests.length;
	const lines = [
		p.facts === 0
			? "Working set: no reply quoted a fact it first saw in a tool result at least 3 requests back."
			: `Working set: of ${int(p.facts)} facts the agent later used from earlier tool results, pi-fold's window held ${pct(p.raw, p.facts)}% raw, ${pct(p.named, p.facts)}% only named in a brief or note, ${pct(p.missing, p.facts)}% missing (as it ran: ${factShares(a)}).`,
	];
	const u = p.users;
	if (u.lookups > 0)
		lines.push(
			`User messages: the ${int(u.messages)} the user wrote (40+ characters), each looked up at every later request (${int(u.lookups)} lookups): pi-fold's window held ${share(u.raw, u.lookups)}% raw, ${share(u.paraphrased, u.lookups)}% only in a brief or summary (paraphrased), ${share(u.gone, u.lookups)}% gone (as it ran: ${userShares(a)}).`,
		);
	if (p.facts > 0)
		lines.push(
			`Recalls: ${int(recalls.requests)} of pi-fold's ${int(requests)} requests (${pct(recalls.requests, requests)}%) lacked a fact the reply used and would need a recall, a search and a peek (two reads of the prompt from cache, about ${int(RECALL_FRESH_TOKENS)} fresh tokens and ${RECALL_OUTPUT_TOKENS} output): about ${usd(recalls.cost)}; pi-fold's total with them ${usd(recalls.total)}, ${ratio(recalls.ratio)} the session as it ran estimated the same way (${usd(recalls.asRan)}; ${ratio(recalls.ratioWithout)} without them). As it ran, ${int(a.recalls.length)} requests lacked one.`,
		);
	lines.push(FIDELITY_CAVEAT);
	return lines;
}

/** The table's rows for the recalls: their own line, then the total with them (label width as the table's). */
export function recallRows(r: ReplayResult, row: (label: string, left: string, right: string) => string): string[] {
	const { recalls } = r.fidelity;
	if (r.fidelity.pifold.facts === 0) return [];
	return [
		row(
			"  recalls (estimated)",
			`${plural(r.fidelity.asRan.recalls.length, "request")} lacked a fact`,
			`${plural(recalls.requests, "request")} lacked a fact: ${usd(recalls.cost)}`,
		),
		row("Total with recalls", `${usd(recalls.asRan)} (estimated)`, `${usd(recalls.total)} (${ratio(recalls.ratio)})`),
	];
}

/** A folder row's cells: facts, missing % pi-fold (as ran), user messages gone % (as ran), recalls, ratio with recalls. */
export function fidelityCells(f: Fidelity): string[] {
	const { pifold: p, asRan: a } = f;
	return [
		int(p.facts),
		`${pct(p.missing, p.facts)} (${pct(a.missing, a.facts)})`,
		p.users.lookups > 0 ? `${pct(p.users.gone, p.users.lookups)} (${pct(a.users.gone, a.users.lookups)})` : "-",
		int(f.recalls.requests),
		ratio(f.recalls.ratio),
	];
}

export const FIDELITY_HEADS = ["facts", "missing % (as ran)", "user msgs gone % (as ran)", "recalls", "with recalls"];

/** The folder's total cells over `results`: facts and user-message lookups pooled, dollars summed. */
export function fidelityTotalCells(results: readonly ReplayResult[]): string[] {
	const sum = (pick: (r: ReplayResult) => number) => results.reduce((n, r) => n + pick(r), 0);
	const facts = sum((r) => r.fidelity.pifold.facts);
	const missing = sum((r) => r.fidelity.pifold.missing);
	const asRanMissing = sum((r) => r.fidelity.asRan.missing);
	const asRanFacts = sum((r) => r.fidelity.asRan.facts);
	const gone = (pick: (f: Fidelity) => WorkingSetFigures) =>
		pct(
			sum((r) => pick(r.fidelity).users.gone),
			sum((r) => pick(r.fidelity).users.lookups),
		);
	const asRan = sum((r) => r.fidelity.recalls.asRan);
	const requests = sum((r) => r.pifold.requests.length);
	const recalls = sum((r) => r.fidelity.recalls.requests);
	return [
		int(facts),
		`${pct(missing, facts)} (${pct(asRanMissing, asRanFacts)})`,
		`${gone((f) => f.pifold)} (${gone((f) => f.asRan)})`,
		`${int(recalls)} (${pct(recalls, requests)}%)`,
		asRan > 0 ? `${(sum((r) => r.fidelity.recalls.total) / asRan).toFixed(2)}x` : "-",
	];
}
