// Flags of `pi-fold bench` (shared with bench/run.ts for quick runs from sources). Pure.

import type { HashingBenchOptions } from "../../bench/hashing.ts";
import { intFlag, parseFlags, UsageError } from "./flags.ts";

export const BENCH_USAGE = `usage: pi-fold bench [--json] [--out FILE] [--size MiB] [--stream MiB] [--repeats N] [--workers N]
       pi-fold bench --cli [...]   the commands as fresh processes against their peers (pi-fold bench --cli --help)
  --json         print the results as JSON instead of the table
  --out FILE     also write the JSON results to FILE
  --size MiB     size of the mixed store and of the single blob (default 512)
  --stream MiB   size of the single-stream buffer (default 64)
  --messages N   count of 2 KB messages (default 10000; 64 B messages scale x13.1072)
  --repeats N    timed repeats per contender, median reported (default 5)
  --workers N    hashing threads of pi-fold (its own + workers) and of the threaded peer (default 2)
  --no-estimator skip the token-estimator benchmark
  --estimator-sample N   estimator: use every Nth held-out corpus file (default 1 = all)
`;

export interface BenchArgs {
	json: boolean;
	out: string | undefined;
	estimator: boolean;
	/** Every Nth held-out file for the estimator's error (1 = all). */
	estimatorSample: number;
	hashing: HashingBenchOptions;
}

export function parseBenchArgs(args: readonly string[]): BenchArgs {
	const p = parseFlags("bench", args, {
		json: "boolean",
		out: "string",
		size: "string",
		stream: "string",
		messages: "string",
		repeats: "string",
		workers: "string",
		"no-estimator": "boolean",
		"estimator-sample": "string",
	});
	if (p.positional.length > 0) throw new UsageError(`bench: unexpected argument ${JSON.stringify(p.positional[0])}`);
	const size = intFlag("bench", p, "size", 512, 1, 8192);
	const messages = intFlag("bench", p, "messages", 10_000, 1, 10_000_000);
	const out = p.flags.get("out");
	return {
		json: p.flags.has("json"),
		out: typeof out === "string" ? out : undefined,
		estimator: !p.flags.has("no-estimator"),
		estimatorSample: intFlag("bench", p, "estimator-sample", 1, 1, 100_000),
		hashing: {
			storeMiB: size,
			blobMiB: size,
			streamMiB: intFlag("bench", p, "stream", 64, 1, 4096),
			messages2k: messages,
			messages64: Math.round(messages * 13.1072),
			repeats: intFlag("bench", p, "repeats", 5, 1, 100),
			workers: intFlag("bench", p, "workers", 2, 0, 64),
		},
	};
}
