// The code spans an agent writes in its own words (src/briefs code-spans.ts), and the name index that
// lists the ones a fold's results hold (name-index.ts): a member chain, a header or a scoped package
// the agent keeps writing stays named after the result that holds it folds; a path with an npm scope
// or an "@/" alias and a web address are indexed whole.

import { describe, expect, it } from "vitest";
import { heldNames, nameIndex, quotable, spansOf } from "../../src/briefs/index.ts";
import type { ReplayMessage } from "../../src/simulate/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { driveFolds, FILLER, foldCommand, readCall, readResult, say, userSays } from "../helpers/driven-folds.ts";
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
		expect(result?.message.role).toBe("toolResult");
		expect(spansOf((result as TranscriptEntry).message).size).toBe(0);
		const user = { role: "user", content: "see `globalThis.fetch` here", timestamp: 1 } as TranscriptEntry["message"];
		expect(spansOf(user).size).toBe(0);
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
		// The address's path is not a second name.
		expect(tokens).not.toContain("/llm.example.dev/openai/v1");
	});

	it("take a closing tag for markup, not a path", () => {
		const tokens = [...quotable("<DialogTitle>Pay</DialogTitle> and src/ui/dialog.tsx").keys()];
		expect(tokens).toEqual(["DialogTitle", "src/ui/dialog.tsx"]);
	});
});

describe("a code span another fold's placeholder lists", () => {
	it("is not listed again by a later fold whose results hold it too", async () => {
		const messages: ReplayMessage[] = [
			{ message: userSays("Read the files.") },
			{ message: readCall("c1", "src/one.ts") },
			{ message: readResult("c1", `globalThis.fetch = wrap(original);\n${FILLER}`) },
			{ message: readCall("c2", "src/two.ts", "So `globalThis.fetch` is wrapped in one.ts.") },
			{ message: readResult("c2", FILLER) },
			// Six more reads: the newest units stay raw (the fresh tail), and none of them names the span.
			...["d1", "d2", "d3", "d4", "d5", "d6"].flatMap((id) => [
				{ message: readCall(id, `src/${id}.ts`) },
				{ message: readResult(id, FILLER) },
			]),
			// The first fold (both reads and the words quoting the span) lands before the next reply.
			{
				message: readCall("c3", "src/three.ts", "Three reads `globalThis.fetch` too."),
				before: [foldCommand("c1", "c2")],
			},
			{ message: readResult("c3", `const f = globalThis.fetch;\n${FILLER}`) },
			...Array.from({ length: 6 }, (_, i) => ({ message: say(`Step ${i + 1}.`) })),
			{ message: say("Folding the third read."), before: [foldCommand("c3", "c3")] },
			{ message: say("Done.") },
		];
		const { human, folds } = await driveFolds(messages);
		expect(human.map((h) => h.level)).toEqual(["info", "info"]);
		expect(folds.map((f) => f.leafIds.length)).toEqual([4, 2]);
		const [first, second] = folds;
		expect(first?.names).toContain("globalThis.fetch");
		// The third read's words and result hold the span; the first fold's placeholder already lists it.
		expect(second?.names ?? "").not.toContain("globalThis.fetch");
	});
});
