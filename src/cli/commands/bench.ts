// `pi-fold bench [--json] [--out FILE] [--size MiB] ...`: the hashing benchmarks of bench/hashing.ts
// (pi-fold vs node:crypto and hash-wasm, ratios measured side by side in one run, default 512 MiB)
// and the token-estimator benchmark of bench/estimator.ts (error vs exact o200k_base, throughput),
// printed as tables headed by Node version, CPU and date, or as JSON; --out also writes the JSON.
// Progress lines go to stderr. Does its own I/O (stdout, stderr, the --out file).

import { writeFileSync } from "node:fs";
import { type EstimatorBenchResult, renderEstimatorTable, runEstimatorBench } from "../../../bench/estimator.ts";
import { runCliBenchCommand } from "../../../bench/hashing/cli-command.ts";
import { runHashingBench } from "../../../bench/hashing.ts";
import { renderHashingTable } from "../../../bench/report.ts";
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from "../bench-args.ts";
import { CliError } from "../errors.ts";
import { UsageError } from "../flags.ts";

export const command = {
	summary: "run the hashing benchmarks",
	async run(args: string[]): Promise<number> {
		if (args.includes("--cli")) {
			try {
				return await runCliBenchCommand(args.filter((a) => a !== "--cli"));
			} catch (error) {
				if (error instanceof UsageError) throw new CliError(error.message, 2);
				throw error;
			}
		}
		if (args.includes("--help") || args.includes("-h")) {
			process.stdout.write(BENCH_USAGE);
			return 0;
		}
		let parsed: BenchArgs;
		try {
			parsed = parseBenchArgs(args);
		} catch (error) {
			throw new CliError(error instanceof UsageError ? error.message : String(error), 2);
		}
		const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
		const hashing = await runHashingBench({ ...parsed.hashing, log });
		let estimator: EstimatorBenchResult | undefined;
		if (parsed.estimator) {
			log("token estimator...");
			estimator = await runEstimatorBench({ sampleEvery: parsed.estimatorSample, log });
		}
		const report = { hashing, estimator: estimator ?? null };
		const json = `${JSON.stringify(report, null, 2)}\n`;
		if (parsed.out !== undefined) {
			try {
				writeFileSync(parsed.out, json);
			} catch (error) {
				throw new CliError(`bench: cannot write ${parsed.out} (${(error as NodeJS.ErrnoException).code ?? error})`, 1);
			}
		}
		const tables = [renderHashingTable(hashing), ...(estimator ? [renderEstimatorTable(estimator)] : [])];
		process.stdout.write(parsed.json ? json : tables.join("\n"));
		return 0;
	},
};
