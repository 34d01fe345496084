// `pi-fold unfold FILE [--out OUT | --in-place]` (bundle build/cli-unfold.js): a Pi session file with
// every pi-fold context edit undone, so the session reads whole without pi-fold installed (README
// "Uninstall"). Reads the file (no Pi, no fold store needed: the originals are the file's own
// entries), plans with src/replay `planUnfold` (each fold verified against the file's entries), and
// writes the result atomically (a temp file beside the target, fsynced, then renamed over it), with
// the input's file mode. The input is never overwritten unless --in-place asks for it. Bad input is
// one line naming what is wrong (exit 1); bad usage exit 2. Does its own I/O.

import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError } from "../../args/index.ts";
import { plural } from "../../common/index.ts";
import { SessionFileError } from "../../replay/session-file.ts";
import { planUnfold, UnfoldError } from "../../replay/unfold-plan.ts";

const UNFOLD_COMMAND = {
	name: "unfold",
	operands: "FILE",
	description:
		"Writes the Pi session file FILE with every context edit pi-fold made undone, so the session\n" +
		"reads whole without pi-fold installed: its folds' placeholders are gone and the original entries\n" +
		"show again. Each fold is first verified against the file's own entries (its recorded SHA-256);\n" +
		"the fold store is not needed. Writes FILE's name with .unfolded.jsonl beside it unless --out or\n" +
		"--in-place says otherwise.",
	flags: {
		out: { kind: "string", value: "OUT", help: "where to write the session file (replaced atomically if it exists)" },
		"in-place": { kind: "boolean", help: "replace FILE itself (atomically)" },
	},
	notes:
		"Exit status: 0 written, 1 FILE is missing, not a Pi session file, or holds a fold that does not\n" +
		"verify (nothing is written), 2 bad usage.",
} satisfies CommandSpec;

/** A problem with the input (exit 1), as the bin reports it: one line. */
class InputError extends Error {
	readonly exitCode = 1;
}

/** The default output: `<name>.unfolded.jsonl` beside the input. */
function defaultOutput(path: string): string {
	return join(dirname(path), `${basename(path).replace(/\.jsonl$/, "")}.unfolded.jsonl`);
}

/** Writes `text` to `path` atomically: a temp file in the same folder, fsynced, renamed over `path`. */
function writeAtomically(path: string, text: string, mode: number): void {
	const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
	const fd = openSync(temp, "wx", mode);
	try {
		writeSync(fd, text);
		fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		rmSync(temp, { force: true });
		throw error;
	}
	closeSync(fd);
	try {
		renameSync(temp, path);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
	try {
		const dir = openSync(dirname(path), "r");
		fsyncSync(dir);
		closeSync(dir);
	} catch {
		// A folder that cannot be opened for fsync (some filesystems): the rename is still atomic.
	}
}

function readInput(path: string): { text: string; mode: number } {
	try {
		const st = statSync(path);
		if (!st.isFile()) throw new InputError(`${path} is not a file`);
		return { text: readFileSync(path, "utf8"), mode: st.mode & 0o777 };
	} catch (error) {
		if (error instanceof InputError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new InputError(`${path}: no such file`);
		throw new InputError(`cannot read the session file ${path} (${code ?? String(error)})`);
	}
}

export async function main(argv: string[]): Promise<number> {
	const parsed = parseCommandLine(UNFOLD_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(UNFOLD_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const [path, extra] = parsed.operands;
	if (path === undefined) throw new UsageError("no session file given; see 'pi-fold unfold --help'");
	if (extra !== undefined) throw new UsageError(`one session file expected, also got ${JSON.stringify(extra)}`);
	if (flags.out !== undefined && flags["in-place"])
		throw new UsageError("--out and --in-place exclude each other: write elsewhere, or replace FILE");
	const out = flags["in-place"] ? path : (flags.out ?? defaultOutput(path));
	if (!flags["in-place"] && resolve(out) === resolve(path))
		throw new UsageError(`--out ${out} is the input file; pass --in-place to replace it`);
	const input = readInput(path);
	let plan: ReturnType<typeof planUnfold>;
	try {
		plan = planUnfold(input.text);
	} catch (error) {
		if (error instanceof SessionFileError || error instanceof UnfoldError)
			throw new InputError(`${path}: ${error.message}; nothing was written`);
		throw error;
	}
	if (plan.removed === 0 && flags["in-place"]) {
		process.stdout.write(`${path}: no pi-fold context edits to undo; the file is unchanged\n`);
		return 0;
	}
	try {
		writeAtomically(out, plan.text, input.mode);
	} catch (error) {
		throw new InputError(
			`cannot write ${out} (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${path} is unchanged`,
		);
	}
	const edits = plural(plan.removed, "pi-fold context edit");
	const folds = `${plural(plan.verified, "fold")} verified against the file's entries`;
	const kept =
		plan.keptReceiptEdits > 0
			? `; kept ${plan.keptReceiptEdits.toLocaleString("en-US")} that hide pi-fold's own commit receipts`
			: "";
	process.stdout.write(
		plan.removed === 0
			? `${path}: no pi-fold context edits to undo; wrote an unchanged copy to ${out}\n`
			: `${path}: undid ${edits} (${folds}${kept}); wrote ${out}\n`,
	);
	return 0;
}
