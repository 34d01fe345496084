// The `pi-fold` command line: dispatches a subcommand to its module under src/cli/commands/.
// Every failure becomes one clear line on stderr and a non-zero exit, never a stack trace.

import { CliError } from "./errors.ts";

interface Command {
	summary: string;
	run(args: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
	hash: async () => (await import("./commands/hash.ts")).command,
	verify: async () => (await import("./commands/verify.ts")).command,
	bench: async () => (await import("./commands/bench.ts")).command,
	demo: async () => (await import("./commands/demo.ts")).command,
	replay: async () => (await import("./commands/replay.ts")).command,
};

const usage = `usage: pi-fold <command> [args]

commands:
  hash FILE...        print SHA-256 lines exactly like sha256sum
  verify DIR          verify a content-addressed store (sha256/<2 hex>/<64 hex>)
  bench [--json]      run the hashing and estimator benchmarks
  demo [options]      run the offline session benchmark (the main job)
  replay FILE --window N   replay a Pi session file through pi-fold, offline
`;

async function main(argv: string[]): Promise<number> {
	const [name, ...rest] = argv;
	if (name === undefined || name === "--help" || name === "-h" || name === "help") {
		process.stdout.write(usage);
		return name === undefined ? 2 : 0;
	}
	const load = commands[name];
	if (!load)
		throw new CliError(`unknown command ${JSON.stringify(name)}; expected one of: ${Object.keys(commands).join(", ")}`);
	return (await load()).run(rest);
}

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		const message = error instanceof CliError ? error.message : error instanceof Error ? error.message : String(error);
		process.stderr.write(`pi-fold: ${message}\n`);
		process.exitCode = error instanceof CliError ? error.exitCode : 1;
	},
);
