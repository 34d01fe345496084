// The replay's repeated reads (src/replay/replay-rereads.ts): a `read` the session made again with the same
// arguments and got the same text back is a reread; a changed file, a different range or a failed read is never
// one. Driven through a runtime, a reread whose earlier read a fold holds reaches the provider as pi-fold's search
// for the file (a pointer to the folded read, not the file's text), and one the window still shows as a note
// saying so. A whole replay sends them that way, and says what pi-fold's total would be sent as recorded.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { parseSessionFile, renderReplay, replaySession } from "../../src/replay/index.ts";
import { findRereads, inViewNote, recallRereads } from "../../src/replay/replay-rereads.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession } from "../../src/simulate/index.ts";
import { contentText, type TranscriptMessage } from "../../src/transcript/index.ts";
import { drawn } from "../pi/screen.ts";

const BODY = "export const answer = 42;\n".repeat(400);

function read(id: string, args: Record<string, unknown>): TranscriptMessage {
	return { role: "assistant", content: [{ type: "toolCall", id, name: "read", arguments: args }] } as TranscriptMessage;
}
function result(id: string, text: string, isError = false): TranscriptMessage {
	return { role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError };
}
const msgs = (...m: TranscriptMessage[]): ReplayMessage[] => m.map((message) => ({ message }));

/** A session reading eight files, each its own text, then the first of them again, then a closing reply. */
function eightReadsThenAgain(): ReplayMessage[] {
	const m: TranscriptMessage[] = [{ role: "user", content: "read them all" } as TranscriptMessage];
	for (let i = 0; i < 8; i++) m.push(read(`c${i}`, { path: `src/f${i}.ts` }), result(`c${i}`, `// file ${i}\n${BODY}`));
	m.push(read("again", { path: "src/f0.ts" }), result("again", `// file 0\n${BODY}`));
	m.push({ role: "assistant", content: [{ type: "text", text: "done" }] } as TranscriptMessage);
	return msgs(...m);
}

/** Drives `messages` with the rereads sent as recalls; the text the provider got for the call `again`. */
async function recalled(messages: ReplayMessage[], contextWindow: number) {
	const runtime = new FoldRuntime(
		resolveOptions({ foldScheduling: "immediate", summarizer: "deterministic" }),
		() => new MemoryStore(),
	);
	const session = new SimSession({ model: { contextWindow, maxTokens: 4_096 } });
	const found = findRereads(messages);
	const recall = recallRereads(found.paths);
	let seen = "";
	const result = await drive(runtime, session, messages, {
		resultFor: recall.resultFor,
		onRequest: (_r, sent) => {
			const m = sent.find((x) => x.role === "toolResult" && x.toolCallId === "again");
			if (m) seen = contentText(m.content, "\n");
		},
	});
	expect(result.errors).toEqual([]);
	return { found, sent: recall.sent, seen };
}

