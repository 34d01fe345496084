// Runs the hashing benchmarks from sources (quick trials): `npm exec -- node bench/run.ts --size 64`.
// `pi-fold bench` is the same run from the bundled CLI. Prints the table, or JSON with --json.

import { parseBenchArgs } from "../src/cli/bench-args.ts";
import { runHashingBench } from "./hashing.ts";
import { renderHashingTable } from "./report.ts";

const args = parseBenchArgs(process.argv.slice(2));
const result = await runHashingBench({ ...args.hashing, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : renderHashingTable(result));
