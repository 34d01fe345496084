// Runs `pi-fold bench` from sources, without a build (quick trials):
//   npm exec -- node bench/run.ts --size 64 --no-estimator
// Same flags, output and exit status as the bundled command (bench/bench-main.ts); errors as one line.

import { main } from "./bench-main.ts";

try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error) {
	const e = error as { message?: string; exitCode?: number };
	process.stderr.write(`pi-fold: bench: ${e.message ?? String(error)}\n`);
	process.exitCode = typeof e.exitCode === "number" ? e.exitCode : 1;
}
