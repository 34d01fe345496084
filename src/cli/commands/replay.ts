// `pi-fold replay <session.jsonl>`: what pi-fold would have done in a session you already ran. Reads
// the Pi session file (no Pi needed), replays it offline through pi-fold's policy (src/replay, no
// model calls) and prints the session as it ran beside the session with pi-fold, then writes the
// chart. Does the file I/O; the replay itself is loaded only when this command runs.

import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { CliError } from "../errors.ts";
import { type ParsedArgs, parseFlags, UsageError } from "../flags.ts";

export const usage = `usage: pi-fold replay <session.jsonl> --window N [--max-output N] [--prices I,O,CR,CW]
                      [--cache-ttl SECONDS] [--scheduling immediate|epoch] [--settings FILE]
                      [--chart FILE | --no-chart] [--json]

Replays a Pi session file offline through pi-fold's policy, with no model calls, and prints what
happened in the session (requests, tokens and cost from the file's own usage, compactions, peak)
beside what pi-fold would have done (folds, commits, requests' sizes, estimated tokens and cost at
the session's prices, peak, what stays recoverable). Writes the chart as SVG.

  --window N          the model's context window in tokens (required: a session file does not record it)
  --max-output N      output tokens each request reserves (default 16384)
  --prices I,O,CR,CW  dollars per million input, output, cache-read, cache-write tokens
                      (default: what the file's own costs imply)
  --cache-ttl S       the provider's prompt-cache lifetime in seconds (default 300)
  --scheduling M      pi-fold's foldScheduling: immediate (default) or epoch
  --settings FILE     replay with the options of a pi-fold.json settings file
  --chart FILE        where to write the chart (default ./<session>.replay.svg)
  --no-chart          write no chart
  --json              print the replay as JSON instead of the table
`;

const FLAGS = {
	window: "string",
	"max-output": "string",
	prices: "string",
	"cache-ttl": "string",
	scheduling: "string",
	settings: "string",
	chart: "string",
	"no-chart": "boolean",
	json: "boolean",
	help: "boolean",
} as const;

function positive(parsed: ParsedArgs, name: string): number | undefined {
	const raw = parsed.flags.get(name);
	if (raw === undefined) return undefined;
	if (typeof raw !== "string" || !/^\d+$/.test(raw) || Number(raw) <= 0)
		throw new UsageError(`replay: --${name} needs a positive whole number, got ${JSON.stringify(raw)}`);
	return Number(raw);
}

function prices(parsed: ParsedArgs) {
	const raw = parsed.flags.get("prices");
	if (raw === undefined) return undefined;
	const parts = String(raw).split(",").map(Number);
	if (parts.length !== 4 || parts.some((p) => !Number.isFinite(p) || p < 0))
		throw new UsageError(
			`replay: --prices needs four numbers (input,output,cacheRead,cacheWrite), got ${JSON.stringify(raw)}`,
		);
	const [input, output, cacheRead, cacheWrite] = parts as [number, number, number, number];
	return { input, output, cacheRead, cacheWrite };
}

function options(parsed: ParsedArgs) {
	const window = positive(parsed, "window");
	if (window === undefined)
		throw new UsageError("replay: --window N is required: a session file does not record the model's context window");
	const scheduling = parsed.flags.get("scheduling") ?? "immediate";
	if (scheduling !== "immediate" && scheduling !== "epoch")
		throw new UsageError(`replay: --scheduling is immediate or epoch, got ${JSON.stringify(scheduling)}`);
	const maxOutput = positive(parsed, "max-output");
	const ttl = positive(parsed, "cache-ttl");
	const p = prices(parsed);
	return {
		window,
		scheduling,
		...(maxOutput !== undefined ? { maxOutput } : {}),
		...(ttl !== undefined ? { cacheTtlMs: ttl * 1000 } : {}),
		...(p ? { prices: p } : {}),
	} as const;
}

/** The options of a `--settings` file (checked as pi-fold checks its own settings files). */
async function settingsOf(parsed: ParsedArgs) {
	const path = parsed.flags.get("settings");
	if (path === undefined) return undefined;
	const { parseSettingsText } = await import("../../options/index.ts");
	let text: string;
	try {
		text = readFileSync(String(path), "utf8");
	} catch (error) {
		throw new CliError(
			`replay: cannot read --settings ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
			1,
		);
	}
	const file = parseSettingsText("global", String(path), text);
	if (file.state !== "read")
		throw new CliError(`replay: --settings ${path}: ${file.state === "invalid" ? file.problem : file.state}`, 1);
	return file.values;
}

export const command = {
	summary: "replay a Pi session file through pi-fold, offline",
	async run(args: string[]): Promise<number> {
		let parsed: ParsedArgs;
		try {
			parsed = parseFlags("replay", args, FLAGS);
			if (parsed.flags.has("help")) {
				process.stdout.write(usage);
				return 0;
			}
			if (parsed.positional.length !== 1) throw new UsageError(`replay: give one session file\n${usage}`);
		} catch (error) {
			if (error instanceof UsageError) throw new CliError(error.message);
			throw error;
		}
		const path = parsed.positional[0] as string;
		let opts: ReturnType<typeof options>;
		try {
			opts = options(parsed);
		} catch (error) {
			if (error instanceof UsageError) throw new CliError(error.message);
			throw error;
		}
		let text: string;
		try {
			text = readFileSync(path, "utf8");
		} catch (error) {
			throw new CliError(`replay: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 1);
		}
		const replay = await import("../../replay/index.ts");
		const settings = await settingsOf(parsed);
		const { renderLineChart } = await import("../../chart/index.ts");
		let file: ReturnType<typeof replay.parseSessionFile>;
		try {
			file = replay.parseSessionFile(text);
		} catch (error) {
			if (error instanceof replay.SessionFileError) throw new CliError(`replay: ${path}: ${error.message}`, 1);
			throw error;
		}
		const result = await replay.replaySession(file, { ...opts, ...(settings ? { options: settings } : {}) });
		const chart = parsed.flags.has("no-chart")
			? undefined
			: String(parsed.flags.get("chart") ?? `${basename(path).replace(/\.jsonl$/, "")}.replay.svg`);
		if (chart) writeFileSync(chart, renderLineChart(replay.replayChart(result)));
		if (parsed.flags.has("json")) process.stdout.write(`${JSON.stringify(result, null, "\t")}\n`);
		else process.stdout.write(replay.renderReplay(result, path, chart));
		return 0;
	},
};
