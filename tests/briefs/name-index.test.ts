// The name index a fold's placeholder carries (src/briefs name-index.ts): its room grows with the
// fold, it lists every distinctive name of the fold's results (those the agent went on to use first),
// and leaves out the names the window shows elsewhere; and a fold three levels up still names a term
// only its innermost child's result held, in the placeholder the provider is sent.

import { describe, expect, it } from "vitest";
import {
	expandPathGroups,
	heldNames,
	NAME_INDEX_MAX_CHARS,
	nameIndex,
	nameIndexRoom,
	nameIndexSizeBound,
} from "../../src/briefs/index.ts";
import type { ReplayMessage } from "../../src/simulate/index.ts";
import { driveFolds, FILLER, foldCommand, readCall, readResult, say, userSays } from "../helpers/driven-folds.ts";
import { readBatch, reply } from "../helpers/entries.ts";

describe("the name index's room", () => {
	it("grows with the fold's source, between a floor and a cap", () => {
		expect(nameIndexRoom(0, 1_000_000)).toBe(240);
		expect(nameIndexRoom(10_000, 1_000_000)).toBe(600);
		expect(nameIndexRoom(100_000, 1_000_000)).toBe(6_000);
		expect(nameIndexRoom(10_000_000, 1_000_000)).toBe(NAME_INDEX_MAX_CHARS);
		expect(nameIndexRoom(100_000, 200_000)).toBe(3_000);
	});

	it("stays small on a small budget: a window holds many placeholders", () => {
		expect(nameIndexRoom(10_000_000, 16_000)).toBe(480);
		expect(nameIndexRoom(10_000_000, 44_000)).toBe(1_320);
		// From a 60,000-token window's 1,320 characters the bound stays flat, then grows at half the rate.
		expect(nameIndexRoom(10_000_000, 60_000)).toBe(1_320);
		expect(nameIndexRoom(10_000_000, 104_000)).toBe(1_560);
		expect(nameIndexRoom(10_000_000, 184_000)).toBe(2_760);
		expect(nameIndexRoom(10_000_000, 800_000)).toBe(NAME_INDEX_MAX_CHARS);
		expect(nameIndexRoom(10_000_000, 1_000)).toBe(240);
	});
});

describe("the names a fold holds", () => {
	const leaves = readBatch("b", ["src/alpha_store.ts"], () =>
		["export function loadAlphaStore() {}", "const retryBudgetMs = 4500;", "let unusedHelperName = 1;"].join("\n"),
	);

	it("lists every distinctive name of its results, the ones used after the span first", () => {
		const later = [reply("r", "I will call unusedHelperName next.")];
		const names = heldNames(leaves, later);
		expect(names[0]).toBe("unusedHelperName");
		expect(names).toEqual(expect.arrayContaining(["src/alpha_store.ts", "loadAlphaStore", "retryBudgetMs", "4500"]));
	});

	it("takes the symbols a read defines at the top of a file, not a function's locals", () => {
		const body = [
			"export function load() {",
			"  const text = read();",
			"  let rows = 1;",
			"}",
			"const keys = [];",
		].join("\n");
		const names = heldNames(readBatch("d", ["src/defs.ts"], () => body));
		expect(names).toEqual(expect.arrayContaining(["load", "keys"]));
		expect(names).not.toContain("text");
		expect(names).not.toContain("rows");
	});

	it("leaves out the names the window shows elsewhere", () => {
		const names = heldNames(leaves, [], new Set(["retryBudgetMs", "src/alpha_store.ts"]));
		expect(names).toContain("loadAlphaStore");
		expect(names).not.toContain("retryBudgetMs");
		expect(names).not.toContain("src/alpha_store.ts");
	});

	it("fits its room and counts what did not fit", () => {
		const many = readBatch("m", ["src/many.ts"], () =>
			Array.from({ length: 200 }, (_, i) => `const someLongIdentifier_${i} = ${i};`).join("\n"),
		);
		const text = nameIndex(many, 400);
		expect(text.length).toBeLessThanOrEqual(400);
		expect(text).toMatch(/^Files: src\/many\.ts\.\nNames: someLongIdentifier_\d+, .* \(\+\d+ more\)\.$/);
	});
});

