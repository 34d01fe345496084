// `pi-fold demo` / `npm run demo` (bundle build/cli-demo.js): the offline session benchmark, the
// project's main job. Parses its flags (declared once below, defaults from bench/session/demo-options.ts),
// then loads the benchmark, which imports Pi, as a separate chunk: `pi-fold demo --help` and bad
// flags are answered without Pi. Prints the table (or report.json with --json) to stdout and
// progress to stderr unless --quiet; the benchmark writes its results folder. Does its own I/O.

import { type CommandSpec, type FlagValues, parseCommandLine, renderUsage, UsageError } from "../src/args/index.ts";
import { numberList } from "./command-line.ts";
import {
	DEFAULT_ARMS,
	DEFAULT_SEED,
	DEFAULT_STAGE_CHARS,
	DEFAULT_STAGES,
	DEFAULT_WINDOW,
	type DemoOptionsInput,
	PLANS_WINDOW,
	SWEEP_STAGES,
	SWEEP_WINDOWS,
} from "./session/demo-options.ts";

export const DEMO_COMMAND = {
	name: "demo",
	description:
		"Runs one real Pi session per arm on Pi's faux provider over a staged plan drawn from the installed\n" +
		"@earendil-works packages, prints the side-by-side table, and writes report.json, report.md and\n" +
		"context.svg to the results folder.",
	flags: {
		stages: { kind: "integer", value: "N", default: DEFAULT_STAGES, help: "stages in the plan" },
		arms: { kind: "string", value: "a,b", default: DEFAULT_ARMS.join(","), help: "arms to run, in order" },
		window: { kind: "integer", value: "N", default: DEFAULT_WINDOW, help: "serving context window in tokens" },
		seed: { kind: "string", value: "S", default: DEFAULT_SEED, help: "plan seed" },
		"stage-chars": {
			kind: "integer",
			value: "N",
			default: DEFAULT_STAGE_CHARS,
			help: "characters of file bodies per stage",
		},
		"no-reuse": {
			kind: "boolean",
			help: "no reused facts: later stages do not use facts from files read many stages earlier",
		},
		shape: {
			kind: "string",
			value: "S",
			default: "standard",
			help: "plan shape: standard, or recall-every-four (every fourth stage a fact from a file read twelve stages earlier)",
		},
		windows: {
			kind: "string",
			value: "a,b",
			help: "run every arm at each of these windows and print the sweep table and the cost targets",
		},
		"stages-sweep": {
			kind: "string",
			value: "a,b",
			help: `run every arm at ${PLANS_WINDOW} for plans of these stage counts and print their table and target`,
		},
		sweep: {
			kind: "boolean",
			help: `the same with the preset windows ${SWEEP_WINDOWS.join(",")} and plans of ${SWEEP_STAGES.join(",")} stages`,
		},
		out: { kind: "string", value: "DIR", help: "results folder (default results/demo-<timestamp>)" },
		json: { kind: "boolean", help: "print report.json to stdout instead of the table" },
		quiet: { kind: "boolean", short: "q", help: "no progress lines on stderr (the results still print)" },
	},
	notes: "Exit status: 0 done, 1 the benchmark failed, 2 bad usage.",
} satisfies CommandSpec;

/** Flag names by option name, to word validation errors as the user typed them. */
const FLAG_OF: Record<string, string> = { stageChars: "stage-chars" };

/** The windows a sweep runs at (`--windows` or `--sweep`), or null for one run at `--window`. */
function sweepWindows(flags: FlagValues<typeof DEMO_COMMAND.flags>): number[] | null {
	if (flags.windows === undefined) return flags.sweep ? [...SWEEP_WINDOWS] : null;
	return numberList("windows", flags.windows, "60000,200000");
}

/** The plan lengths run at 200k (`--stages-sweep`, or `--sweep`'s preset), or null for none. */
function sweepStages(flags: FlagValues<typeof DEMO_COMMAND.flags>): number[] | null {
	if (flags["stages-sweep"] === undefined) return flags.sweep ? [...SWEEP_STAGES] : null;
	return numberList("stages-sweep", flags["stages-sweep"], "8,16,32,64");
}

function toOptions(
	flags: FlagValues<typeof DEMO_COMMAND.flags>,
): DemoOptionsInput & { windows?: number[]; stagesSweep?: number[] } {
	const arms = flags.arms
		.split(",")
		.map((a) => a.trim())
		.filter(Boolean);
	if (arms.length === 0) throw new UsageError("--arms needs a comma-separated list, e.g. native,unmanaged");
	return {
		stages: flags.stages,
		arms,
		window: flags.window,
		seed: flags.seed,
		stageChars: flags["stage-chars"],
		reuse: !flags["no-reuse"],
		shape: flags.shape as DemoOptionsInput["shape"],
		...(flags.out !== undefined ? { out: flags.out } : {}),
		json: flags.json,
		progress: !flags.quiet,
		...(sweepWindows(flags) || sweepStages(flags) ? { windows: sweepWindows(flags) ?? [] } : {}),
		...(sweepStages(flags) ? { stagesSweep: sweepStages(flags) as number[] } : {}),
	};
}

/** The benchmark options a command line asks for, or "help". Throws UsageError on a bad flag. */
export function parseDemoArgs(
	argv: readonly string[],
): (DemoOptionsInput & { windows?: number[]; stagesSweep?: number[] }) | "help" {
	const parsed = parseCommandLine(DEMO_COMMAND, argv);
	if (parsed.help) return "help";
	return toOptions(parsed.flags);
}

/** A zod validation error (bad ranges) or an unknown arm, worded as a usage error; anything else as is. */
function asUsageError(error: unknown): unknown {
	const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] } | null)?.issues;
	if (Array.isArray(issues)) {
		const words = issues.map((i) => {
			const key = String(i.path[0] ?? "");
			return `--${FLAG_OF[key] ?? key}: ${i.message}`;
		});
		return new UsageError(`invalid options: ${words.join("; ")}`);
	}
	if (error instanceof Error && /^(unknown arm|arm ")/.test(error.message)) return new UsageError(error.message);
	return error;
}

export async function main(argv: string[]): Promise<number> {
	const options = parseDemoArgs(argv);
	if (options === "help") {
		process.stdout.write(renderUsage(DEMO_COMMAND));
		return 0;
	}
	const { runDemo, runSweep } = await import("./session/index.ts");
	const context = {
		command: ["pi-fold demo", ...argv].join(" "),
		log: (line: string) => process.stderr.write(`${line}\n`),
	};
	try {
		const { windows, stagesSweep, ...single } = options;
		if (windows) {
			const sweep = await runSweep({ ...single, windows, ...(stagesSweep ? { stagesSweep } : {}) }, context);
			process.stdout.write(
				options.json
					? `${JSON.stringify({ reports: sweep.reports, plans: sweep.plans, verdicts: sweep.verdicts, replay: sweep.replay }, null, "\t")}\n`
					: sweep.table,
			);
			if (!options.json) process.stdout.write(`\nResults: ${sweep.dir}\n`);
			return 0;
		}
		const result = await runDemo(single, context);
		process.stdout.write(options.json ? `${JSON.stringify(result.report, null, "\t")}\n` : result.table);
		if (!options.json) process.stdout.write(`\nResults: ${result.dir}\n`);
		return 0;
	} catch (error) {
		throw asUsageError(error);
	}
}
