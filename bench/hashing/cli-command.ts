// The `pi-fold bench --cli` front end: flags, progress (percent done) on stderr, the tables or JSON
// on stdout, --out FILE for the JSON. Returns the exit code; bad flags throw UsageError.

import { writeFileSync } from "node:fs";
import { intFlag, parseFlags, UsageError } from "../../src/cli/flags.ts";
import { runCliBench } from "./cli-bench.ts";
import { renderCliTable } from "./cli-report.ts";

export const CLI_BENCH_USAGE = `usage: pi-fold bench --cli [--size MiB] [--file-size MiB] [--repeats N] [--cli-bin FILE] [--no-masked] [--json] [--out FILE]
  runs pi-fold verify and hash as fresh processes, interleaved with node:crypto scripts, sha256sum and
  (when present) openssl dgst and b3sum; twice: as is, and with SHA-NI masked for OpenSSL
  --size MiB       mixed store size (default 512)
  --file-size MiB  single file size (default 1024)
  --repeats N      timed runs per contender, median reported (default 5)
  --cli-bin FILE   the pi-fold CLI to run (default build/cli.js)
  --no-masked      skip the pass with SHA-NI masked
  --json           print JSON instead of the tables; --out FILE also writes the JSON
`;

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

export async function runCliBenchCommand(args: readonly string[]): Promise<number> {
	if (args.includes("--help") || args.includes("-h")) {
		process.stdout.write(CLI_BENCH_USAGE);
		return 0;
	}
	const p = parseFlags("bench --cli", args, {
		size: "string",
		"file-size": "string",
		repeats: "string",
		"cli-bin": "string",
		"no-masked": "boolean",
		json: "boolean",
		out: "string",
	});
	if (p.positional.length > 0)
		throw new UsageError(`bench --cli: unexpected argument ${JSON.stringify(p.positional[0])}`);
	const cliBin = p.flags.get("cli-bin");
	const result = await runCliBench({
		storeMiB: intFlag("bench --cli", p, "size", 512, 1, 65536),
		fileMiB: intFlag("bench --cli", p, "file-size", 1024, 1, 65536),
		repeats: intFlag("bench --cli", p, "repeats", 5, 1, 100),
		masked: !p.flags.has("no-masked"),
		...(typeof cliBin === "string" ? { cliBin } : {}),
		progress: progressLine(process.stderr),
	});
	const json = `${JSON.stringify(result, null, 2)}\n`;
	const out = p.flags.get("out");
	if (typeof out === "string") writeFileSync(out, json);
	process.stdout.write(p.flags.has("json") ? json : renderCliTable(result));
	return 0;
}
