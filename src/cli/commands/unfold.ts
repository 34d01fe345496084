// `pi-fold unfold FILE [--out OUT | --in-place]` (bundle build/cli-unfold.js): a Pi session file with
// every pi-fold context edit undone, so the session reads whole without pi-fold installed (README
// "Uninstall"). Reads the file (no Pi, no fold store needed: the originals are the file's own
// entries), plans with src/replay `planUnfold` (each fold verified against the file's entries), and
// writes the result atomically (a temp file beside the target, fsynced, then renamed over it), with
// the input's file mode, as a new session (its own id, named unfolded: Pi lists it beside the
// original). The input is replaced only when --in-place asks for it (the same session), and an
// existing output only with --force. Says how large the result is against the model's window (--window,
// else pi-ai's entry for the model the file names). Bad input is one line naming what is wrong
// (exit 1); bad usage exit 2. Does its own I/O.

import { randomBytes } from "node:crypto";
import {
	closeSync,
	existsSync,
	fsyncSync,
	openSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError } from "../../args/index.ts";
import { plural } from "../../common/index.ts";
import { SessionFileError } from "../../replay/session-file.ts";
import { planUnfold, UnfoldError } from "../../replay/unfold-plan.ts";
import { contextTokensOf, sessionModelOf, sizeLine } from "../../replay/unfold-size.ts";
import { loadModelCatalog } from "./replay-model.ts";

const UNFOLD_COMMAND = {
	name: "unfold",
	operands: "FILE",
	description:
		"Writes the Pi session file FILE with every context edit pi-fold made undone, so the session\n" +
		"reads whole without pi-fold installed: its folds' placeholders are gone and the original entries\n" +
		"show again. Each fold is first verified against the file's own entries (its recorded SHA-256);\n" +
		"the fold store is not needed. Writes a new session (its own id, named as the original's unfolded\n" +
		"copy) to FILE's name with .unfolded.jsonl beside it, or to --out; replaces FILE only with\n" +
		"--in-place. Says how large the unfolded session is against the model's window.",
	flags: {
		out: { kind: "string", value: "OUT", help: "where to write the new session file" },
		"in-place": { kind: "boolean", help: "replace FILE itself (atomically), keeping its session id" },
		force: { kind: "boolean", help: "replace the output file if it exists (default: refuse)" },
		window: {
			kind: "integer",
			value: "N",
			min: 1,
			help: "the model's context window in tokens (default: pi-ai's entry for the model the file names)",
		},
	},
	notes:
		"Exit status: 0 written, 1 FILE is missing, not a Pi session file, or holds a fold that does not\n" +
		"verify, or the output exists without --force (nothing is written), 2 bad usage.",
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
	if (!flags["in-place"] && !flags.force && existsSync(out))
		throw new InputError(
			`${out} already exists; pass --force to replace it, or --out to write elsewhere; nothing was written`,
		);
	const input = readInput(path);
	let plan: ReturnType<typeof planUnfold>;
	try {
		plan = planUnfold(
			input.text,
			flags["in-place"]
				? undefined
				: { id: newSessionId(), timestamp: new Date().toISOString(), parentSession: resolve(path) },
		);
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
	const named = plan.name === undefined ? "" : ` as a new session named "${plan.name}"`;
	process.stdout.write(
		`${
			plan.removed === 0
				? `${path}: no pi-fold context edits to undo; wrote an unchanged copy to ${out}${named}`
				: `${path}: undid ${edits} (${folds}${kept}); wrote ${out}${named}`
		}\n${sizeLine(contextTokensOf(plan.text), await windowOf(plan.text, flags.window))}\n`,
	);
	return 0;
}

/** A new session id as Pi makes them: a UUID version 7 (time-ordered). */
function newSessionId(): string {
	const bytes = randomBytes(16);
	const ms = BigInt(Date.now());
	for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
	bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
	bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The model's window: --window, else pi-ai's entry for the model the file names, else unknown. */
async function windowOf(text: string, given: number | undefined) {
	if (given !== undefined) return { tokens: given, from: "--window" };
	const model = sessionModelOf(text);
	if (!model) return undefined;
	const catalog = await loadModelCatalog();
	const entry = "lookup" in catalog ? catalog.lookup(model.provider, model.id) : undefined;
	return entry ? { tokens: entry.contextWindow, from: `pi-ai's entry for ${model.provider}/${model.id}` } : undefined;
}
