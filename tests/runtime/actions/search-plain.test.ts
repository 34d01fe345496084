// A person's search excerpt (src/runtime/actions/search-plain.ts): the fragment of a source's JSON
// line read as JSON, so the text an entry holds keeps its own characters (braces, commas, quotes,
// escapes decoded) while keys and the entry's structural values are left out, whether the fragment
// starts inside a string, inside a key, or between values.

import { describe, expect, it } from "vitest";
import { plainExcerpt } from "../../../src/runtime/actions/search-plain.ts";

const LINE = JSON.stringify({
	id: "e1",
	message: {
		role: "toolResult",
		toolName: "read",
		content: [{ type: "text", text: 'const x = {"a": 1, "b": [2, 3]};\nreturn x;' }],
	},
});

/** The excerpt of `LINE` around the first `match` after `from`, `lead` characters before and `tail` after. */
function around(match: string, lead: number, tail: number, from = 0): string {
	const at = LINE.indexOf(match, from);
	return plainExcerpt(
		LINE.slice(Math.max(0, at - lead), at),
		match,
		LINE.slice(at + match.length, at + match.length + tail),
	);
}

describe("a person's search excerpt", () => {
	it("keeps the source's characters inside a string value, escapes decoded", () => {
		expect(around('\\"b\\"', 10, 20)).toBe('"a": 1, «"b"»: [2, 3]};⏎return x');
	});

	it("leaves out the keys and the entry's structural values around the text", () => {
		// The fragment starts inside the role's value ("Result" of "toolResult"); the tool's name and the
		// block's type are left out, and so is the escape the fragment cut in two.
		expect(around("const", 60, 10)).toBe('Result «const» x = {"a');
		expect(LINE).toContain('"type":"text"');
	});

	it("reads a fragment that starts inside a key", () => {
		const at = LINE.indexOf('pe":"text"');
		expect(plainExcerpt(LINE.slice(at, at + 20), "const", " x")).toMatch(/^«const» x$|^.*«const» x$/);
		expect(plainExcerpt(LINE.slice(at, at + 20), "const", " x")).not.toContain("text");
	});

	it("a fragment with no quote lies inside one string", () => {
		expect(plainExcerpt("return ", "x", ";")).toBe("return «x»;");
	});
});
