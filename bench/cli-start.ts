// Cold start of the `pi-fold` bin, measured as a user meets it: each contender is a fresh process
// (`node -e 0`, `pi-fold --help`, `pi-fold --version`, `pi-fold hash <small file>`), run round-robin
// for several rounds starting from a different contender each round, after one warm-up run each.
// Reports the median wall time per contender and its ratio to `node -e 0` measured in the same run
// (issue 13's target: at most 1.5x). Not a test: timings depend on the machine and its load.
//   npm run bench:cli-start -- [--runs N] [--json]      (builds first)
//   npm exec -- node bench/cli-start.ts [--runs N] [--json]

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandSpec } from "../src/args/index.ts";
import { scriptArgs } from "./command-line.ts";
import { machineInfo, median } from "./data.ts";

const CLI = join(import.meta.dirname, "..", "build", "cli.js");
/** Issue 13: `--help`, `--version` and `hash` of a small file within 1.5x `node -e 0`. */
export const TARGET_RATIO = 1.5;

export const CLI_START_COMMAND = {
	name: "bench:cli-start",
	description: "Times fresh `pi-fold` processes against `node -e 0` in one run (medians, ratios).",
	flags: {
		runs: { kind: "integer", value: "N", default: 21, min: 1, max: 1000, help: "timed rounds" },
		json: { kind: "boolean", help: "print the results as JSON" },
	},
} satisfies CommandSpec;

interface Row {
	label: string;
	medianMs: number;
	ratio: number;
}

function timeOnce(args: string[]): number {
	const start = performance.now();
	const r = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
	const ms = performance.now() - start;
	if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
	return ms;
}

export function measure(runs: number, smallFile: string): Row[] {
	const contenders: [string, string[]][] = [
		["node -e 0", ["-e", "0"]],
		["pi-fold --help", [CLI, "--help"]],
		["pi-fold --version", [CLI, "--version"]],
		["pi-fold hash <12-byte file>", [CLI, "hash", smallFile]],
	];
	const times = contenders.map(([, args]) => {
		timeOnce(args);
		return [] as number[];
	});
	for (let round = 0; round < runs; round++) {
		for (let k = 0; k < contenders.length; k++) {
			const i = (round + k) % contenders.length;
			times[i]?.push(timeOnce((contenders[i] as [string, string[]])[1]));
		}
	}
	const base = median(times[0] ?? []);
	return contenders.map(([label], i) => {
		const ms = median(times[i] ?? []);
		return { label, medianMs: ms, ratio: ms / base };
	});
}

function table(rows: Row[], runs: number): string {
	const m = machineInfo();
	const lines = [
		`Node ${m.node}, ${m.cpu} x${m.cores}, ${m.date}: median of ${runs} fresh processes each, round-robin`,
		"",
		"| command | median | vs node -e 0 | target |",
		"| --- | ---: | ---: | --- |",
		...rows.map((r, i) => {
			const verdict = i === 0 ? "" : r.ratio <= TARGET_RATIO ? `<= ${TARGET_RATIO}x met` : `<= ${TARGET_RATIO}x MISSED`;
			return `| ${r.label} | ${r.medianMs.toFixed(1)} ms | ${r.ratio.toFixed(2)}x | ${verdict} |`;
		}),
		"",
	];
	return lines.join("\n");
}

const flags = scriptArgs(CLI_START_COMMAND, (f) => f);
if (flags) {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-cli-start-"));
	try {
		const small = join(dir, "small.txt");
		writeFileSync(small, "hello world\n");
		const rows = measure(flags.runs, small);
		process.stdout.write(
			flags.json
				? `${JSON.stringify({ machine: machineInfo(), runs: flags.runs, rows }, null, 2)}\n`
				: table(rows, flags.runs),
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
