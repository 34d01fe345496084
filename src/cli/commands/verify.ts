// `pi-fold verify DIR`: verify a content-addressed store, with a progress bar on a terminal (plain
// lines otherwise) on stderr, one line per problem and a summary on stdout. Every blob is hashed
// against its name unless --tree (then the summary says which blobs only met their sidecar). Exit 0 clean, 1 when
// anything is corrupt, missing, misnamed, stray, refused or unreadable, 2 for bad arguments.
// Inside a worker thread spawned by the bundled CLI (see verify/worker.ts) it only serves tasks.

import { readFileSync } from "node:fs";
import {
	DEFAULT_WORKERS,
	type IssueKind,
	isVerifyWorker,
	NotAStoreError,
	type VerifyStoreResult,
	verifyStore,
} from "../../verify/index.ts";
import { CliError } from "../errors.ts";
import { intFlag, parseFlags, UsageError } from "../flags.ts";
import { progressReporter } from "../progress.ts";

const ORDER: IssueKind[] = ["corrupt", "missing", "misnamed", "refused", "unreadable", "stray"];

function summary(r: VerifyStoreResult): string {
	const size = `${(r.bytes / 1024 / 1024).toFixed(1)} MiB`;
	const trees = r.treeBlobs > 0 ? ` (${r.treeBlobs} via chunk trees)` : "";
	const threads = r.workers + 1;
	const head = `verified ${r.blobs} blobs, ${size}${trees} in ${(r.elapsedMs / 1000).toFixed(2)} s on ${threads} thread${threads === 1 ? "" : "s"}`;
	const skipped = r.notCheckedByName;
	const note =
		skipped.blobs > 0
			? `note: ${skipped.blobs} blob${skipped.blobs === 1 ? "" : "s"} (${(skipped.bytes / 1024 / 1024).toFixed(1)} MiB) checked against chunk-tree sidecars only, not against their names:\n` +
				"      a blob rewritten together with a recomputed sidecar passes that check (drop --tree to hash them)\n"
			: "";
	if (r.ok) return `${head}\n${note}result: OK\n`;
	const parts = ORDER.filter((k) => r.counts[k] > 0).map((k) => `${r.counts[k]} ${k}`);
	return `${head}\n${note}result: ${r.issues.length} problem${r.issues.length === 1 ? "" : "s"}: ${parts.join(", ")}\n`;
}

function readExpected(path: string): string[] {
	try {
		return readFileSync(path, "utf8")
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line !== "" && !line.startsWith("#"));
	} catch (error) {
		throw new CliError(
			`verify: cannot read --expect file ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
			2,
		);
	}
}

export const command = {
	summary: "verify a content-addressed store",
	async run(args: string[]): Promise<number> {
		if (isVerifyWorker()) return new Promise<number>(() => {}); // serve tasks until terminated
		let parsed: ReturnType<typeof parseFlags>;
		let workers: number;
		try {
			parsed = parseFlags("verify", args, {
				workers: "string",
				engine: "string",
				full: "boolean",
				tree: "boolean",
				json: "boolean",
				quiet: "boolean",
				expect: "string",
			});
			workers = intFlag("verify", parsed, "workers", DEFAULT_WORKERS, 0, 64);
		} catch (error) {
			throw new CliError(error instanceof UsageError ? error.message : String(error), 2);
		}
		const [dir, extra] = parsed.positional;
		if (dir === undefined) throw new CliError("verify: no store directory given (usage: pi-fold verify DIR)", 2);
		if (extra !== undefined)
			throw new CliError(`verify: one store directory expected, also got ${JSON.stringify(extra)}`, 2);
		const engine = parsed.flags.get("engine") ?? "auto";
		if (engine !== "auto" && engine !== "node" && engine !== "wasm")
			throw new CliError(`verify: --engine must be auto, node or wasm, got ${JSON.stringify(engine)}`, 2);
		const expectFile = parsed.flags.get("expect");
		const expected = typeof expectFile === "string" ? readExpected(expectFile) : undefined;
		const json = parsed.flags.has("json");
		const progress = parsed.flags.has("quiet") || json ? undefined : progressReporter(process.stderr, "verifying");
		let result: VerifyStoreResult;
		try {
			result = await verifyStore(dir, {
				workers,
				engine,
				mode: parsed.flags.has("full") ? "full" : parsed.flags.has("tree") ? "tree" : "name",
				...(expected ? { expected } : {}),
				...(progress ? { onProgress: (p) => progress.update(p) } : {}),
			});
		} catch (error) {
			progress?.done();
			if (error instanceof NotAStoreError || error instanceof TypeError)
				throw new CliError(`verify: ${error.message}`, 2);
			const code = (error as NodeJS.ErrnoException).code;
			throw new CliError(`verify: cannot read store ${dir}${code ? ` (${code})` : ""}: ${(error as Error).message}`, 2);
		}
		progress?.done();
		if (json) {
			process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
		} else {
			for (const issue of result.issues)
				process.stdout.write(`${issue.kind.toUpperCase().padEnd(10)} ${issue.path}  ${issue.detail}\n`);
			process.stdout.write(summary(result));
		}
		return result.ok ? 0 : 1;
	},
};
