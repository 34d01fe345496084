// `pi-fold replay DIR`: every Pi session file in a folder (for example
// `~/.pi/agent/sessions/--project--/`), each replayed as `pi-fold replay FILE` replays it, one row
// each and the total: would pi-fold have helped across these sessions. Both columns are estimated the
// same way (the session as it ran, and with pi-fold); the file's recorded bill is beside them, the
// estimator's check. A file that cannot be replayed is left out of the total, and each reason is said
// once under the table with the files it concerns; when no file could be, the command fails with that
// one line (`nothingReplayed`). No charts are written. Does its own reads; the replays are src/replay's.

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
	replayTotals,
	type SessionFile,
	SessionFileError,
} from "../../replay/index.ts";

/** One file of the folder: its replay, or why it could not be replayed (`limits`: the window or reserve is unknown). */
type FolderRow = { readonly file: string } & (
	| { readonly result: ReplayResult }
	| { readonly problem: string; readonly limits: boolean }
);

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
			rows.push({ file: name, problem: error.message, limits: error instanceof LimitsError });
		}
	}
	return rows;
}

const recordedTotal = (r: ReplayResult) => r.recordedCost.dollars + r.recordedCost.summaries;

/** The reasons files could not be replayed, each once: the reason, the files, whether it is the limits'. */
function problemsOf(rows: readonly FolderRow[]) {
	const out = new Map<string, { files: string[]; limits: boolean }>();
	for (const row of rows)
		if ("problem" in row) {
			const seen = out.get(row.problem) ?? { files: [], limits: row.limits };
			seen.files.push(row.file);
			out.set(row.problem, seen);
		}
	return [...out].map(([problem, { files, limits }]) => ({ problem, files, limits }));
}

/** "3 files (a.jsonl, b.jsonl, c.jsonl)", naming at most three. */
function filesWord(files: readonly string[]): string {
	const named = files.slice(0, 3).join(", ") + (files.length > 3 ? `, and ${files.length - 3} more` : "");
	return `${files.length} ${nounFor(files.length, "file")} (${named})`;
}

/**
 * When no file of the folder could be replayed: one line saying why, each reason once with its files,
 * and whether every reason is an unknown window (a usage error: pass --window); null when one was.
 */
export function nothingReplayed(dir: string, rows: readonly FolderRow[]): { message: string; usage: boolean } | null {
	if (rows.some((row) => "result" in row)) return null;
	const problems = problemsOf(rows);
	const reasons = problems.map((p) => `${filesWord(p.files)}: ${p.problem}`).join("; ");
	return {
		message: `${dir}: nothing replayed, ${rows.length} session ${nounFor(rows.length, "file")} and none could be: ${reasons}`,
		usage: problems.every((p) => p.limits),
	};
}

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
		"recorded",
		"compactions",
		"pi-fold commits",
		...FIDELITY_HEADS,
		"notes",
	];
	const lines = [
		`pi-fold replay of ${rows.length} session ${nounFor(rows.length, "file")} in ${dir} (${window !== undefined ? `window ${int(window)} tokens` : "each file's window from pi-ai's entry for its model"}; "as it ran" and "with pi-fold" are estimated the same way, "recorded" is the file's own bill, the estimator's check; costs include summary and brief requests; no charts in folder mode)`,
		"",
		`| ${head.join(" | ")} |`,
		`| ${head.map((_, i) => (i === 0 || i === head.length - 1 ? "---" : "---:")).join(" | ")} |`,
	];
	let before = 0;
	let after = 0;
	let recorded = 0;
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
					.join("")}not replayed (below) |`,
			);
			continue;
		}
		const r = row.result;
		const t = replayTotals(r);
		replayed++;
		requests += r.pifold.requests.length;
		compactions += r.native.compactions;
		commits += r.pifold.commits;
		before += t.asRan;
		after += t.pifold;
		recorded += recordedTotal(r);
		const ratio = t.asRan > 0 ? `${(t.pifold / t.asRan).toFixed(2)}x` : "-";
		lines.push(
			`| ${row.file} | ${int(r.pifold.requests.length)} | ${usd(t.asRan)} | ${usd(t.pifold)} | ${ratio} | ${usd(recordedTotal(r))} | ${r.native.compactions} | ${r.pifold.commits} | ${fidelityCells(r.fidelity).join(" | ")} | ${notes(r)} |`,
		);
	}
	const ratio = before > 0 ? `${(after / before).toFixed(2)}x` : "-";
	const results = rows.flatMap((row) => ("result" in row ? [row.result] : []));
	lines.push(
		`| total (${replayed} of ${rows.length} replayed) | ${int(requests)} | ${usd(before)} | ${usd(after)} | ${ratio} | ${usd(recorded)} | ${compactions} | ${commits} | ${fidelityTotalCells(results).join(" | ")} | |`,
		"",
		...problemsOf(rows).map((p) => `Not replayed: ${filesWord(p.files)}: ${p.problem}.`),
		"",
		"facts: what the replies used from tool results at least 3 requests back; missing %: of those, in neither pi-fold's window nor a brief (as it ran: the session's own window); user msgs gone %: of the user's messages (40+ characters), each looked up at every later request, the lookups that found it in no form; recalls: pi-fold's requests that lacked a fact, each priced as a search and a peek; with recalls: pi-fold's total with them over the session as it ran estimated the same way.",
		FIDELITY_CAVEAT,
	);
	return `${lines.join("\n")}\n`;
}
