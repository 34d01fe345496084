// The excerpt brief of an oversized result (src/briefs/excerpt.ts): what it is and how large, its
// start and its end, within the brief bound, every unsafe character escaped.

import { describe, expect, it } from "vitest";
import { BRIEF_MAX_CHARS, briefProblem, excerptBrief } from "../../src/briefs/index.ts";

describe("the excerpt brief", () => {
	it("names the result and its size, then shows its start and its end, bounded", () => {
		const text = `FIRST LINE\n${"middle ".repeat(50_000)}\nLAST LINE`;
		const brief = excerptBrief("read", "src/big.ts", text, 87_500);
		expect(brief.length).toBeLessThanOrEqual(BRIEF_MAX_CHARS);
		expect(brief).toMatch(
			/^The result of read of src\/big\.ts \(350,021 characters, ~87,500 tokens\) is too large for the window/,
		);
		expect(brief).toContain("FIRST LINE");
		expect(brief.endsWith("LAST LINE")).toBe(true);
		expect(brief).toMatch(/\[… [\d,]+ characters …\]/);
		expect(briefProblem(brief)).toBeNull();
	});

	it("escapes control characters a tool printed, so the brief stays plain text", () => {
		const brief = excerptBrief("bash", undefined, `\u001b[31mred\u001b[0m ${"x".repeat(5_000)}\u202e`, 1_300);
		expect(briefProblem(brief)).toBeNull();
		expect(brief).not.toContain("\u001b");
	});
});