describe("the replay's repeated reads", () => {
	it("finds an unchanged read of the same file and counts what it held", () => {
		const found = findRereads(
			msgs(read("c1", { path: "src/a.ts" }), result("c1", BODY), read("c2", { path: "src/a.ts" }), result("c2", BODY)),
		);
		expect([...found.paths].map(([m, path]) => [m.message.toolCallId, path])).toEqual([["c2", "src/a.ts"]]);
		expect(found).toMatchObject({ reads: 1, chars: BODY.length });
	});

	it("never counts a changed file, another range or a failed read", () => {
		const found = findRereads(
			msgs(
				read("c1", { path: "src/a.ts" }),
				result("c1", BODY),
				read("c2", { path: "src/a.ts" }),
				result("c2", `${BODY}// edited\n`),
				read("c3", { path: "src/a.ts", offset: 10 }),
				result("c3", BODY),
				read("c4", { path: "src/b.ts" }),
				result("c4", "ENOENT", true),
				read("c5", { path: "src/b.ts" }),
				result("c5", "ENOENT", true),
			),
		);
		expect(found.reads).toBe(0);
	});

	it("sends a reread whose earlier read is folded as pi-fold's search for the file", async () => {
		const { found, sent, seen } = await recalled(eightReadsThenAgain(), 24_000);
		expect(found.reads).toBe(1);
		expect(sent).toEqual({ searched: 1, inView: 0 });
		expect(seen).toMatch(/→ read src\/f0\.ts: [\d,]+ lines, result entry \S+ in f\S+ bytes \d+-\d+/);
		expect(seen).not.toContain(BODY);
		expect(seen.length).toBeLessThan(BODY.length / 2);
	});

	it("sends a reread the window still shows as a note saying so", async () => {
		const { sent, seen } = await recalled(eightReadsThenAgain(), 1_000_000);
		expect(sent).toEqual({ searched: 0, inView: 1 });
		expect(seen).toBe(inViewNote("src/f0.ts"));
	});

	it("says how many there were in the replay, how it sent them, and pi-fold's total sent as recorded", async () => {
		const r = await replaySession(sessionFile(twoReads()), { window: 200_000, prices: PRICES });
		expect(r.pifold.heldRereads).toMatchObject({ reads: 1, searched: 0, inView: 1 });
		// Still in view: no recall, so no request more than the session's own.
		expect(r.pifold.requests.length).toBe(r.native.requests.calls);
		const total = r.pifold.cost + r.pifold.briefs.cost;
		expect(r.pifold.heldRereads.costAsRecorded).toBeGreaterThan(total);
		const text = renderReplay(r, "s.jsonl");
		expect(text).toContain(
			"Read again: 1 read of a file the session had already read, unchanged (10,400 characters). Under pi-fold the earlier read is still held",
		);
		expect(text).toContain("1 as a note that the window still shows it");
	});

	it("counts each reread once when the model reuses call ids, so the report's parts add up to its total", async () => {
		// A scripted model numbering its calls per turn: four ids, reused; the reread's id is a first read's too.
		const messages: TranscriptMessage[] = [{ role: "user", content: "read" } as TranscriptMessage];
		for (let i = 0; i < 16; i++)
			messages.push(read(`r${i % 4}`, { path: `src/f${i}.ts` }), result(`r${i % 4}`, `// file ${i}\n${BODY}`));
		messages.push(read("r0", { path: "src/f0.ts" }), result("r0", `// file 0\n${BODY}`));
		messages.push(read("r1", { path: "src/f15.ts" }), result("r1", `// file 15\n${BODY}`));
		messages.push({ role: "assistant", content: [{ type: "text", text: "done" }] } as TranscriptMessage);
		const r = await replaySession(sessionFile(messages), { window: 40_000, maxOutput: 4_096, prices: PRICES });
		const h = r.pifold.heldRereads;
		expect(h.reads).toBe(2);
		expect(h.searched + h.inView + h.asRecorded).toBe(h.reads);
		expect(h.searched).toBeGreaterThan(0);
		expect(r.pifold.requests.length).toBe(r.native.requests.calls + h.searched);
		const flat = drawn(renderReplay(r, "s.jsonl")).join("\n").replace(/\n /g, " ");
		const line = /Read again: (\d+) reads? .* so the replay sends them as that recall: (.*?)\. Sent as recorded/.exec(
			flat,
		);
		const parts = [...(line?.[2] ?? "").matchAll(/(?:^|, )(\d+) (?:as|not reached)/g)].map((m) => Number(m[1]));
		expect(parts.reduce((a, b) => a + b, 0)).toBe(Number(line?.[1]));
	});

	it("bills the peek a searched reread leads to as one request more, read from cache", async () => {
		const messages = Array.from({ length: 16 }, (_, i) => [
			read(`c${i}`, { path: `src/f${i}.ts` }),
			result(`c${i}`, `// file ${i}\n${BODY}`),
		]).flat();
		messages.push(read("again", { path: "src/f0.ts" }), result("again", `// file 0\n${BODY}`));
		messages.push({ role: "assistant", content: [{ type: "text", text: "done" }] } as TranscriptMessage);
		const r = await replaySession(sessionFile([{ role: "user", content: "read" } as TranscriptMessage, ...messages]), {
			window: 40_000,
			maxOutput: 4_096,
			prices: PRICES,
		});
		expect(r.pifold.commits).toBeGreaterThan(0);
		expect(r.pifold.heldRereads).toMatchObject({ reads: 1, searched: 1, inView: 0 });
		expect(r.pifold.requests.length).toBe(r.native.requests.calls + 1);
		// The peek request precedes the reply after the reread, reading that reply's prompt from cache.
		const last = r.pifold.requests.filter((q) => q.reply === r.native.requests.calls);
		expect(last).toHaveLength(2);
		const peek = last.find((q) => last.some((o) => o !== q && Math.abs(q.cacheRead - o.prompt) < 1));
		expect(peek).toBeDefined();
		expect(peek?.fresh).toBeGreaterThan(0);
		expect(peek?.output).toBeGreaterThan(0);
		expect(renderReplay(r, "s.jsonl")).toContain("(the same replies, and the peek calls)");
	});
});

const PRICES = { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 };

/** A session that reads `src/a.ts` twice and says it is done. */
function twoReads(): TranscriptMessage[] {
	return [
		{ role: "user", content: "read src/a.ts twice" } as TranscriptMessage,
		read("c1", { path: "src/a.ts" }),
		result("c1", BODY),
		read("c2", { path: "src/a.ts" }),
		result("c2", BODY),
		{ role: "assistant", content: [{ type: "text", text: "done" }] } as TranscriptMessage,
	];
}

/** A session file (version 3) of `messages` on one branch, each reply billed as a fresh prompt of its size. */
function sessionFile(messages: readonly TranscriptMessage[]) {
	const line = (o: Record<string, unknown>) => JSON.stringify(o);
	const entries: string[] = [line({ type: "session", version: 3, id: "s1", cwd: "/w" })];
	let parent: string | null = null;
	let chars = 0;
	messages.forEach((message, i) => {
		const id = `e${i + 1}`;
		const usage =
			message.role === "assistant"
				? { usage: { input: 0, output: 10, cacheRead: 0, cacheWrite: Math.ceil(chars / 4), totalTokens: 0 } }
				: {};
		entries.push(line({ type: "message", id, parentId: parent, message: { timestamp: i + 1, ...message, ...usage } }));
		chars += JSON.stringify(message).length;
		parent = id;
	});
	return parseSessionFile(`${entries.join("\n")}\n`);
}
