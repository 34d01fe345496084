import { describe, expect, it } from "vitest";
import { type CommandSpec, parseCommandLine, renderUsage, UsageError, wrap } from "../../src/args/index.ts";

const SPEC = {
	name: "thing",
	operands: "[FILE]...",
	description: "Does a thing.",
	flags: {
		count: { kind: "integer", value: "N", default: 3, min: 1, max: 9, help: "how many" },
		limit: { kind: "integer", value: "N", help: "an optional bound" },
		mode: { kind: "choice", choices: ["fast", "slow"], default: "fast", help: "how" },
		name: { kind: "string", value: "S", help: "a label" },
		json: { kind: "boolean", help: "JSON out" },
		quiet: { kind: "boolean", short: "q", help: "say less" },
	},
	notes: "Exit status: 0 fine.",
} satisfies CommandSpec;

function parse(argv: string[]) {
	const r = parseCommandLine(SPEC, argv);
	if (r.help) throw new Error("unexpected help");
	return r;
}

describe("parseCommandLine", () => {
	it("fills defaults and leaves absent optional flags undefined", () => {
		expect(parse([])).toEqual({
			help: false,
			flags: { count: 3, limit: undefined, mode: "fast", name: undefined, json: false, quiet: false },
			operands: [],
		});
	});

	it("reads --flag value, --flag=value, short aliases, operands and everything after --", () => {
		const r = parse(["a", "--count", "7", "--mode=slow", "-q", "--name", "x y", "-", "--", "--json", "-q"]);
		expect(r.flags).toMatchObject({ count: 7, mode: "slow", quiet: true, name: "x y", json: false });
		expect(r.operands).toEqual(["a", "-", "--json", "-q"]);
	});

	it("answers help for -h or --help anywhere before --", () => {
		expect(parseCommandLine(SPEC, ["a", "--count", "2", "-h"])).toEqual({ help: true });
		expect(parseCommandLine(SPEC, ["--help", "--bogus"])).toEqual({ help: true });
		expect(parseCommandLine(SPEC, ["--", "--help"])).toMatchObject({ help: false, operands: ["--help"] });
	});

	it("refuses bad command lines with one line each, as usage errors (exit status 2)", () => {
		const cases: [string[], string][] = [
			[["--bogus"], "unknown option --bogus; see 'pi-fold thing --help'"],
			[["-x"], "unknown option -x; see 'pi-fold thing --help'"],
			[["--count"], "--count needs a value (--count N)"],
			[["--count", "0"], `--count must be an integer from 1 to 9, got "0"; see 'pi-fold thing --help'`],
			[["--count", "2.5"], `--count must be an integer from 1 to 9, got "2.5"; see 'pi-fold thing --help'`],
			[["--limit", "-1"], `--limit must be a whole number, got "-1"; see 'pi-fold thing --help'`],
			[["--mode", "warp"], `--mode must be fast or slow, got "warp"`],
			[["--json=yes"], "--json takes no value"],
		];
		for (const [argv, message] of cases) {
			let error: unknown;
			try {
				parseCommandLine(SPEC, argv);
			} catch (e) {
				error = e;
			}
			expect(error, argv.join(" ")).toBeInstanceOf(UsageError);
			expect((error as UsageError).message).toBe(message);
			expect((error as UsageError).exitCode).toBe(2);
		}
	});

	it("refuses any operand, after -- too, when the command declares none", () => {
		const bare = { name: "bare", description: "Takes no operands.", flags: {} } satisfies CommandSpec;
		expect(parseCommandLine(bare, [])).toEqual({ help: false, flags: {}, operands: [] });
		expect(() => parseCommandLine(bare, ["extra"])).toThrow(new UsageError('unexpected argument "extra"'));
		expect(() => parseCommandLine(bare, ["--", "-x"])).toThrow(new UsageError('unexpected argument "-x"'));
	});
});

describe("renderUsage", () => {
	it("lists every flag in the synopsis and the options, with the defaults the parser applies", () => {
		expect(renderUsage(SPEC)).toBe(
			[
				"usage: pi-fold thing [--count N] [--limit N] [--mode fast|slow] [--name S] [--json] [--quiet]",
				`${" ".repeat(21)}[FILE]...`,
				"",
				"Does a thing.",
				"",
				"options:",
				"  -h, --help            print this help and exit",
				"      --count N         how many (default 3)",
				"      --limit N         an optional bound",
				"      --mode fast|slow  how (default fast)",
				"      --name S          a label",
				"      --json            JSON out",
				"  -q, --quiet           say less",
				"",
				"Exit status: 0 fine.",
				"",
			].join("\n"),
		);
	});

	it("breaks a default list too long for one line only after its commas, with no space inside the list", () => {
		const arms = Array.from({ length: 8 }, (_, i) => `some-long-arm-name-${i}`).join(",");
		const spec = {
			name: "demo",
			description: "Runs.",
			flags: { arms: { kind: "string", value: "a,b", default: arms, help: "arms to run" } },
		} satisfies CommandSpec;
		const lines = renderUsage(spec).split("\n");
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
		const at = lines.findIndex((l) => l.startsWith("      --arms a,b"));
		const shown = lines
			.slice(at, at + 3)
			.map((l) => l.trim())
			.join("");
		expect(shown).toContain(`(default ${arms})`);
		expect(lines[at]?.endsWith(",")).toBe(true);
	});

	it("wraps long lines at 100 columns with a hanging indent", () => {
		const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
		const lines = wrap(words, 100, "    ", "head: ");
		expect(lines.length).toBeGreaterThan(1);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
		expect(lines.slice(1).every((l) => l.startsWith("    word"))).toBe(true);
		expect(lines.join(" ").replace(/\s+/g, " ")).toBe(`head: ${words.join(" ")}`);
	});
});
