// `pi-fold replay [options] FILE|DIR` (bundle build/cli-replay.js): what pi-fold would have done in a
// session you already ran. Reads the Pi session file (no Pi needed), replays it offline through
// pi-fold's policy (src/replay, no model calls), prints the session as it ran beside the session
// with pi-fold, how each held the agent's working set, and writes the chart (and, with --requests,
// every request pi-fold's window sends, as JSON lines). Without --window or --max-output it takes the model's own from
// pi-ai's catalog entry for the model the file names (replay-model.ts), and says so. Bad input is
// one line naming the line of the file (exit 1);
// bad usage exit 2. Does its own I/O (the session file, the settings file, stdout, the chart).

import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { z } from "zod";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError } from "../../args/index.ts";
import { renderLineChart } from "../../chart/index.ts";
import { parseSettingsText } from "../../options/index.ts";
import {
	DEFAULT_CACHE_TTL_MS,
	DEFAULT_MAX_OUTPUT,
	LimitsError,
	modelLimits,
	type Prices,
	parseSessionFile,
	type ReplayOptions,
	renderReplay,
	replayChart,
	replaySession,
	type SessionFile,
	SessionFileError,
} from "../../replay/index.ts";
import { nothingReplayed, renderFolder, replayFolder } from "./replay-folder.ts";
import { loadModelCatalog } from "./replay-model.ts";

const REPLAY_COMMAND = {
	name: "replay",
	operands: "FILE|DIR",
	description:
		"Replays the Pi session file FILE offline through pi-fold's policy, with no model calls, and prints what\n" +
		"happened in the session (requests, tokens and cost from the file's own usage, compactions, peak) beside\n" +
		"what pi-fold would have done (folds, commits, request sizes, estimated tokens and cost at the session's\n" +
		"prices, peak, what stays recoverable), and how each window held the facts the agent went on to use (its\n" +
		"working set) and the user's earlier messages. Writes the chart as SVG beside FILE. Given a folder DIR,\n" +
		"replays every session file (*.jsonl) in it and prints one row each and the total.",
	flags: {
		window: {
			kind: "integer",
			value: "N",
			min: 1,
			help: "the model's context window in tokens (default: pi-ai's entry for the model the file names)",
		},
		"max-output": {
			kind: "integer",
			value: "N",
			min: 1,
			help: `output tokens each request reserves (default: pi-ai's entry for the model, else ${DEFAULT_MAX_OUTPUT.toLocaleString("en-US")})`,
		},
		prices: {
			kind: "string",
			value: "I,O,CR,CW",
			help: "dollars per million input, output, cache-read and cache-write tokens (default: what the file's costs imply)",
		},
		tier: {
			kind: "string",
			value: "ABOVE:I,O,CR,CW",
			help: "a long-context tier over --prices: a request whose prompt is above ABOVE tokens is priced at these rates",
		},
		"cache-ttl": {
			kind: "integer",
			value: "SECONDS",
			min: 1,
			default: DEFAULT_CACHE_TTL_MS / 1000,
			help: "the provider's prompt-cache lifetime",
		},
		scheduling: {
			kind: "choice",
			choices: ["immediate", "epoch", "cost"],
			help: "pi-fold's foldScheduling (default: pi-fold's own default, or the --settings file's)",
		},
		settings: { kind: "string", value: "FILE", help: "replay with the options of a pi-fold.json settings file" },
		chart: {
			kind: "string",
			value: "FILE",
			help: "where to write the chart (default <session>.replay.svg beside the session file)",
		},
		"no-chart": { kind: "boolean", help: "write no chart" },
		json: { kind: "boolean", help: "print the replay as JSON instead of the table" },
		requests: {
			kind: "string",
			value: "FILE",
			help: "write each request pi-fold's window sends to FILE, one JSON object per line (request, reply, tokens, messages)",
		},
	},
	notes:
		"Exit status: 0 replayed, 1 FILE is not a readable Pi session file (the line is named) or no file of DIR could be\n" +
		"replayed, 2 bad usage (among it a window that is neither given nor known for the model).",
} satisfies CommandSpec;

/** A problem with the input (exit 1), as the bin reports it: one line. */
class InputError extends Error {
	readonly exitCode = 1;
}

/** A rate: dollars per million tokens, finite and not negative. */
const RATE = z.number().min(0);

/** `I,O,CR,CW` split at its commas: four rates, input, output, cache read, cache write. */
const RATES = z
	.tuple([RATE, RATE, RATE, RATE])
	.transform(([input, output, cacheRead, cacheWrite]) => ({ input, output, cacheRead, cacheWrite }));

/** `ABOVE:I,O,CR,CW` split at its colon: a token count above zero, then the rates (checked by RATES). */
const TIER = z.tuple([z.coerce.number().refine((n) => Number.isInteger(n) && n > 0), z.string()]);

/** Four non-negative numbers (input,output,cacheRead,cacheWrite) of `flag`, or a usage error naming it. */
function ratesOf(flag: string, raw: string) {
	const rates = RATES.safeParse(raw.split(",").map(Number));
	if (!rates.success)
		throw new UsageError(`${flag} needs four numbers (input,output,cacheRead,cacheWrite), got ${JSON.stringify(raw)}`);
	return rates.data;
}

