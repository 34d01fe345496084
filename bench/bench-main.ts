// `pi-fold bench` (bundle build/cli-bench.js; from sources `npm exec -- node bench/run.ts`): the
// hashing benchmarks of bench/hashing.ts (pi-fold vs node:crypto and hash-wasm, ratios measured side
// by side in one run), the token-estimator benchmark of bench/estimator.ts (error vs exact
// o200k_base, throughput) and the fold-store benchmark of bench/store-bench.ts (store bytes per
// history byte, first peek of a large fold, beside the old layout's), printed as tables headed by Node version, CPU and date, or as JSON; --out
// also writes the JSON. Progress lines go to stderr unless --quiet. Its flags and their defaults are
// declared once below (usage text and parsing derive from them). `pi-fold bench --cli` is the other
// benchmark, of the commands as fresh processes against their peers (bench/hashing/cli-command.ts,
// its own flags). Does its own I/O.

import { writeFileSync } from "node:fs";
import { type CommandSpec, parseCommandLine, renderUsage } from "../src/args/index.ts";
import { type EstimatorBenchResult, renderEstimatorTable, runEstimatorBench } from "./estimator.ts";
import { runCliBenchCommand } from "./hashing/cli-command.ts";
import { runHashingBench } from "./hashing.ts";
import { renderHashingTable } from "./hashing-report.ts";
import { renderStoreTable, runStoreBench, type StoreBenchResult } from "./store-bench.ts";

/** 64 B messages per 2 KB message: the 131,072 x 64 B next to 10,000 x 2 KB. */
const MESSAGES_64_PER_2K = 131_072 / 10_000;

export const BENCH_COMMAND = {
	name: "bench",
	description:
		"Runs the hashing benchmarks (pi-fold vs node:crypto and hash-wasm, side by side in one run), the\n" +
		"token-estimator benchmark and the fold-store benchmark, and prints their tables (or JSON). Data goes\n" +
		"to a temp folder that is removed afterwards. With --cli it runs the process-level benchmark instead.",
	flags: {
		cli: {
			kind: "boolean",
			help: "instead: pi-fold verify and hash as fresh processes against sha256sum, openssl and node:crypto scripts; its own flags: 'pi-fold bench --cli --help'",
		},
		json: { kind: "boolean", help: "print the results as JSON instead of the tables" },
		out: { kind: "string", value: "FILE", help: "also write the JSON results to FILE" },
		size: {
			kind: "integer",
			value: "MiB",
			default: 512,
			min: 1,
			max: 8192,
			help: "size of the mixed store and of the single blob",
		},
		stream: {
			kind: "integer",
			value: "MiB",
			default: 64,
			min: 1,
			max: 4096,
			help: "size of the single-stream buffer",
		},
		messages: {
			kind: "integer",
			value: "N",
			default: 10_000,
			min: 1,
			max: 10_000_000,
			help: `count of 2 KB messages (64 B messages: x${MESSAGES_64_PER_2K})`,
		},
		repeats: {
			kind: "integer",
			value: "N",
			default: 5,
			min: 1,
			max: 100,
			help: "timed repeats per contender, median reported",
		},
		workers: {
			kind: "integer",
			value: "N",
			default: 2,
			min: 0,
			max: 64,
			help: "hashing threads of pi-fold (its calling thread plus N-1 workers) and worker threads of the threaded peer",
		},
		"no-estimator": { kind: "boolean", help: "skip the token-estimator benchmark" },
		"no-store": { kind: "boolean", help: "skip the fold-store benchmark (store bytes per history byte, first peek)" },
		"store-history": {
			kind: "integer",
			value: "MiB",
			default: 100,
			min: 1,
			max: 4096,
			help: "fold store: history under the fold whose first 64 KB is peeked",
		},
		"estimator-sample": {
			kind: "integer",
			value: "N",
			default: 1,
			min: 1,
			max: 100_000,
			help: "estimator: use every Nth held-out corpus file (1: all)",
		},
		quiet: { kind: "boolean", short: "q", help: "no progress lines on stderr (the results still print)" },
	},
	notes: "Exit status: 0 done, 1 a benchmark failed, 2 bad usage.",
} satisfies CommandSpec;

/** argv without its --cli flags (before any `--`), or undefined when it has none. */
function cliBenchArgs(argv: readonly string[]): string[] | undefined {
	const end = argv.indexOf("--");
	const options = end < 0 ? argv : argv.slice(0, end);
	if (!options.includes("--cli")) return undefined;
	return [...options.filter((a) => a !== "--cli"), ...(end < 0 ? [] : argv.slice(end))];
}

export async function main(argv: string[]): Promise<number> {
	const cli = cliBenchArgs(argv);
	if (cli) return runCliBenchCommand(cli);
	const parsed = parseCommandLine(BENCH_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(BENCH_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const log = flags.quiet ? () => {} : (line: string) => process.stderr.write(`bench: ${line}\n`);
	const hashing = await runHashingBench({
		storeMiB: flags.size,
		blobMiB: flags.size,
		streamMiB: flags.stream,
		messages2k: flags.messages,
		messages64: Math.round(flags.messages * MESSAGES_64_PER_2K),
		repeats: flags.repeats,
		workers: flags.workers,
		log,
	});
	let estimator: EstimatorBenchResult | undefined;
	if (!flags["no-estimator"]) {
		log("token estimator...");
		estimator = await runEstimatorBench({ sampleEvery: flags["estimator-sample"], log });
	}
	let store: StoreBenchResult | undefined;
	if (!flags["no-store"])
		store = await runStoreBench({ historyMiB: flags["store-history"], repeats: flags.repeats, log });
	const json = `${JSON.stringify({ hashing, estimator: estimator ?? null, store: store ?? null }, null, 2)}\n`;
	if (flags.out !== undefined) {
		try {
			writeFileSync(flags.out, json);
		} catch (error) {
			throw Object.assign(new Error(`cannot write ${flags.out} (${(error as NodeJS.ErrnoException).code ?? error})`), {
				exitCode: 1,
			});
		}
	}
	const tables = [
		renderHashingTable(hashing),
		...(estimator ? [renderEstimatorTable(estimator)] : []),
		...(store ? [renderStoreTable(store)] : []),
	];
	process.stdout.write(flags.json ? json : tables.join("\n"));
	return 0;
}
