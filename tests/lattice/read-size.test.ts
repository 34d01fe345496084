// How big the file a read's result shows is, as search results state it: the whole file's line
// count, or the range a partial read showed with the file's length when Pi's continuation notice
// (or a read that went on to the end) states it. Nothing for a result that holds no file text.

import { describe, expect, it } from "vitest";
import { readSize } from "../../src/lattice/index.ts";

describe("readSize", () => {
	it("counts a whole read's lines; a trailing newline starts no line", () => {
		expect(readSize({ path: "a.ts" }, "one\ntwo\nthree\n")).toBe("3 lines");
		expect(readSize({ path: "a.ts" }, "one")).toBe("1 line");
		expect(readSize({ file_path: "a.ts" }, Array.from({ length: 1200 }, () => "x").join("\n"))).toBe("1,200 lines");
	});

	it("gives the range and the file's length from Pi's continuation notices", () => {
		const shown = Array.from({ length: 2000 }, (_, i) => `l${i + 1}`).join("\n");
		expect(
			readSize({ path: "big.ts" }, `${shown}\n\n[Showing lines 1-2000 of 3500. Use offset=2001 to continue.]`),
		).toBe("lines 1-2,000 of 3,500");
		expect(
			readSize(
				{ path: "big.ts", offset: 11, limit: 5 },
				"a\nb\nc\nd\ne\n\n[20 more lines in file. Use offset=16 to continue.]",
			),
		).toBe("lines 11-15 of 35");
	});

	it("a ranged read with no notice went on to the end unless a limit stopped it", () => {
		expect(readSize({ path: "a.ts", offset: 4 }, "d\ne")).toBe("lines 4-5 of 5");
		expect(readSize({ path: "a.ts", offset: 1 }, "a\nb")).toBe("2 lines");
		expect(readSize({ path: "a.ts", offset: 4, limit: 2 }, "d\ne")).toBe("lines 4-5");
	});

	it("says nothing for a result with no file text or a call with no path", () => {
		expect(readSize({ path: "p.png" }, "Read image file [image/png]")).toBeUndefined();
		expect(readSize({}, "text")).toBeUndefined();
	});
});
