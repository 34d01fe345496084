// A brief quotes the user messages its fold holds verbatim: the opening characters as written (line
// breaks kept, unsafe characters escaped), the size, within the quotes' share, the rest counted; and
// the summary, not the quotes or the listing, is what shortens to fit the brief's bound.

import { describe, expect, it } from "vitest";
import {
	BRIEF_MAX_CHARS,
	briefWithQuotes,
	USER_QUOTE_CHARS,
	USER_QUOTES_MAX_CHARS,
	userQuotes,
} from "../../src/briefs/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";

const user = (id: string, content: string): TranscriptEntry => ({ id, message: { role: "user", content } });
const reply = (id: string, text: string): TranscriptEntry => ({
	id,
	message: { role: "assistant", content: [{ type: "text", text }] },
});

describe("the user's words in a brief", () => {
	it("quotes a user message verbatim with its size, line breaks kept", () => {
		const ask = "Please rename parseConfigFile to loadConfig\nand keep the old name as an alias.";
		const quotes = userQuotes([user("u1", ask), reply("a1", "done")]);
		expect(quotes).toBe(`User (${ask.length} chars): "${ask}"`);
	});

	it("cuts a long message at its opening characters and says how long it was", () => {
		const ask = "x".repeat(2_000);
		const quotes = userQuotes([user("u1", ask)]);
		expect(quotes).toBe(`User (2,000 chars): "${"x".repeat(USER_QUOTE_CHARS)}…"`);
	});

	it("shares the quotes' room among many messages and counts the rest", () => {
		const leaves = Array.from({ length: 12 }, (_, i) => user(`u${i}`, `ask number ${i} `.repeat(40)));
		const quotes = userQuotes(leaves);
		expect(quotes.length).toBeLessThanOrEqual(USER_QUOTES_MAX_CHARS + 60);
		expect(quotes).toContain('User (520 chars): "ask number 0 ');
		expect(quotes).toMatch(/\+\d+ more user messages \(peek to read them\)\.$/);
	});

	it("escapes unsafe characters and quotes nothing for a span without user messages", () => {
		expect(userQuotes([user("u1", "bell\u0007here")])).not.toContain("\u0007");
		expect(userQuotes([reply("a1", "no user here")])).toBe("");
	});

	it("shortens the summary, never the quotes or the listing", () => {
		const quotes = userQuotes([user("u1", "keep these words exactly")]);
		const listing = "Holds 2 folds (peek or search any by id): fa; fb.";
		const brief = briefWithQuotes("s".repeat(2_000), quotes, listing);
		expect(brief.length).toBe(BRIEF_MAX_CHARS);
		expect(brief.endsWith(`${quotes} ${listing}`)).toBe(true);
		expect(briefWithQuotes("short summary", quotes)).toBe(`short summary ${quotes}`);
	});
});