/** The `--prices` table, with the `--tier` above it when given. */
function pricesOf(raw: string | undefined, tier: string | undefined): Prices | undefined {
	if (raw === undefined) {
		if (tier !== undefined) throw new UsageError("--tier needs --prices: the tier is priced over the base rates");
		return undefined;
	}
	const base = ratesOf("--prices", raw);
	if (tier === undefined) return base;
	const parts = TIER.safeParse(tier.split(":"));
	if (!parts.success)
		throw new UsageError(
			`--tier needs ABOVE:I,O,CR,CW (a token count, then four numbers), got ${JSON.stringify(tier)}`,
		);
	const [threshold, rates] = parts.data;
	return { ...base, tiers: [{ ...ratesOf("--tier", rates), inputTokensAbove: threshold }] };
}

function readText(path: string, what: string): string {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new InputError(`${path}: no such file`);
		throw new InputError(`cannot read ${what} ${path} (${code ?? String(error)})`);
	}
}

/** Whether `path` is a folder (a missing path is left to the file read, which names it). */
function isFolder(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** The options of a `--settings` file, checked as pi-fold checks its own settings files. */
function settingsOf(path: string | undefined) {
	if (path === undefined) return undefined;
	const file = parseSettingsText("global", path, readText(path, "the settings file"));
	if (file.state !== "read") throw new InputError(`${path}: ${file.state === "invalid" ? file.problem : file.state}`);
	return file.values;
}

/** Runs `replay` with, when `path` is given, each request's window written to it as a JSON line. */
async function withRequests<T>(
	path: string | undefined,
	replay: (onWindow?: NonNullable<ReplayOptions["onWindow"]>) => Promise<T>,
): Promise<T> {
	if (path === undefined) return replay();
	let fd: number;
	try {
		fd = openSync(path, "w");
	} catch (error) {
		throw new InputError(`cannot write --requests ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
	}
	try {
		return await replay((w) => void writeSync(fd, `${JSON.stringify(w)}\n`));
	} finally {
		closeSync(fd);
	}
}

export async function main(argv: string[]): Promise<number> {
	const parsed = parseCommandLine(REPLAY_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(REPLAY_COMMAND));
		return 0;
	}
	const { flags } = parsed;
	const [path, extra] = parsed.operands;
	if (path === undefined) throw new UsageError("no session file given; see 'pi-fold replay --help'");
	if (extra !== undefined)
		throw new UsageError(`one session file or folder expected, also got ${JSON.stringify(extra)}`);
	const prices = pricesOf(flags.prices, flags.tier);
	const settings = settingsOf(flags.settings);
	const given = { window: flags.window, maxOutput: flags["max-output"] };
	// pi-ai's catalog, loaded only when a limit is not given.
	const catalog =
		given.window !== undefined && given.maxOutput !== undefined ? { missing: "" } : await loadModelCatalog();
	const options = (file: SessionFile): ReplayOptions => {
		const limits = modelLimits(file, given, catalog);
		return {
			window: limits.window,
			maxOutput: limits.maxOutput,
			limitsFrom: { window: limits.windowFrom, maxOutput: limits.maxOutputFrom },
			cacheTtlMs: flags["cache-ttl"] * 1000,
			...(flags.scheduling ? { scheduling: flags.scheduling as "immediate" | "epoch" | "cost" } : {}),
			...(prices ? { prices } : {}),
			...(settings ? { options: settings } : {}),
		};
	};
	if (isFolder(path)) {
		if (flags.requests !== undefined) throw new UsageError("--requests takes one session file, not a folder");
		const rows = await replayFolder(path, (p) => readText(p, "the session file"), options);
		if (rows.length === 0) throw new InputError(`${path}: no session files (*.jsonl) in this folder`);
		const none = nothingReplayed(path, rows);
		if (none) throw none.usage ? new UsageError(none.message) : new InputError(none.message);
		const json = rows.map((r) => ("result" in r ? { file: r.file, ...r.result } : r));
		process.stdout.write(flags.json ? `${JSON.stringify(json, null, "\t")}\n` : renderFolder(path, rows, flags.window));
		return 0;
	}
	let file: SessionFile;
	try {
		file = parseSessionFile(readText(path, "the session file"));
	} catch (error) {
		if (error instanceof SessionFileError) throw new InputError(`${path}: ${error.message}`);
		throw error;
	}
	let replayOptions: ReplayOptions;
	try {
		replayOptions = options(file);
	} catch (error) {
		if (error instanceof LimitsError) throw new UsageError(error.message);
		throw error;
	}
	const result = await withRequests(flags.requests, (onWindow) =>
		replaySession(file, onWindow ? { ...replayOptions, onWindow } : replayOptions),
	);
	const beside = join(dirname(path), `${basename(path).replace(/\.jsonl$/, "")}.replay.svg`);
	const chart = flags["no-chart"] ? undefined : resolve(flags.chart ?? beside);
	if (chart) writeFileSync(chart, renderLineChart(replayChart(result)));
	process.stdout.write(flags.json ? `${JSON.stringify(result, null, "\t")}\n` : renderReplay(result, path, chart));
	return 0;
}
