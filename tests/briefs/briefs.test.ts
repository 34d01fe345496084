import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	BRIEF_MAX_CHARS,
	boundBrief,
	briefProblem,
	deterministicBrief,
	resultLineCount,
} from "../../src/briefs/index.ts";
import { codePointLength } from "../../src/common/index.ts";
import { readBatch, reply, user } from "../helpers/entries.ts";

describe("deterministic briefs", () => {
	it("names the tools and their targets, the results and how the span ended", () => {
		const brief = deterministicBrief([
			user("u", "look at the parser"),
			...readBatch("b", ["src/a.ts", "src/b.ts"]),
			reply("a", "Both files define Parser."),
		]);
		expect(brief).toContain('Asked: "look at the parser"');
		expect(brief).toContain("read: src/a.ts (1 line), src/b.ts (1 line)");
		expect(brief).toMatch(/2 tool results, [\d,]+ chars/);
		expect(brief).toContain('Ended: "Both files define Parser."');
	});

	it("gives each file a call read the line count of its result, and none to a failed read", () => {
		const body = (p: string) => (p === "src/long.ts" ? `${"line\n".repeat(1_204)}` : "one\ntwo\nthree");
		const batch = readBatch("b", ["src/long.ts", "src/short.ts", "src/missing.ts"], body);
		const failed = batch.map((e) =>
			e.message.role === "toolResult" && e.message.toolCallId === "b-call2"
				? { ...e, message: { ...e.message, isError: true, content: "ENOENT: no such file" } }
				: e,
		);
		const brief = deterministicBrief(failed);
		expect(brief).toContain("read: src/long.ts (1,204 lines), src/short.ts (3 lines), src/missing.ts. 3 tool results");
		// A partial read (Pi's continuation notice) is named by the lines it showed, not as the file's length.
		const page = readBatch(
			"p",
			["src/big.ts"],
			() => "a\nb\nc\n\n[Showing lines 1-3 of 900. Use offset=4 to continue.]",
		);
		expect(deterministicBrief(page)).toContain("read: src/big.ts (lines 1-3)");
		expect(resultLineCount("a\nb\n")).toBe(2);
		expect(resultLineCount("a\nb")).toBe(2);
		expect(resultLineCount("")).toBe(1);
	});

	it("is the same for the same span and never longer than the bound", () => {
		const paths = Array.from({ length: 400 }, (_, i) => `dir/very/long/path/number/${i}/file-${"x".repeat(40)}.ts`);
		const span = readBatch("b", paths);
		expect(deterministicBrief(span)).toBe(deterministicBrief(span));
		expect(deterministicBrief(span).length).toBeLessThanOrEqual(BRIEF_MAX_CHARS);
		expect(deterministicBrief(span)).toContain("and 388 more");
	});

	it("never splits a surrogate pair when bounding", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme", minLength: 1100, maxLength: 1500 }), (text) => {
				const bounded = boundBrief(text);
				expect(codePointLength(bounded)).toBeLessThanOrEqual(BRIEF_MAX_CHARS);
				expect(bounded).toBe(Buffer.from(bounded, "utf8").toString("utf8"));
			}),
			{ numRuns: 50 },
		);
	});
});

describe("agent-written briefs", () => {
	it("accepts a brief that says what the span found", () => {
		expect(briefProblem("Parser lives in src/a.ts; b.ts only re-exports it.")).toBeNull();
	});

	it("refuses empty, oversized and structural briefs with the reason", () => {
		expect(briefProblem("   ")).toMatch(/empty/);
		expect(briefProblem("x".repeat(BRIEF_MAX_CHARS + 1))).toMatch(
			/1,201 characters \(Unicode code points\); the limit is 1,200/,
		);
		expect(briefProblem("read")).toMatch(/only names structure/);
		expect(briefProblem("read, grep, find")).toMatch(/only names structure/);
		expect(briefProblem("f0123456789abcdef")).toMatch(/only names structure/);
	});

	it("refuses a brief under twelve characters (code points) and accepts one of twelve", () => {
		expect(briefProblem("it is fixed")).toMatch(/only names structure/);
		expect(briefProblem("it is fixed!")).toBeNull();
		expect(briefProblem("fixed: 🎉🎉🎉🎉🎉")).toBeNull(); // 12 code points, 17 UTF-16 units
		expect(briefProblem("fixed: 🎉🎉🎉🎉")).toMatch(/only names structure/);
	});
});
