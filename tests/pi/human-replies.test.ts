// What the person at the keyboard reads back from `/fold-context` (issue 22), each reply drawn as
// Pi's TUI draws a notice at 80 columns: a peek shows entries as who, when and what (never the
// source's JSON lines), and its next page keeps the byte count asked for; a search's hits and next
// page are slash commands that run; marking a fold under cost scheduling is said in a Pi user's
// words; an expand of a fold that is only marked says so and names unmark; and the commit receipt,
// which Pi sends the model as a user-role message after the turn's tool results, opens by saying it
// is an automatic notice that asks nothing.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIPT_MAX_CHARS } from "../../src/runtime/index.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	say,
	slashCommand,
	textOf,
	toolTexts,
} from "./harness.ts";
import { CLOCK_TIMES, drawn, ENTRY_IDS, FOLD_IDS, SHA_PREFIXES } from "./screen.ts";

afterAll(cleanupTempDirs);

const FOLD_ID = /f[0-9a-f]{16}/g;

/** A notice at 80 columns, ids, digests and clock times masked. */
function rendered(text: string): string[] {
	return drawn(text, [FOLD_IDS, SHA_PREFIXES, ENTRY_IDS, CLOCK_TIMES]);
}

describe("peek and search, for a person", () => {
	let h: Harness;
	let id: string;
	beforeAll(async () => {
		h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
		h.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes" }),
			callTool({ action: "fold", from: "call_c", to: "call_c" }),
			say("done"),
		]);
		await h.run("go");
		id = (toolTexts(h)[0] ?? "").match(FOLD_ID)?.[0] as string;
	});

	it("draws a peek's entries as who, when and what, and the next page keeps the bytes asked for", async () => {
		const text = await slashCommand(h, `/fold-context peek ${id} 0 1200`);
		const lines = rendered(text);
		expect(lines.slice(0, 6)).toEqual([
			expect.stringMatching(/^ Fold fX{16}, bytes 0-1,200 of 2,\d{3}, exact original \(SHA-256$/),
			" verified):",
			" eeeeeeee · assistant · hh:mm:ss UTC",
			'   calls probe {"key":"a"}',
			" eeeeeeee · result of probe · hh:mm:ss UTC",
			expect.stringMatching(/^ {3}probe a: lorem ipsum/),
		]);
		expect(lines.at(-1)).toBe(" [more: /fold-context peek fXXXXXXXXXXXXXXXX 1200 1200]");
		// None of the source's JSON reaches the person: no entry lines, no escaped newlines, no usage.
		expect(text).not.toMatch(/\{"id"|\\n|"usage"|"role"/);
	});

	it("offers each search hit and the next page as slash commands, and the next page runs", async () => {
		const first = await slashCommand(h, "/fold-context search probe");
		const lines = rendered(first);
		expect(lines.slice(0, 2)).toEqual([
			' Search for "probe" in the exact originals of the folds (2 originals read, each',
			" SHA-256 verified): 9 matches, page 1 of 2",
		]);
		const peeks = lines.filter((l) => l.includes("peek:"));
		expect(peeks).toHaveLength(5);
		for (const p of peeks) expect(p).toMatch(/^ {4}peek: \/fold-context peek fX{16} \d+ 1000$/);
		expect(lines.at(-1)).toBe(" [more: /fold-context search --page 2 probe]");
		expect(first).not.toContain('{"action"');
		const second = rendered(await slashCommand(h, "/fold-context search --page 2 probe"));
		expect(second[1]).toBe(" SHA-256 verified): 9 matches, page 2 of 2");
		expect(second.at(-1)).toBe(" [end of matches]");
		// A hit's peek command runs as printed, and shows the entry the hit is in.
		const command = [...first.matchAll(/\/fold-context peek \S+ (\d+) 1000/g)].find((m) => m[1] !== "0")?.[0];
		const peek = rendered(await slashCommand(h, command as string));
		expect(peek[0]).toMatch(/^ Fold fX{16}, bytes [1-9]/);
		expect(peek).toContain(" eeeeeeee · result of probe · hh:mm:ss UTC");
		// From inside an entry, the part the slice holds shows its text, not its JSON.
		const hit = /byte (\d+)\n.*«probe» a:/.exec(first)?.[1] as string;
		const inside = rendered(await slashCommand(h, `/fold-context peek ${id} ${Number(hit) + 5} 300`));
		expect(inside.slice(2, 4)).toEqual([
			" (part of an entry, cut by the slice)",
			expect.stringMatching(/^ {3}\S.*lorem ipsum/),
		]);
		for (const text of [peek, inside]) expect(text.join("\n")).not.toMatch(/\{"|"text"/);
	});
});

describe("a fold the person marks under cost scheduling", () => {
	it("is said in a Pi user's words, and expanding it says it is only marked and names unmark", async () => {
		const h = await createHarness({
			ui: "tui",
			options: { foldScheduling: "cost", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		h.script([...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)), say("done")]);
		await h.run("go");
		const entries = await slashCommand(h, "/context entries");
		const [first, last] = /\n {2}([0-9a-f]{8})\.\.([0-9a-f]{8}) tool calls: probe/.exec(entries)?.slice(1) ?? [];
		const marked = await slashCommand(h, `/fold-context fold ${first} ${last} The first probe`);
		expect(rendered(marked)).toEqual([
			" Marked fXXXXXXXXXXXXXXXX (tool calls, 2 entries eeeeeeee…eeeeeeee) to fold:",
			" nothing changes now; pi-fold folds marked parts together when the window needs",
			" room. Withdraw it with /fold-context unmark fXXXXXXXXXXXXXXXX. Its exact",
			" original is kept (SHA-256 <sha256>…).",
			" Brief: The first probe",
		]);
		const id = marked.match(FOLD_ID)?.[0] as string;
		expect(rendered(await slashCommand(h, `/fold-context expand ${id}`))).toEqual([
			" expand refused: fXXXXXXXXXXXXXXXX is marked to fold, not folded yet: the",
			" window still shows it whole, so there is nothing to expand. To keep it from",
			" folding: /fold-context unmark fXXXXXXXXXXXXXXXX",
		]);
		expect(await slashCommand(h, `/fold-context unmark ${id}`)).toContain(`Withdrew mark ${id}`);
	});
});

describe("the commit receipt, as the model is sent it", () => {
	it("follows the turn's tool results as a bounded notice that asks nothing, not as the user's request", async () => {
		const h = await createHarness({
			contextWindow: 16_000,
			options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		h.script([...Array.from({ length: 10 }, (_, i) => callProbes(`big${i + 1}`)), say("done")]);
		await h.run("go on with the probes");
		const notice = (m: { role: string }) =>
			m.role === "user" && textOf(m as never).startsWith("[active-context commit #");
		const at = h.requests.findIndex((r) => r.messages.some(notice));
		expect(at).toBeGreaterThan(0);
		const messages = h.requests[at]?.messages ?? [];
		const receipt = messages.at(-1) as (typeof messages)[number];
		// Pi sends the receipt as a user-role message right after the turn's tool results...
		expect(receipt.role).toBe("user");
		expect(messages.at(-2)?.role).toBe("toolResult");
		// ...so it says first that it is an automatic notice with nothing to answer, within its bound.
		expect(textOf(receipt)).toMatch(
			/^\[active-context commit #1, an automatic notice, not from the user; nothing to answer, carry on with the task: folded \d+/,
		);
		expect(textOf(receipt).length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS);
		// The person's own request is still the last user message that asks for something.
		const asks = messages.filter((m) => m.role === "user" && !notice(m));
		expect(textOf(asks.at(-1) as (typeof messages)[number])).toBe("go on with the probes");
	});
});
