// The parts of the replay's working-set measure: what counts as a fact (fidelity-facts.ts), the
// one-pass needle search against a plain substring search (needle-index.ts), which facts a reply
// used from earlier tool results (working-set.ts), and how a window holds each one (working-set-tally.ts):
// raw in an unedited original, named only in a brief or a compaction summary, missing when omitted.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsIn, fullText, usedText } from "../../src/replay/fidelity-facts.ts";
import { NeedleIndex } from "../../src/replay/needle-index.ts";
import { planWorkingSet } from "../../src/replay/working-set.ts";
import { WorkingSetTally, windowView } from "../../src/replay/working-set-tally.ts";
import type { SimEntry } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";

describe("the facts of a reply", () => {
	it("takes paths, code-shaped identifiers, long numbers, hex ids and quoted strings", () => {
		const text =
			"See src/replay/fold.ts and C:\\work\\notes.md, then call parseSessionFile on fold_store_v2 " +
			"(commit 9f3a2b7c, line 12345 in 2024, exit 42); the error was `cannot read the manifest` " +
			'and "too short" is not one, nor are getKey, a/b, plainwordsonly or HTTP_OK.';
		expect(factsIn(text).sort()).toEqual(
			[
				"src/replay/fold.ts",
				"C:\\work\\notes.md",
				"parseSessionFile",
				"fold_store_v2",
				"9f3a2b7c",
				"12345",
				"cannot read the manifest",
			].sort(),
		);
	});

	it("reads a reply's text and tool-call arguments, not its thinking; a window's text has them all", () => {
		const reply = {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "maybe thinkingOnlyToken matters" },
				{ type: "text", text: "Reading it." },
				{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/argument/path.ts", offset: 12000 } },
			],
		} as TranscriptMessage;
		expect(factsIn(usedText(reply)).sort()).toEqual(["12000", "src/argument/path.ts"]);
		expect(fullText(reply)).toContain("thinkingOnlyToken");
	});
});

describe("the needle index", () => {
	it("finds overlapping and nested needles, each once", () => {
		const index = new NeedleIndex(["he", "she", "his", "hers", "ushers"]);
		expect(index.find("ushers and his shed, she said").sort()).toEqual([0, 1, 2, 3, 4]);
		expect(index.find("nothing here")).toEqual([0]);
		expect(index.find("")).toEqual([]);
	});

	it("agrees with a plain substring search", () => {
		const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "_"), maxLength: 60 });
		fc.assert(
			fc.property(
				fc.uniqueArray(
					text.filter((s) => s.length > 0),
					{ maxLength: 12 },
				),
				text,
				(needles, haystack) => {
					const found = new NeedleIndex(needles).find(haystack).sort((a, b) => a - b);
					const naive = needles.flatMap((n, i) => (haystack.includes(n) ? [i] : []));
					expect(found).toEqual(naive);
				},
			),
		);
	});
});

const user = (text: string): TranscriptMessage => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string, text = ""): TranscriptMessage =>
	({
		role: "assistant",
		content: [...(text ? [{ type: "text", text }] : []), { type: "toolCall", id, name: "grep", arguments: {} }],
	}) as TranscriptMessage;
const result = (id: string, text: string): TranscriptMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "grep",
	content: [{ type: "text", text }],
});
const say = (text: string): TranscriptMessage => ({ role: "assistant", content: [{ type: "text", text }] });

/** A session: a result holding four facts, two more calls, then a reply quoting them and more. */
function session(): { message: TranscriptMessage; id: string }[] {
	const m = [
		user("Find where resolveWidgetKey is defined in the code base, please."), // 0
		call("c1"), // 1: reply 1
		result("c1", "src/widgets/keys.ts: resolveWidgetKey, widgetCacheSize = 65536, checksum deadbeef01"), // 2
		call("c2"), // 3: reply 2
		result("c2", "recentTokenAbc1"), // 4
		call("c3"), // 5: reply 3
		result("c3", "nothing"), // 6
		say("In src/widgets/keys.ts: 65536, deadbeef01, resolveWidgetKey, recentTokenAbc1, inventedName9."), // 7: reply 4
	];
	return m.map((message, i) => ({ message, id: `e${i}` }));
}

