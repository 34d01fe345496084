// The lines of a fold's results the agent went on to use, kept verbatim in its placeholder
// (src/briefs lines-in-use.ts): only lines holding a name a later reply quoted, with the line before
// and after, under the file they came from, within their room; nothing when no later reply used one.

import { describe, expect, it } from "vitest";
import { LINES_IN_USE_MAX_CHARS, linesInUse } from "../../src/briefs/index.ts";
import { readBatch, reply, toolUse } from "../helpers/entries.ts";

const FILE = [
	"// header comment",
	"import { thing } from './thing';",
	"export const retryBudgetMs = 4500;",
	"export const otherSetting = true;",
	...Array.from({ length: 40 }, (_, i) => `filler line ${i} with plain words`),
	"export function loadAlphaStore(path: string) {",
	"  return open(path);",
	"}",
].join("\n");
const leaves = readBatch("b", ["src/alpha_store.ts"], () => FILE);

describe("lines in use", () => {
	it("keeps the lines holding a name a later reply quoted, with one line around each, by result line number", () => {
		const text = linesInUse(leaves, [reply("r1", "retryBudgetMs is 4500, so I raise it.")]);
		expect(text).toBe(
			[
				"In use, verbatim (line numbers within each result):",
				"src/alpha_store.ts:",
				"  2: import { thing } from './thing';",
				"  3: export const retryBudgetMs = 4500;",
				"  4: export const otherSetting = true;",
			].join("\n"),
		);
	});

	it("counts a call's arguments as use, and marks the gap between kept lines", () => {
		const later = [
			reply("r1", "retryBudgetMs matters."),
			toolUse("u1", [{ id: "x", name: "edit", args: { target: "loadAlphaStore" } }]),
		];
		const text = linesInUse(leaves, later);
		expect(text).toContain("  3: export const retryBudgetMs = 4500;");
		expect(text).toContain(
			"  …\n  44: filler line 39 with plain words\n  45: export function loadAlphaStore(path: string) {",
		);
		expect(text).not.toContain("filler line 20");
	});

	it("is empty when no later reply used a name of the span's results", () => {
		expect(linesInUse(leaves, [reply("r1", "All good, nothing to change.")])).toBe("");
		expect(linesInUse(leaves, [])).toBe("");
	});

	it("stays within its room, the most used lines first", () => {
		const many = readBatch("m", ["src/many.ts"], () =>
			Array.from({ length: 400 }, (_, i) => `export const someLongIdentifier_${i} = ${i};`).join("\n"),
		);
		const later = [
			reply("r1", Array.from({ length: 400 }, (_, i) => `someLongIdentifier_${i}`).join(" ")),
			reply("r2", "someLongIdentifier_399 again"),
		];
		const text = linesInUse(many, later);
		expect(text.length).toBeLessThanOrEqual(LINES_IN_USE_MAX_CHARS);
		expect(text).toContain("export const someLongIdentifier_399 = 399;");
		expect(linesInUse(many, later, 300).length).toBeLessThanOrEqual(300);
	});
});
