import { describe, expect, it } from "vitest";
import { DEMO_COMMAND, parseDemoArgs } from "../../bench/demo.ts";
import { DEFAULT_ARMS, DEFAULT_STAGES, parseDemoOptions } from "../../bench/session/options.ts";
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
		});
	});

	it("fills the benchmark's own defaults, the ones its usage prints", () => {
		const options = parseDemoArgs([]);
		expect(options).not.toBe("help");
		expect(parseDemoOptions(options as Exclude<typeof options, "help">)).toEqual(parseDemoOptions({}));
		const usage = renderUsage(DEMO_COMMAND);
		expect(usage).toContain(`(default ${DEFAULT_STAGES})`);
		expect(usage).toContain(`(default ${DEFAULT_ARMS.join(",")})`);
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
