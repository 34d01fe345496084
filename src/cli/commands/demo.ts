// `pi-fold demo`: the offline session benchmark (the project's main job). Parses flags, then loads the benchmark
// (which imports Pi) lazily, so `pi-fold hash` and `pi-fold verify` never load Pi.

import { DEFAULT_ARMS } from "../../../bench/session/options.ts";
import { CliError } from "../errors.ts";

const usage = `usage: pi-fold demo [--stages N] [--arms a,b] [--window N] [--seed S] [--out DIR] [--json] [--quiet]

Runs one real Pi session per arm on Pi's faux provider over a staged plan drawn from the installed
@earendil-works packages, then prints the side-by-side table and writes report.json, report.md and
context.svg to the results folder (default results/demo-<timestamp>).

  --stages N       stages in the plan (default 64)
  --arms a,b       arms to run, in order (default ${DEFAULT_ARMS.join(",")})
  --window N       serving context window in tokens (default 372000)
  --seed S         plan seed (default pi-fold)
  --stage-chars N  characters of file bodies per stage (default 48000)
  --out DIR        results folder
  --json           print report.json to stdout instead of the table
  --quiet          no progress lines on stderr
`;

interface Parsed {
	stages?: number;
	arms?: string[];
	window?: number;
	seed?: string;
	stageChars?: number;
	out?: string;
	json: boolean;
	progress: boolean;
}

function integer(flag: string, value: string | undefined): number {
	if (value === undefined || !/^\d+$/.test(value))
		throw new CliError(`${flag} needs a whole number, got ${JSON.stringify(value)}`);
	return Number(value);
}

export function parseDemoArgs(args: string[]): Parsed | "help" {
	const parsed: Parsed = { json: false, progress: true };
	for (let i = 0; i < args.length; i++) {
		const flag = args[i] as string;
		const [name, inline] = flag.includes("=")
			? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)]
			: [flag, undefined];
		const value = (): string | undefined => inline ?? args[++i];
		switch (name) {
			case "-h":
			case "--help":
				return "help";
			case "--stages":
				parsed.stages = integer(name, value());
				break;
			case "--window":
				parsed.window = integer(name, value());
				break;
			case "--stage-chars":
				parsed.stageChars = integer(name, value());
				break;
			case "--arms": {
				const v = value();
				if (!v) throw new CliError("--arms needs a comma-separated list, e.g. native,unmanaged");
				parsed.arms = v
					.split(",")
					.map((a) => a.trim())
					.filter(Boolean);
				break;
			}
			case "--seed": {
				const v = value();
				if (!v) throw new CliError("--seed needs a value");
				parsed.seed = v;
				break;
			}
			case "--out": {
				const v = value();
				if (!v) throw new CliError("--out needs a directory");
				parsed.out = v;
				break;
			}
			case "--json":
				parsed.json = true;
				break;
			case "--quiet":
				parsed.progress = false;
				break;
			default:
				throw new CliError(`unknown demo option ${JSON.stringify(flag)}\n${usage}`);
		}
	}
	return parsed;
}

export const command = {
	summary: "run the offline session benchmark",
	async run(args: string[]): Promise<number> {
		const parsed = parseDemoArgs(args);
		if (parsed === "help") {
			process.stdout.write(usage);
			return 0;
		}
		const { runDemo } = await import("../../../bench/session/index.ts");
		let result: Awaited<ReturnType<typeof runDemo>>;
		try {
			result = await runDemo(parsed, {
				command: ["pi-fold demo", ...args].join(" "),
				log: (line) => process.stderr.write(`${line}\n`),
			});
		} catch (error) {
			const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] } | null)?.issues;
			if (Array.isArray(issues))
				throw new CliError(
					`invalid demo options: ${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
				);
			if (error instanceof Error && /^(unknown arm|arm ")/.test(error.message)) throw new CliError(error.message);
			throw error;
		}
		process.stdout.write(parsed.json ? `${JSON.stringify(result.report, null, "\t")}\n` : result.table);
		if (!parsed.json) process.stdout.write(`\nResults: ${result.dir}\n`);
		return 0;
	},
};
