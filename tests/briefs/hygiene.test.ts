// Text hygiene of briefs (issue 11, item 5): what the agent, the human, a model or a supplied
// summarizer writes is refused (or falls back) when it holds a control character other than newline
// and tab, a bidi control or a lone surrogate, naming the character and its position; what is
// displayed has them escaped visibly; and a brief's length is counted one way (Unicode code points)
// by the tool schema, the validator, the bound and the record schema.

import { describe, expect, it } from "vitest";
import {
	BRIEF_MAX_CHARS,
	boundBrief,
	briefProblem,
	deterministicBrief,
	type SummaryCall,
	summarizeSpan,
} from "../../src/briefs/index.ts";
import { codePointLength, escapeUnsafe, findUnsafeCharacter } from "../../src/common/index.ts";
import { parseToolArgs, toolParameters } from "../../src/runtime/index.ts";
import { foldRecordSchema } from "../../src/state/index.ts";
import { readBatch, reply, user } from "../helpers/entries.ts";

const ACTIONS = ["fold", "rebrief"] as const;
const GOOD = "The parser lives in src/a.ts; b.ts only re-exports it.";

/** Every kind of unsafe character, with the name the refusal must carry. */
const UNSAFE: [string, string, RegExp][] = [
	["NUL", "\u0000", /U\+0000 \(NUL, a control character\)/],
	["BEL", "\u0007", /U\+0007 \(BEL, a control character\)/],
	["CR", "\r", /U\+000D \(CR, a control character\)/],
	["ESC", "\u001b", /U\+001B \(ESC, a control character\)/],
	["DEL", "\u007f", /U\+007F \(DEL, a control character\)/],
	["8-bit CSI", "\u009b", /U\+009B \(a C1 control character\)/],
	["lone high surrogate", "\ud83d", /U\+D83D \(a lone surrogate\)/],
	["lone low surrogate", "\ude00", /U\+DE00 \(a lone surrogate\)/],
	["RLO", "\u202e", /U\+202E \(RIGHT-TO-LEFT OVERRIDE, a bidi control\)/],
	["LRI", "\u2066", /U\+2066 \(LEFT-TO-RIGHT ISOLATE, a bidi control\)/],
	["RLM", "\u200f", /U\+200F \(RIGHT-TO-LEFT MARK, a bidi control\)/],
];

describe("briefs someone writes", () => {
	for (const [label, char, name] of UNSAFE) {
		it(`refuses ${label}, naming the character and its position (validator and tool schema)`, () => {
			const brief = `😀 ${GOOD.slice(0, 10)}${char}${GOOD.slice(10)}`;
			// "😀" is one character (code point), the space another, then 10: the unsafe one is the 13th.
			expect(briefProblem(brief)).toMatch(name);
			expect(briefProblem(brief)).toMatch(/at character 13;/);
			const parsed = parseToolArgs({ action: "rebrief", id: "f0123456789abcdef", brief }, ACTIONS);
			expect(parsed.ok).toBe(false);
			if (!parsed.ok) expect(parsed.error).toMatch(name);
			if (!parsed.ok) expect(parsed.error).toMatch(/at character 13;/);
		});
	}

	it("accepts newlines, tabs, emoji, joiners and right-to-left text", () => {
		const brief = `${GOOD}\n\tשלום עולם 👨‍👩‍👧 e\u0301`;
		expect(briefProblem(brief)).toBeNull();
		expect(parseToolArgs({ action: "rebrief", id: "f0123456789abcdef", brief }, ACTIONS).ok).toBe(true);
	});

	it("counts a brief's length in code points in the schema, the validator, the bound and the record schema", () => {
		const emoji = "😀".repeat(700);
		expect(emoji.length).toBe(1_400);
		const fold = { action: "fold", from: "a", to: "b", brief: emoji };
		expect(parseToolArgs(fold, ACTIONS).ok).toBe(true);
		expect(briefProblem(emoji)).toBeNull();
		expect(boundBrief(emoji)).toBe(emoji);
		const record = {
			id: "f0123456789abcdef",
			kind: "span",
			origin: "agent",
			leafIds: ["a"],
			sourceSha256: "0".repeat(64),
			sourceBytes: 1,
			brief: emoji,
			briefSource: "agent",
		};
		expect(foldRecordSchema.safeParse(record).success).toBe(true);
		const over = "😀".repeat(BRIEF_MAX_CHARS + 1);
		expect(parseToolArgs({ ...fold, brief: over }, ACTIONS).ok).toBe(false);
		expect(briefProblem(over)).toMatch(/1,201 characters \(Unicode code points\); the limit is 1,200/);
		expect(foldRecordSchema.safeParse({ ...record, brief: over }).success).toBe(false);
		expect(codePointLength(boundBrief(over))).toBe(BRIEF_MAX_CHARS);
	});

	it("says in the tool's parameter description how a brief is counted and what it may hold", () => {
		const brief = (toolParameters(["fold"]) as { properties: { brief: { description: string; maxLength: number } } })
			.properties.brief;
		expect(brief.maxLength).toBe(BRIEF_MAX_CHARS);
		expect(brief.description).toMatch(/counted as Unicode code points/);
		expect(brief.description).toMatch(/no other control characters, bidi controls or lone surrogates/);
	});
});

describe("briefs a model or a supplied summarizer writes", () => {
	const span = [user("u", "find the parser"), ...readBatch("b", ["src/parser.ts"]), reply("a", "Parser is there")];
	const answer =
		(text: string): SummaryCall =>
		async () => ({ text, provider: "faux", model: "faux-1", toolCalls: 0 });

	it("falls back to the deterministic brief when the model's brief holds an unsafe character, naming it", async () => {
		for (const [label, char, name] of UNSAFE) {
			if (label === "CR") continue; // a line break: normalized, below
			const result = await summarizeSpan(span, answer(`${GOOD}${char} and more`));
			expect(result.brief).toBe(deterministicBrief(span));
			expect(result.provenance.source).toBe("deterministic");
			expect(result.provenance.fallbackReason).toMatch(name);
		}
	});

	it("normalizes the model's line breaks instead of refusing them", async () => {
		const result = await summarizeSpan(span, answer(`${GOOD}\r\nSecond line.\rThird.`));
		expect(result.provenance.source).toBe("model");
		expect(result.brief).toBe(`${GOOD}\nSecond line.\nThird.`);
	});
});

describe("the deterministic brief", () => {
	it("escapes unsafe characters it quotes from the transcript, so it is always a valid brief", () => {
		const brief = deterministicBrief([
			user("u", "set the title \u001b]0;pwned\u0007 please"),
			...readBatch("b", ["evil\u202e.txt"]),
			reply("a", "done \u009b2J"),
		]);
		expect(findUnsafeCharacter(brief)).toBeNull();
		expect(brief).toContain("\\x1B]0;pwned\\x07");
		expect(brief).toContain("evil\\u202E.txt");
		expect(brief).toContain("\\x9B2J");
	});
});

describe("text shown to a person", () => {
	it("escapes every unsafe character visibly and keeps newlines, tabs and paired surrogates", () => {
		expect(escapeUnsafe("a\u001b[2Jb\r\n\tc\u202e😀\ud83d")).toBe("a\\x1B[2Jb\\x0D\n\tc\\u202E😀\\uD83D");
		for (const [, char] of UNSAFE) expect(findUnsafeCharacter(escapeUnsafe(`x${char}y`))).toBeNull();
	});
});