describe("the working set of a session", () => {
	it("keeps a fact first seen in a tool result at least 3 requests back that no user message holds", () => {
		const messages = session();
		const plan = planWorkingSet(messages, "system prompt with deadbeef01", (i) => i === 0);
		const facts = (plan.facts.get(7) ?? []).map((id) => plan.index.needles[id]).sort();
		// resolveWidgetKey: the user named it. recentTokenAbc1: its result went out with 2 requests, not 3.
		// inventedName9: no tool result holds it. deadbeef01: the system prompt holds it.
		expect(facts).toEqual(["65536", "src/widgets/keys.ts"]);
		expect(plan.users.map((u) => plan.index.needles[u.needle])).toEqual([
			"Find where resolveWidgetKey is defined in the code base, please.",
		]);
	});

	it("drops a fact the agent named before any tool result did; looks a user message up by its first 160 characters, trimmed", () => {
		const messages = session();
		messages[1] = { id: "e1", message: call("c1", "Looking for src/widgets/keys.ts now.") };
		messages[0] = { id: "e0", message: user(`\n Find it. ${"The widget registry is slow. ".repeat(10)}`) };
		const plan = planWorkingSet(messages, "deadbeef01", (i) => i === 0);
		expect((plan.facts.get(7) ?? []).map((id) => plan.index.needles[id]).sort()).toEqual(["65536", "resolveWidgetKey"]);
		const opening = plan.index.needles[plan.users[0]?.needle ?? -1];
		expect(opening).toHaveLength(160);
		expect(opening).toBe(`Find it. ${"The widget registry is slow. ".repeat(10)}`.slice(0, 160));
	});

	it("drops a fact a later user message holds", () => {
		const messages = session();
		messages.splice(7, 0, { id: "u", message: user("Is 65536 really the cache size you found there?") });
		const plan = planWorkingSet(messages, "deadbeef01", (i) => i === 0 || i === 7);
		expect((plan.facts.get(8) ?? []).map((id) => plan.index.needles[id])).toEqual(["src/widgets/keys.ts"]);
	});
});

describe("a window's hold on the working set", () => {
	const messages = session();
	const plan = planWorkingSet(messages, "system prompt with deadbeef01", (i) => i === 0);
	const entries: SimEntry[] = messages.slice(0, 7).map(({ message, id }) => ({ type: "message", id, message }));
	const indexOf = (entry: SimEntry) => (entry.type === "message" ? Number(entry.id.slice(1)) : undefined);
	const tally = (window: SimEntry[]) => {
		const t = new WorkingSetTally(plan, messages);
		t.observe(7, windowView(window, indexOf));
		return t.figures();
	};
	const edit = (targetId: string, content: unknown): SimEntry => ({
		type: "context_edit",
		id: `x${targetId}`,
		targetId,
		replacement: content === null ? null : { content },
	});

	it("is raw while the original result is shown unedited", () => {
		expect(tally(entries)).toMatchObject({ facts: 2, raw: 2, named: 0, missing: 0, recalls: [] });
	});

	it("is named when only a brief in the result's place holds the fact, missing when nothing does", () => {
		const briefed = [...entries, edit("e2", "[fold] grep over src/widgets/keys.ts")];
		expect(tally(briefed)).toMatchObject({ facts: 2, raw: 0, named: 1, missing: 1, recalls: [4] });
		expect(tally([...entries, edit("e2", null)])).toMatchObject({ raw: 0, named: 0, missing: 2, recalls: [4] });
	});

	it("is named when a brief writes its path in a directory's brace group", () => {
		const grouped = [...entries, edit("e2", "[fold] Files: src/widgets/{index.ts,keys.ts}.")];
		expect(tally(grouped)).toMatchObject({ facts: 2, raw: 0, named: 1, missing: 1 });
		const other = [...entries, edit("e2", "[fold] Files: src/widgets/{index.ts,other.ts}.")];
		expect(tally(other)).toMatchObject({ named: 0, missing: 2 });
	});

	it("is raw again when an expand restores the result's own content", () => {
		const restored = [
			...entries,
			edit("e2", "[fold]"),
			edit("e2", (messages[2] as { message: TranscriptMessage }).message.content),
		];
		expect(tally(restored)).toMatchObject({ raw: 2, named: 0, missing: 0 });
	});

	it("is named when a compaction summary holds it, and the user's message paraphrased", () => {
		const summary = "The user asked: Find where resolveWidgetKey is defined in the code base, please. Found 65536.";
		const compacted: SimEntry[] = [
			...entries,
			{ type: "compaction", id: "k", summary, firstKeptEntryId: "e6", tokensBefore: 1 },
		];
		const f = tally(compacted);
		expect(f).toMatchObject({ facts: 2, raw: 0, named: 1, missing: 1 });
		expect(f.users).toEqual({ messages: 1, requests: 1, lookups: 1, raw: 0, paraphrased: 1, gone: 0 });
		expect(tally(entries).users).toMatchObject({ lookups: 1, raw: 1 });
	});
});
