// The listing a fold's brief carries for the folds it holds: every handle, what each covers (the
// start of its brief, entries, time range, files), deterministic, and always inside the brief bound,
// the summary shortening first; a list too long for a brief keeps its first handles and a count.

import { describe, expect, it } from "vitest";
import { BRIEF_MAX_CHARS, briefWithListing, nestedListing, timeRange } from "../../src/briefs/index.ts";

const child = (i: number, brief = `Stage ${i} of 64, handed in. Read src/file-${i}.ts and more.`) => ({
	id: `f${i.toString(16).padStart(16, "0")}`,
	brief,
	entries: 4 + i,
	from: Date.UTC(2026, 10, 30, 10, i),
	to: Date.UTC(2026, 10, 30, 10, i + 3),
	files: [`src/file-${i}.ts`],
});

describe("nested fold listings", () => {
	it("names every held fold with what it covers, the same way every time", () => {
		const listing = nestedListing([child(1), child(2)]);
		expect(listing).toBe(nestedListing([child(1), child(2)]));
		expect(listing).toMatch(/^Holds 2 folds \(peek or search any by id\): f0000000000000001: "Stage 1 of 64/);
		expect(listing).toContain("(5 entries, 10:01-10:04 UTC, read src/file-1.ts)");
		expect(listing).toContain("f0000000000000002: ");
	});

	it("keeps the whole brief within the bound, shortening the summary, never a handle", () => {
		const children = Array.from({ length: 12 }, (_, i) => child(i, "x".repeat(500)));
		const brief = briefWithListing("y".repeat(1_100), nestedListing(children));
		expect(brief.length).toBeLessThanOrEqual(BRIEF_MAX_CHARS);
		for (const c of children) expect(brief).toContain(c.id);
	});

	it("past what a brief holds, lists the first handles and counts the rest", () => {
		const listing = nestedListing(Array.from({ length: 90 }, (_, i) => child(i)));
		expect(listing.length).toBeLessThanOrEqual(BRIEF_MAX_CHARS);
		expect(listing).toMatch(/; \+\d+ more \(status "tree" lists them\)\.$/);
	});

	it("writes a time range within a day, or with dates across days", () => {
		expect(timeRange(Date.UTC(2026, 0, 1, 9, 5), Date.UTC(2026, 0, 1, 9, 40))).toBe("09:05-09:40 UTC");
		expect(timeRange(Date.UTC(2026, 0, 1, 23, 5), Date.UTC(2026, 0, 2, 0, 40))).toBe(
			"2026-01-01 23:05-2026-01-02 00:40 UTC",
		);
		expect(timeRange(undefined, 5)).toBe("");
	});
});
