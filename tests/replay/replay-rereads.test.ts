// The replay's repeated reads (src/replay/replay-rereads.ts): a `read` the session made again with the same
// arguments and got the same text back becomes a one-line note in the replay's second estimate, since under
// pi-fold the earlier read is still held; a changed file, a different range or a failed read is never one. A
// whole replay sends them as recorded and says how many there were and what pi-fold's total would be as notes.

import { describe, expect, it } from "vitest";
import { parseSessionFile, renderReplay, replaySession } from "../../src/replay/index.ts";
import { heldReadNote, holdRereads } from "../../src/replay/replay-rereads.ts";
import type { ReplayMessage } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";

const BODY = "export const answer = 42;\n".repeat(400);

function read(id: string, args: Record<string, unknown>): TranscriptMessage {
	return { role: "assistant", content: [{ type: "toolCall", id, name: "read", arguments: args }] } as TranscriptMessage;
}
function result(id: string, text: string, isError = false): TranscriptMessage {
	return { role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError };
}
const msgs = (...m: TranscriptMessage[]): ReplayMessage[] => m.map((message) => ({ message }));
const textOf = (m: ReplayMessage | undefined) =>
	(((m?.message ?? {}) as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join("");

describe("the replay's repeated reads", () => {
	it("sends an unchanged read of the same file as a note and counts what it held", () => {
		const { messages, held } = holdRereads(
			msgs(read("c1", { path: "src/a.ts" }), result("c1", BODY), read("c2", { path: "src/a.ts" }), result("c2", BODY)),
		);
		expect(textOf(messages[1])).toBe(BODY);
		expect(textOf(messages[3])).toBe(heldReadNote("src/a.ts"));
		expect(held).toEqual({ reads: 1, chars: BODY.length });
	});

	it("sends a changed file, another range and a failed read as recorded", () => {
		const { messages, held } = holdRereads(
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
		expect(held.reads).toBe(0);
		expect(textOf(messages[3])).toBe(`${BODY}// edited\n`);
		expect(textOf(messages[5])).toBe(BODY);
		expect(textOf(messages[9])).toBe("ENOENT");
	});

	it("sends them as recorded in the replay, and says how many and pi-fold's total were they notes", async () => {
		const line = (o: Record<string, unknown>) => JSON.stringify(o);
		let n = 0;
		const entries: string[] = [line({ type: "session", version: 3, id: "s1", cwd: "/w" })];
		let parent: string | null = null;
		const push = (message: Record<string, unknown>) => {
			const id = `e${++n}`;
			entries.push(line({ type: "message", id, parentId: parent, message: { timestamp: n, ...message } }));
			parent = id;
		};
		const usage = (tokens: number) => ({
			input: 0,
			output: 10,
			cacheRead: 0,
			cacheWrite: tokens,
			totalTokens: tokens + 10,
		});
		push({ role: "user", content: "read src/a.ts twice" });
		for (const id of ["c1", "c2"]) {
			push({
				role: "assistant",
				content: [{ type: "toolCall", id, name: "read", arguments: { path: "src/a.ts" } }],
				usage: usage(3_000),
			});
			push({
				role: "toolResult",
				toolCallId: id,
				toolName: "read",
				content: [{ type: "text", text: BODY }],
				isError: false,
			});
		}
		push({ role: "assistant", content: [{ type: "text", text: "done" }], usage: usage(8_000) });
		const r = await replaySession(parseSessionFile(`${entries.join("\n")}\n`), {
			window: 200_000,
			prices: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 5 },
		});
		expect(r.pifold.heldRereads.reads).toBe(1);
		const total = r.pifold.cost + r.pifold.briefs.cost;
		expect(r.pifold.heldRereads.costIfHeld).toBeLessThan(total);
		expect(renderReplay(r, "s.jsonl")).toContain(
			"Read again: 1 read of a file the session had already read, unchanged (10,400 characters), sent as recorded.",
		);
	});
});