describe("the files a fold read", () => {
	const paths = Array.from({ length: 60 }, (_, i) => `packages/widget-kit/dist/components/panel_${i}.js`);
	const leaves = paths.flatMap((path, i) => readBatch(`r${i}`, [path], () => `const panelValue_${i} = ${i};`));

	it("are each named, written once per directory when they would not fit the room in full", () => {
		const text = nameIndex(leaves, 600);
		const files = text.split("\n")[0] as string;
		expect(files).toMatch(
			/^Files: packages\/widget-kit\/dist\/components\/\{panel_0\.js,panel_1\.js,.*,panel_59\.js\}\.$/,
		);
		expect(expandPathGroups(files).split("\n").slice(1)).toEqual(paths);
		// They took more than the room (at most twice it): no other name fits.
		expect(files.length).toBeGreaterThan(600);
		expect(text).toBe(files);
		expect(text.length).toBeLessThanOrEqual(600 * 2);
		// In a larger room the other names get what the files leave.
		const roomy = nameIndex(leaves, 1_500);
		expect(roomy.split("\n")[1]).toMatch(/^Names: panelValue_\d+, /);
		expect(roomy.length).toBeLessThanOrEqual(1_500);
	});

	it("are bounded by the size bound, as they are written", () => {
		for (const room of [240, 600, 2_000]) {
			const bound = nameIndexSizeBound(leaves, room);
			expect(bound).toBeGreaterThanOrEqual(nameIndex(leaves, room).length);
			// Grouped, the sixty paths take far less than in full (about 3,000 characters).
			expect(bound).toBeLessThanOrEqual(Math.max(room, 800));
		}
	});

	it("leave out what the fold's own brief already states, whole", () => {
		const two = leaves.slice(0, 4);
		const brief = `read: ${paths[0]} (1 line), ${paths[1]}x (1 line); panelValue_0 is 0.`;
		const text = nameIndex(two, 600, [], new Set(), brief);
		expect(text).toBe(`Files: ${paths[1]}.\nNames: panelValue_1.`);
	});

	it("are named in full when they fit", () => {
		const text = nameIndex(leaves.slice(0, 6), 600);
		expect(text.split("\n")[0]).toBe(`Files: ${paths.slice(0, 3).join(", ")}.`);
	});
});

describe("a fold three levels up", () => {
	it("names a term only its innermost child's result held, in the placeholder the provider is sent", async () => {
		const messages: ReplayMessage[] = [
			{ message: userSays("Read the three files.") },
			{ message: readCall("c1", "src/one.ts") },
			{ message: readResult("c1", `const innermostOnlyTerm_42 = 1;\n${FILLER}`) },
			{ message: readCall("c2", "src/two.ts") },
			{ message: readResult("c2", `const middleTerm_7 = 2;\n${FILLER}`) },
			{ message: readCall("c3", "src/three.ts") },
			{ message: readResult("c3", `const outerTerm_9 = 3;\n${FILLER}`) },
			...Array.from({ length: 7 }, (_, i) => ({ message: say(`Step ${i + 1}.`) })),
			{ message: say("Read them."), before: [foldCommand("c1", "c1")] },
			{ message: say("Still here."), before: [foldCommand("c1", "c2")] },
			{ message: say("Done."), before: [foldCommand("c1", "c3")] },
			{ message: say("And again.") },
		];
		const { human, sent, folds } = await driveFolds(messages);
		expect(human.map((h) => h.level)).toEqual(["info", "info", "info"]);
		expect(folds.map((f) => f.leafIds.length).sort((a, b) => a - b)).toEqual([2, 4, 6]);
		const outer = folds.find((f) => f.leafIds.length === 6);
		expect(outer?.names).toContain("innermostOnlyTerm_42");
		// The path of the innermost read: its brief names it, so its index does not repeat it.
		expect(`${outer?.brief}\n${outer?.names}`).toContain("src/one.ts");
		expect(outer?.names).not.toContain("src/one.ts");
		const last = sent.at(-1) ?? "";
		expect(last).not.toContain("const innermostOnlyTerm_42");
		expect(last).toContain("innermostOnlyTerm_42");
	});
});

describe("the name index's size bound", () => {
	it("counts every distinct name of the results and the called paths, within the room", () => {
		const leaves = readBatch(
			"s",
			["src/alpha_store.ts"],
			() => "const retryBudgetMs = 4500;\nconst retryBudgetMs2 = 1;",
		);
		const text = nameIndex(leaves, 1_000);
		expect(nameIndexSizeBound(leaves, 1_000)).toBeGreaterThanOrEqual(text.length);
		// The files part stops at twice the room; the names part at what the files leave of it.
		expect(nameIndexSizeBound(leaves, 20)).toBeGreaterThanOrEqual(nameIndex(leaves, 20).length);
		expect(nameIndexSizeBound(leaves, 20)).toBeLessThanOrEqual(2 * 20 + 1 + 20);
		// A room of 10: the files take their own (twice it), nothing is left for the names.
		expect(nameIndexSizeBound(leaves, 10)).toBe(20);
		expect(nameIndexSizeBound([reply("r", "no results here")], 1_000)).toBe(0);
	});
});
