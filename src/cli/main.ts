// The `pi-fold` bin (bundled to build/cli.js, a few KB): checks the Node version first, answers
// --help and --version itself, and loads only the command it runs, from that command's own bundle
// beside it (build/cli-<command>.js, found by path at run time so esbuild leaves the import alone).
// Every failure is one line `pi-fold: <command>: <message>` on stderr (a stack trace only with
// PI_FOLD_DEBUG=1); exit 1 for problems a command found, 2 for usage errors. A reader that goes away
// (`pi-fold verify DIR | head -0`) is no failure: what is left to print is dropped, quietly, and the
// command ends with its own exit status.
//
// This file is compiled for Node 14 syntax and may use only APIs Node 14 has (scripts/bundle.mjs):
// under an older Node than package.json's engines it must still run far enough to say so in one
// line. So: no static imports of Node builtins, no top-level await; the command bundles need Node 22.

import { nodeSatisfies, nodeTooOldMessage } from "./node-version.ts";

/** Set at build time from package.json (scripts/bundle.mjs); undefined when run from sources. */
declare const PI_FOLD_VERSION: string | undefined;
declare const PI_FOLD_NODE_MIN: string | undefined;

/** The commands, each in its own bundle, with the summary the top-level usage shows. */
const COMMANDS: Record<string, string> = {
	hash: "print SHA-256 lines exactly like sha256sum (no FILE, or -: standard input)",
	verify: "verify a content-addressed store; exit 0 clean, 1 damaged, 2 bad usage",
	gc: "list (--apply: remove) fold-store blobs no session file of a sessions folder references",
	bench: "hashing and token-estimator benchmarks, as ratios against peers",
	demo: "the offline session benchmark (needs the Pi packages)",
	replay: "a Pi session file replayed offline through pi-fold, beside the session as it ran",
	unfold: "a Pi session file with every pi-fold context edit undone (before uninstalling pi-fold)",
};

function hasCommand(name: string): boolean {
	return Object.hasOwn(COMMANDS, name);
}

function usage(): string {
	const names = Object.keys(COMMANDS);
	const width = Math.max(...names.map((n) => n.length)) + 2;
	return [
		"usage: pi-fold <command> [options] [args]",
		"       pi-fold --help | --version",
		"",
		"commands:",
		...names.map((n) => `  ${n.padEnd(width)}${COMMANDS[n]}`),
		"",
		"options:",
		"  -h, --help     print this help and exit (after a command: that command's help)",
		"  -v, --version  print the version and exit",
		"",
		"Run 'pi-fold <command> --help' for a command's options.",
		"Exit status: 0 success, 1 the command found a problem (e.g. a damaged store), 2 bad usage.",
		"",
	].join("\n");
}

/** A failure with a message for the user and, when it carries one, its own exit status. */
class CliFailure extends Error {
	readonly exitCode: number;
	constructor(message: string, exitCode: number) {
		super(message);
		this.exitCode = exitCode;
	}
}

interface CommandModule {
	main(argv: string[]): Promise<number>;
}

function loadCommand(name: string): Promise<CommandModule> {
	const url = new URL(`./cli-${name}.js`, import.meta.url).href;
	return import(url).then(
		(mod) => mod as CommandModule,
		(error: { code?: string; message?: string }) => {
			const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error.message ?? "");
			if (error.code === "ERR_MODULE_NOT_FOUND" && missing && !missing[1]?.includes("cli-"))
				throw new CliFailure(`needs the package ${missing[1]}; install it next to pi-fold`, 1);
			throw error;
		},
	);
}

function run(argv: string[]): Promise<number> {
	const name = argv[0];
	const rest = argv.slice(1);
	if (name === "-h" || name === "--help") return Promise.resolve(print(usage(), 0));
	if (name === "-v" || name === "--version")
		return Promise.resolve(
			print(`pi-fold ${typeof PI_FOLD_VERSION === "string" ? PI_FOLD_VERSION : "(sources)"}\n`, 0),
		);
	if (name === "help") {
		if (rest[0] === undefined) return Promise.resolve(print(usage(), 0));
		return dispatch(rest[0], ["--help"]);
	}
	if (name === undefined) {
		process.stderr.write(usage());
		return Promise.resolve(2);
	}
	return dispatch(name, rest);
}

function dispatch(name: string, rest: string[]): Promise<number> {
	if (name.startsWith("-")) throw new CliFailure(`unknown option ${name}; see 'pi-fold --help'`, 2);
	if (!hasCommand(name))
		throw new CliFailure(
			`unknown command ${JSON.stringify(name)}; expected one of: ${Object.keys(COMMANDS).join(", ")}`,
			2,
		);
	return loadCommand(name).then((command) => command.main(rest));
}

function print(text: string, code: number): number {
	process.stdout.write(text);
	return code;
}

function report(command: string | undefined, error: unknown): void {
	const e = error as { exitCode?: unknown; message?: unknown; stack?: unknown } | null;
	const message = e && typeof e.message === "string" ? e.message : String(error);
	const where = command && hasCommand(command) ? `${command}: ` : "";
	process.stderr.write(`pi-fold: ${where}${message}\n`);
	if (process.env.PI_FOLD_DEBUG === "1" && e && typeof e.stack === "string") process.stderr.write(`${e.stack}\n`);
	process.exitCode = e && typeof e.exitCode === "number" ? e.exitCode : 1;
}

/**
 * Output to a closed pipe (EPIPE) is dropped instead of crashing the process with an unhandled
 * 'error' event: the stream is destroyed by then, so later writes are no-ops. Other errors still throw.
 */
function dropOutputWhenReaderLeaves(stream: NodeJS.WriteStream): void {
	stream.on("error", (error: Error & { code?: string }) => {
		if (error.code !== "EPIPE") throw error;
	});
}

dropOutputWhenReaderLeaves(process.stdout);
dropOutputWhenReaderLeaves(process.stderr);

const minimum = typeof PI_FOLD_NODE_MIN === "string" ? PI_FOLD_NODE_MIN : "0.0.0";
const argv = process.argv.slice(2);
if (!nodeSatisfies(process.versions.node, minimum)) {
	process.stderr.write(nodeTooOldMessage(process.version, minimum));
	process.exitCode = 1;
} else {
	const command = argv[0] === "help" ? argv[1] : argv[0];
	new Promise<number>((resolve) => resolve(run(argv))).then(
		(code) => {
			process.exitCode = code;
		},
		(error: unknown) => report(command, error),
	);
}
