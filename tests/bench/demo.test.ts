// The `pi-fold demo` flags: every option parsed, the defaults the usage and docs/session-benchmark.md
// print, and refusals by name.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_COMMAND, parseDemoArgs } from "../../bench/demo.ts";
import { DEFAULT_ARMS, DEFAULT_STAGES, parseDemoOptions } from "../../bench/session/demo-options.ts";
import { renderUsage } from "../../src/args/index.ts";

describe("pi-fold demo flags", () => {
	it("parses every option", () => {
		expect(
			parseDemoArgs([
				"--stages",
				"16",
				"--arms",
				"native, unmanaged",
				"--window=90000",
				"--seed",
				"s",
				"--stage-chars",
				"4000",
				"--out",
				"d",
				"--json",
				"--quiet",
				"--no-reuse",
				"--shape",
				"recall-every-four",
			]),
		).toEqual({
			stages: 16,
			arms: ["native", "unmanaged"],
			window: 90_000,
			seed: "s",
			stageChars: 4000,
			out: "d",
			json: true,
			progress: false,
			reuse: false,
			shape: "recall-every-four",
		});
	});

	it("fills the benchmark's own defaults, the ones its usage prints", () => {
		const options = parseDemoArgs([]);
		expect(options).not.toBe("help");
		expect(parseDemoOptions(options as Exclude<typeof options, "help">)).toEqual(parseDemoOptions({}));
		// A long default list breaks after a comma onto an indented line: read it joined.
		const usage = renderUsage(DEMO_COMMAND).replace(/,\n +/g, ",");
		expect(usage).toContain(`(default ${DEFAULT_STAGES})`);
		expect(usage).toContain(`(default ${DEFAULT_ARMS.join(",")})`);
	});

	it("are the defaults docs/session-benchmark.md lists in its flag table", () => {
		const doc = readFileSync(join(import.meta.dirname, "../../docs/session-benchmark.md"), "utf8");
		const row = (flag: string) => doc.split("\n").find((line) => line.startsWith(`| \`${flag}`)) ?? "";
		expect(row("--arms")).toContain(`| \`${DEFAULT_ARMS.join(",")}\` |`);
		expect(row("--stages")).toMatch(new RegExp(`\\| ${DEFAULT_STAGES} +\\|`));
	});

	it("answers --help and -h", () => {
		expect(parseDemoArgs(["--stages", "3", "-h"])).toBe("help");
		expect(parseDemoArgs(["--help"])).toBe("help");
	});

	it("refuses what it does not understand, by name", () => {
		expect(() => parseDemoArgs(["--stages", "many"])).toThrow(/--stages must be a whole number, got "many"/);
		expect(() => parseDemoArgs(["--frobnicate"])).toThrow(/unknown option --frobnicate/);
		expect(() => parseDemoArgs(["--arms", ","])).toThrow(/--arms needs a comma-separated list/);
		expect(() => parseDemoArgs(["extra"])).toThrow(/unexpected argument "extra"/);
	});
});
