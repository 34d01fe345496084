// The `pi-fold bench --cli` front end: its flags (declared once below; usage text and parsing derive
// from them), progress (percent done) on stderr unless --quiet, the tables or JSON on stdout, --out
// FILE for the JSON. Returns the exit code; bad flags throw UsageError. Does its own I/O.

import { writeFileSync } from "node:fs";
import { type CommandSpec, parseCommandLine, renderUsage } from "../../src/args/index.ts";
import { runCliBench } from "./cli-bench.ts";
import { renderCliTable } from "./cli-report.ts";

export const CLI_BENCH_COMMAND = {
	name: "bench --cli",
	description:
		"Runs pi-fold verify and hash as fresh processes, interleaved with node:crypto scripts, sha256sum and\n" +
		"(when present) openssl dgst and b3sum; twice: as is, and with SHA-NI masked for OpenSSL. Prints the\n" +
		"load average at the start and end of the timed runs. Data goes to a temp folder removed afterwards.",
	flags: {
		size: { kind: "integer", value: "MiB", default: 512, min: 1, max: 65_536, help: "mixed store size" },
		"file-size": { kind: "integer", value: "MiB", default: 1024, min: 1, max: 65_536, help: "single file size" },
		repeats: {
			kind: "integer",
			value: "N",
			default: 5,
			min: 1,
			max: 100,
			help: "timed runs per contender, median reported",
		},
		"cli-bin": {
			kind: "string",
			value: "FILE",
			help: "the pi-fold CLI to run (default: build/cli.js, the bin, which loads each command's bundle)",
		},
		"no-masked": { kind: "boolean", help: "skip the pass with SHA-NI masked" },
		json: { kind: "boolean", help: "print JSON instead of the tables" },
		out: { kind: "string", value: "FILE", help: "also write the JSON results to FILE" },
		quiet: { kind: "boolean", short: "q", help: "no progress lines on stderr (the results still print)" },
	},
	notes: "Exit status: 0 done, 1 a benchmark failed, 2 bad usage.",
} satisfies CommandSpec;

/** Percent done on stderr: redrawn on a terminal, a line per 10% otherwise. */
function progressLine(stream: NodeJS.WriteStream): (fraction: number, what: string) => void {
	let lastTenth = -1;
	return (fraction, what) => {
		const percent = Math.min(100, Math.floor(fraction * 100));
		if (stream.isTTY) {
			stream.write(
				`\rbench --cli: ${String(percent).padStart(3)}% ${what.slice(0, 60)}\x1b[K${percent === 100 ? "\n" : ""}`,
			);
			return;
		}
		if (Math.floor(percent / 10) > lastTenth) {
			lastTenth = Math.floor(percent / 10);
			stream.write(`bench --cli: ${percent}% (${what})\n`);
		}
	};
}

/** `pi-fold bench --cli ARGS`: `argv` without the --cli flag itself. */
export async function runCliBenchCommand(argv: readonly string[]): Promise<number> {
	const parsed = parseCommandLine(CLI_BENCH_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(CLI_BENCH_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const result = await runCliBench({
		storeMiB: flags.size,
		fileMiB: flags["file-size"],
		repeats: flags.repeats,
		masked: !flags["no-masked"],
		...(flags["cli-bin"] === undefined ? {} : { cliBin: flags["cli-bin"] }),
		progress: flags.quiet ? () => {} : progressLine(process.stderr),
	});
	const json = `${JSON.stringify(result, null, 2)}\n`;
	if (flags.out !== undefined) {
		try {
			writeFileSync(flags.out, json);
		} catch (error) {
			throw Object.assign(new Error(`cannot write ${flags.out} (${(error as NodeJS.ErrnoException).code ?? error})`), {
				exitCode: 1,
			});
		}
	}
	process.stdout.write(flags.json ? json : renderCliTable(result));
	return 0;
}
