// The code spans an agent writes in its own words (src/briefs code-spans.ts), and the name index that
// lists the ones a fold's results hold (name-index.ts): a member chain, a header or a scoped package
// the agent keeps writing stays named after the result that holds it folds; a path with an npm scope
// or an "@/" alias and a web address are indexed whole.

import { describe, expect, it } from "vitest";
import { heldNames, nameIndex, quotable, spansOf } from "../../src/briefs/index.ts";
import { readBatch, reply } from "../helpers/entries.ts";

describe("the code spans of the agent's words", () => {
	it("are the backticked names no token class reads whole, counted by use", () => {
		const { message } = reply(
			"r",
			"The patch of `globalThis.fetch` sets `User-Agent`; `globalThis.fetch` again, and `fetch`, `loadConfig`, `x.y`.",
		);
		expect([...spansOf(message)]).toEqual([
			["globalThis.fetch", 2],
			["User-Agent", 1],
		]);
	});

	it("are none in a tool result or a user message", () => {
		const [, result] = readBatch("b", ["src/a.ts"], () => "see `globalThis.fetch` here");
		expect(spansOf((result as { message: never }).message).size).toBe(0);
	});
});

describe("a fold's index", () => {
	const body = [
		"globalThis.fetch = async (input, init) => {",
		'  init.headers["User-Agent"] = userAgent;',
		"  return original(input, init);",
		"};",
		"const client = loadSession(id);",
	].join("\n");
	const leaves = readBatch("b", ["src/cli.ts"], () => body);

	it("lists the spans the agent wrote after the span that its results hold, first", () => {
		const later = [
			reply("r1", "So `globalThis.fetch` is patched, and `User-Agent` is set there; `loadSession()` too."),
		];
		const names = heldNames(leaves, later);
		expect(names.slice(0, 3).sort()).toEqual(["User-Agent", "globalThis.fetch", "loadSession()"]);
		expect(nameIndex(leaves, 600, later)).toMatch(/Names: .*globalThis\.fetch/);
	});

	it("does not list a span its results do not hold, nor one the window shows elsewhere", () => {
		const later = [reply("r1", "Maybe `process.env.TOKEN` is read, and `User-Agent` is set.")];
		const names = heldNames(leaves, later, new Set(["User-Agent"]));
		expect(names).not.toContain("process.env.TOKEN");
		expect(names).not.toContain("User-Agent");
	});
});

describe("the token classes", () => {
	it("read a scoped package, an alias path and a web address whole", () => {
		const tokens = [
			...quotable(
				'import { x } from "@solana/spl-token"; import w from "@/lib/solana-wallet"; see https://llm.example.dev/openai/v1.',
			).keys(),
		];
		expect(tokens).toEqual(
			expect.arrayContaining(["@solana/spl-token", "@/lib/solana-wallet", "https://llm.example.dev/openai/v1"]),
		);
	});

	it("take a closing tag for markup, not a path", () => {
		const tokens = [...quotable("<DialogTitle>Pay</DialogTitle> and src/ui/dialog.tsx").keys()];
		expect(tokens).toEqual(["DialogTitle", "src/ui/dialog.tsx"]);
	});
});
