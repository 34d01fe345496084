// Command lines of the benchmarks (declared with src/args like the `pi-fold` commands): a flag that
// takes a list of whole numbers, and the front end of a benchmark run as a script (`npm run
// bench:<name> -- ...`, `node bench/<name>.ts ...`): --help prints the usage, a bad command line is
// one line on stderr and exit status 2. scriptArgs does I/O (stdout, stderr, process.exitCode).

import { z } from "zod";
import {
	type CommandSpec,
	type FlagSpec,
	type FlagValues,
	parseCommandLine,
	renderUsage,
	UsageError,
} from "../src/args/index.ts";

/** The items of a comma-separated list of whole numbers (trimmed, `_` separators dropped), as numbers. */
const WHOLE_NUMBERS = z
	.array(z.string().regex(/^\d+$/))
	.min(1)
	.transform((items) => items.map(Number));

/** `--<flag>`'s comma-separated list of whole numbers, or a UsageError naming the flag and showing `example`. */
export function numberList(flag: string, text: string, example: string): number[] {
	const list = WHOLE_NUMBERS.safeParse(text.split(",").map((w) => w.trim().replaceAll("_", "")));
	if (!list.success)
		throw new UsageError(
			`--${flag} needs whole numbers separated by commas, e.g. ${example}; got ${JSON.stringify(text)}`,
		);
	return list.data;
}

/**
 * A benchmark script's options: its command line parsed against `spec` and shaped by `shape` (which
 * may throw UsageError too). Undefined when there is nothing to run: the usage was printed (--help),
 * or the usage error was, as `<name>: <message>` on stderr with exit status 2.
 */
export function scriptArgs<S extends FlagSpec, T>(
	spec: CommandSpec<S>,
	shape: (flags: FlagValues<S>) => T,
	argv: readonly string[] = process.argv.slice(2),
): T | undefined {
	try {
		const parsed = parseCommandLine(spec, argv);
		if (!parsed.help) return shape(parsed.flags);
		process.stdout.write(renderUsage(spec));
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`${spec.name}: ${error.message}\n`);
		process.exitCode = 2;
	}
	return undefined;
}
