// Messages for a simulated session driven through pi-fold's runtime (src/simulate drive): an
// assistant's read call (with words before it, or none), its result, a plain reply, a fold command
// the agent issues before a message; and one driver that plays them in immediate scheduling with
// deterministic briefs and returns what the human was told, the requests sent and the folds made.

import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";

export const text = (t: string) => [{ type: "text" as const, text: t }];

export const readCall = (id: string, path: string, words = ""): TranscriptMessage =>
	({
		role: "assistant",
		content: [...(words ? text(words) : []), { type: "toolCall", id, name: "read", arguments: { path } }],
		stopReason: "toolUse",
	}) as TranscriptMessage;

export const readResult = (id: string, body: string): TranscriptMessage =>
	({ role: "toolResult", toolCallId: id, toolName: "read", content: text(body), isError: false }) as TranscriptMessage;

export const say = (t: string): TranscriptMessage =>
	({ role: "assistant", content: text(t), stopReason: "stop" }) as TranscriptMessage;

export const userSays = (t: string): TranscriptMessage => ({ role: "user", content: text(t) }) as TranscriptMessage;

/** The agent's fold of the calls `from` to `to`, issued before the message it is attached to. */
export const foldCommand = (from: string, to: string) => ({
	kind: "command" as const,
	command: { verb: "fold" as const, from, to },
});

/** Forty lines with no name in them. */
export const FILLER = "plain words with nothing to name in them\n".repeat(40);

/** Plays `messages` on a 200,000-token window: what the human was told, each request sent (JSON), the folds made in order. */
export async function driveFolds(messages: readonly ReplayMessage[]) {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(
		resolveOptions({ foldScheduling: "immediate", summarizer: "deterministic" }),
		() => store,
	);
	const session = new SimSession({ model: { contextWindow: 200_000, maxTokens: 8_192 } });
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	const sent: string[] = [];
	const run = await drive(runtime, session, [...messages], { onRequest: (_r, m) => sent.push(JSON.stringify(m)) });
	return { human: run.human, sent, folds: [...runtime.snapshot(host).state.folds.values()] };
}
