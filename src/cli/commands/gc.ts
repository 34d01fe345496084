// `pi-fold gc [options] [DIR]` (bundle build/cli-gc.js): garbage collection of the fold store of a
// sessions folder (DIR, default the current folder; its store is DIR/pi-fold-store). A dry run by
// default: one line per blob no session file under DIR references, and a summary. With --apply, what
// stays referenced is verified first (nothing is removed when any of it is damaged or missing), then
// the unreferenced blobs older than the retention are removed (src/store/gc.ts). Exit 0 done, 1 when
// what stays has a problem, 2 bad usage (including a DIR with no store). Does its own I/O (stdout).

import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError } from "../../args/index.ts";
import { plural } from "../../common/index.ts";
import { collectGarbage, type GcResult } from "../../store/gc.ts";
import { DEFAULT_RETENTION_DAYS } from "../../store/gc-options.ts";

const GC_COMMAND = {
	name: "gc",
	operands: "[DIR]",
	description:
		"Lists the blobs of the fold store in DIR/pi-fold-store (DIR: a sessions folder, default the current\n" +
		"folder) that no session file under DIR references, directly or through a fold's manifest. With\n" +
		"--apply it verifies every blob that stays, then removes the unreferenced ones older than the\n" +
		"retention (nothing at all when a blob that stays is damaged or missing).",
	flags: {
		apply: { kind: "boolean", help: "remove the unreferenced blobs past the retention (default: list them only)" },
		"retention-days": {
			kind: "integer",
			value: "N",
			default: DEFAULT_RETENTION_DAYS,
			min: 0,
			max: 36_500,
			help: "keep unreferenced blobs written or reused in the last N days (a live session writes a fold's blobs before its record); 0 is unsafe beside a running session",
		},
		store: { kind: "string", value: "NAME", default: "pi-fold-store", help: "the store's folder name inside DIR" },
		json: { kind: "boolean", help: "print the full result as JSON instead of lines and summary" },
	},
	notes: "Exit status: 0 done, 1 a blob that stays is damaged or missing (nothing removed), 2 bad usage.",
} satisfies CommandSpec;

function mib(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function summary(r: GcResult): string {
	const expired = r.unreferenced.filter((u) => u.expired);
	const unrefBytes = r.unreferenced.reduce((n, u) => n + u.bytes, 0);
	const lines = [
		`store: ${plural(r.blobs.count, "blob")}, ${mib(r.blobs.bytes)}; referenced by ${plural(r.sessionFiles, "session file")}: ${plural(r.referenced.count, "blob")}, ${mib(r.referenced.bytes)}`,
		`unreferenced: ${plural(r.unreferenced.length, "blob")}, ${mib(unrefBytes)}; past the ${plural(r.retentionDays, "day")} retention: ${plural(expired.length, "blob")}, ${mib(expired.reduce((n, u) => n + u.bytes, 0))}`,
	];
	if (r.problems.length > 0)
		lines.push(`result: ${plural(r.problems.length, "problem")} with blobs that stay; nothing was removed`);
	else if (r.applied)
		lines.push(
			`result: removed ${plural(r.removed.count, "blob")}, ${mib(r.removed.bytes)}${r.freshened > 0 ? `; kept ${plural(r.freshened, "blob")} a session wrote meanwhile` : ""}`,
		);
	else lines.push("result: dry run, nothing removed (--apply removes the blobs past the retention)");
	return `${lines.join("\n")}\n`;
}

export async function main(argv: string[]): Promise<number> {
	const parsed = parseCommandLine(GC_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(GC_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const [dir = ".", extra] = parsed.operands;
	if (extra !== undefined) throw new UsageError(`one sessions folder expected, also got ${JSON.stringify(extra)}`);
	const folder = statSync(dir, { throwIfNoEntry: false });
	if (!folder) throw new UsageError(`${dir}: no such folder`);
	if (!folder.isDirectory())
		throw new UsageError(`${dir} is a file, not a sessions folder (gc takes the folder that holds ${flags.store}/)`);
	const storeDir = join(dir, flags.store);
	if (!lstatSync(storeDir, { throwIfNoEntry: false })?.isDirectory())
		throw new UsageError(`${dir} has no fold store (no ${flags.store}/ folder)`);
	let result: GcResult;
	try {
		result = await collectGarbage(dir, {
			apply: flags.apply,
			retentionDays: flags["retention-days"],
			storeDirName: flags.store,
		});
	} catch (error) {
		if (error instanceof TypeError) throw new UsageError(error.message);
		throw error;
	}
	if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	else {
		for (const p of result.problems) process.stdout.write(`PROBLEM    ${p}\n`);
		for (const u of result.unreferenced) {
			const state = u.expired ? (result.applied ? "removed" : "past the retention") : "kept (within the retention)";
			process.stdout.write(
				`UNREFERENCED ${u.path}  ${plural(u.bytes, "byte")}, ${u.ageDays.toFixed(1)} days old, ${state}\n`,
			);
		}
		process.stdout.write(summary(result));
	}
	return result.problems.length > 0 ? 1 : 0;
}
