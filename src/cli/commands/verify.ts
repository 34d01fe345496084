// `pi-fold verify [options] DIR` (bundle build/cli-verify.js): verify a content-addressed store.
// Output: one line per problem and a two-line summary on stdout, a progress bar on a terminal (plain
// lines otherwise) on stderr. --quiet prints nothing when the store is clean and only the problem
// lines when it is not; --json prints the full result as JSON instead (whatever --quiet says). Exit 0
// clean, 1 when anything is corrupt, missing, misnamed, stray, refused or unreadable, 2 for bad usage
// (including a DIR that is not a store). Every blob is hashed against its name unless --tree (then the
// summary says which blobs only met their sidecar). Worker threads run build/verify-worker.js, the
// sibling bundle that holds only the worker side of the verifier (src/verify/hash-pool.ts). Does its own
// I/O (stdout, stderr, the --expect file).

import { lstatSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError } from "../../args/index.ts";
import { nounFor } from "../../common/index.ts";
import {
	BLOBS_DIR,
	DEFAULT_WORKERS,
	type EngineName,
	type IssueKind,
	NotAStoreError,
	type VerifyStoreResult,
	verifyStore,
} from "../../verify/index.ts";
import { progressReporter } from "../progress.ts";

const ORDER: IssueKind[] = ["corrupt", "missing", "misnamed", "refused", "unreadable", "stray"];

const VERIFY_COMMAND = {
	name: "verify",
	operands: "DIR",
	description:
		`Verifies every blob of the store in DIR (${BLOBS_DIR}/<2 hex>/<64 hex>, chunk trees beside large blobs)\n` +
		"and names each corrupt, missing, misnamed, stray, refused (symlinked) or unreadable entry; a fold's\n" +
		"manifest whose child is missing or hashes wrong is named with its path from the fold. Problem\n" +
		"lines and a summary go to stdout, progress to stderr. By default every blob is hashed whole against\n" +
		"its name; --tree trusts chunk-tree sidecars instead (the summary says which blobs only met theirs).",
	flags: {
		workers: {
			kind: "integer",
			value: "N",
			default: DEFAULT_WORKERS,
			min: 0,
			max: 64,
			help: "worker threads besides the calling thread, which hashes too; 0 hashes on the calling thread only (the default is one fewer than the cores, at most 3; a store under 48 MiB starts none)",
		},
		engine: {
			kind: "choice",
			choices: ["auto", "node", "wasm"],
			default: "auto",
			help: "SHA-256 engine; auto picks per shape of work by measurement",
		},
		tree: {
			kind: "boolean",
			help: "check chunk-tree blobs against their sidecars only (parallel inside a blob), not against their names: a blob rewritten together with a recomputed sidecar passes",
		},
		full: {
			kind: "boolean",
			help: "check chunk-tree blobs against their sidecars and hash them whole against their names",
		},
		expect: {
			kind: "string",
			value: "FILE",
			help: "digests that must be present, one per line (# comments); absent ones are MISSING",
		},
		json: { kind: "boolean", help: "print the full result as JSON instead of lines and summary" },
		quiet: {
			kind: "boolean",
			short: "q",
			help: "print nothing when the store is clean, only the problem lines when it is not",
		},
	},
	notes: "Exit status: 0 clean, 1 problems found, 2 bad usage or DIR is not a store.",
} satisfies CommandSpec;

function summary(r: VerifyStoreResult): string {
	const size = `${(r.bytes / 1024 / 1024).toFixed(1)} MiB`;
	const trees = r.treeBlobs > 0 ? ` (${r.treeBlobs} via chunk trees)` : "";
	const threads = r.workers + 1;
	const folds =
		r.manifests.folds > 0 ? `, ${r.manifests.folds} fold ${nounFor(r.manifests.folds, "manifest")} walked` : "";
	const head = `verified ${r.blobs} blobs, ${size}${trees}${folds} in ${(r.elapsedMs / 1000).toFixed(2)} s on ${threads} ${nounFor(threads, "thread")}`;
	const skipped = r.notCheckedByName;
	const note =
		skipped.blobs > 0
			? `note: ${skipped.blobs} ${nounFor(skipped.blobs, "blob")} (${(skipped.bytes / 1024 / 1024).toFixed(1)} MiB) checked against chunk-tree sidecars only, not against their names:\n` +
				"      a blob rewritten together with a recomputed sidecar passes that check (drop --tree to hash them)\n"
			: "";
	if (r.ok) return `${head}\n${note}result: OK\n`;
	const parts = ORDER.filter((k) => r.counts[k] > 0).map((k) => `${r.counts[k]} ${k}`);
	return `${head}\n${note}result: ${r.issues.length} ${nounFor(r.issues.length, "problem")}: ${parts.join(", ")}\n`;
}

function readExpected(path: string): string[] {
	try {
		return readFileSync(path, "utf8")
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line !== "" && !line.startsWith("#"));
	} catch (error) {
		throw new UsageError(`cannot read --expect file ${path} (${(error as NodeJS.ErrnoException).code ?? error})`);
	}
}

/** Why `dir` cannot be a store, in plain words, or undefined when it looks like one. */
function storeProblem(dir: string): string | undefined {
	try {
		const st = statSync(dir, { throwIfNoEntry: false });
		if (!st) return `${dir}: no such directory`;
		if (!st.isDirectory()) return `${dir} is a file, not a store directory (a store is a folder holding ${BLOBS_DIR}/)`;
		const blobs = lstatSync(join(dir, BLOBS_DIR), { throwIfNoEntry: false });
		if (!blobs) return `${dir} is not a store directory (it has no ${BLOBS_DIR}/ folder)`;
		if (!blobs.isDirectory() && !blobs.isSymbolicLink())
			return `${dir} is not a store directory (its ${BLOBS_DIR} is not a folder)`;
		return undefined;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return code === "EACCES" || code === "EPERM"
			? `${dir}: permission denied`
			: `${dir}: cannot read (${code ?? error})`;
	}
}

export async function main(argv: string[]): Promise<number> {
	const parsed = parseCommandLine(VERIFY_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(VERIFY_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const [dir, extra] = parsed.operands;
	if (dir === undefined) throw new UsageError("no store directory given; see 'pi-fold verify --help'");
	if (extra !== undefined) throw new UsageError(`one store directory expected, also got ${JSON.stringify(extra)}`);
	const problem = storeProblem(dir);
	if (problem) throw new UsageError(problem);
	const expected = flags.expect === undefined ? undefined : readExpected(flags.expect);
	const progress = flags.quiet || flags.json ? undefined : progressReporter(process.stderr, "verifying");
	let result: VerifyStoreResult;
	try {
		result = await verifyStore(dir, {
			workers: flags.workers,
			engine: flags.engine as EngineName,
			mode: flags.full ? "full" : flags.tree ? "tree" : "name",
			...(expected ? { expected } : {}),
			...(progress ? { onProgress: (p) => progress.update(p) } : {}),
		});
	} catch (error) {
		if (error instanceof NotAStoreError || error instanceof TypeError) throw new UsageError(error.message);
		throw error;
	} finally {
		progress?.done();
	}
	if (flags.json) {
		process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	} else {
		for (const issue of result.issues)
			process.stdout.write(`${issue.kind.toUpperCase().padEnd(10)} ${issue.path}  ${issue.detail}\n`);
		if (!flags.quiet) process.stdout.write(summary(result));
	}
	return result.ok ? 0 : 1;
}
