// `pi-fold replay DIR`: every Pi session file in a folder (for example
// `~/.pi/agent/sessions/--project--/`), each replayed as `pi-fold replay FILE` replays it, one row
// each and the total: would pi-fold have helped across these sessions. A file that is not a
// readable session is listed with the reason and left out of the total; no charts are written.
// Does its own reads; the replays are src/replay's.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { nounFor } from "../../common/index.ts";
import {
	FIDELITY_CAVEAT,
	FIDELITY_HEADS,
	fidelityCells,
	fidelityTotalCells,
	LimitsError,
	parseSessionFile,
	type ReplayOptions,
	type ReplayResult,
	replaySession,
	type SessionFile,
	SessionFileError,
} from "../../replay/index.ts";

/** One file of the folder: its replay, or why it could not be replayed. */
type FolderRow = { readonly file: string } & ({ readonly result: ReplayResult } | { readonly problem: string });

const usd = (n: number) => `$${n.toFixed(2)}`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** The session files of `dir` (`*.jsonl`), in name order. */
function sessionFilesIn(dir: string): string[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith(".jsonl"))
		.sort();
}

/** Replays every session file of `dir`, each with the options `optionsFor` gives it (its model's window). */
export async function replayFolder(
	dir: string,
	read: (path: string) => string,
	optionsFor: (file: SessionFile) => ReplayOptions,
): Promise<FolderRow[]> {
	const rows: FolderRow[] = [];
	for (const name of sessionFilesIn(dir)) {
		try {
			const file = parseSessionFile(read(join(dir, name)));
			rows.push({ file: name, result: await replaySession(file, optionsFor(file)) });
		} catch (error) {
			if (!(error instanceof SessionFileError) && !(error instanceof LimitsError)) throw error;
			rows.push({ file: name, problem: error.message });
		}
	}
	return rows;
}

const recordedTotal = (r: ReplayResult) => r.recordedCost.dollars + r.recordedCost.summaries;
const pifoldTotal = (r: ReplayResult) => r.pifold.cost + r.pifold.briefs.cost;

/** What a row adds in words: pi-fold already ran, overflows, an early stop. */
function notes(r: ReplayResult): string {
	const out: string[] = [];
	if (r.ranPiFold) out.push("ran pi-fold");
	if (r.pifold.overflows.length > 0) out.push(`${r.pifold.overflows.length} over the window`);
	if (r.pifold.stopped) out.push("fence would stop it");
	return out.join("; ");
}

/** The folder's table: one row per file and the total over the files replayed. */
export function renderFolder(dir: string, rows: readonly FolderRow[], window: number | undefined): string {
	const head = [
		"session file",
		"requests",
		"as it ran",
		"with pi-fold",
		"ratio",
		"compactions",
		"pi-fold commits",
		...FIDELITY_HEADS,
		"notes",
	];
	const lines = [
		`pi-fold replay of ${rows.length} session ${nounFor(rows.length, "file")} in ${dir} (${window !== undefined ? `window ${int(window)} tokens` : "each file's window from pi-ai's entry for its model"}; costs include summary and brief requests; no charts in folder mode)`,
		"",
		`| ${head.join(" | ")} |`,
		`| ${head.map((_, i) => (i === 0 || i === head.length - 1 ? "---" : "---:")).join(" | ")} |`,
	];
	let before = 0;
	let after = 0;
	let replayed = 0;
	let requests = 0;
	let compactions = 0;
	let commits = 0;
	for (const row of rows) {
		if ("problem" in row) {
			lines.push(
				`| ${row.file} | ${head
					.slice(2)
					.map(() => "- | ")
					.join("")}not replayed: ${row.problem} |`,
			);
			continue;
		}
		const r = row.result;
		replayed++;
		requests += r.pifold.requests.length;
		compactions += r.native.compactions;
		commits += r.pifold.commits;
		before += recordedTotal(r);
		after += pifoldTotal(r);
		const ratio = recordedTotal(r) > 0 ? `${(pifoldTotal(r) / recordedTotal(r)).toFixed(2)}x` : "-";
		lines.push(
			`| ${row.file} | ${int(r.pifold.requests.length)} | ${usd(recordedTotal(r))} | ${usd(pifoldTotal(r))} | ${ratio} | ${r.native.compactions} | ${r.pifold.commits} | ${fidelityCells(r.fidelity).join(" | ")} | ${notes(r)} |`,
		);
	}
	const ratio = before > 0 ? `${(after / before).toFixed(2)}x` : "-";
	const results = rows.flatMap((row) => ("result" in row ? [row.result] : []));
	lines.push(
		`| total (${replayed} replayed) | ${int(requests)} | ${usd(before)} | ${usd(after)} | ${ratio} | ${compactions} | ${commits} | ${fidelityTotalCells(results).join(" | ")} | |`,
		"",
		"facts: what the replies used from tool results at least 3 requests back; missing %: of those, in neither pi-fold's window nor a brief (as it ran: the session's own window); user msgs gone %: of the user's messages (40+ characters), each looked up at every later request, the lookups that found it in no form; recalls: pi-fold's requests that lacked a fact, each priced as a search and a peek; with recalls: pi-fold's total with them over the session as it ran estimated the same way.",
		FIDELITY_CAVEAT,
	);
	return `${lines.join("\n")}\n`;
}
