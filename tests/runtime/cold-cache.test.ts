// Cost scheduling commits while the provider's cache is cold (issue 9, item 3), with a clock the test
// controls: a mark the agent made waits while a rewrite would cost a cache write, and lands at the
// first boundary after a tool ran longer than the cache lifetime (the next request is fresh anyway);
// the same session with no idle time holds it. The simulated provider's cache expires on that clock.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";

const TTL = 300_000;
const PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

let n = 0;
const user = (text: string): ReplayMessage => ({ message: { role: "user", content: text, timestamp: ++n } });
function call(name: string, args: Record<string, unknown>): ReplayMessage {
	const id = `call_${++n}`;
	const content = [{ type: "toolCall", id, name, arguments: args }];
	return { message: { role: "assistant", content, stopReason: "toolUse", timestamp: n } as TranscriptMessage };
}
function result(of: ReplayMessage, text: string, idleMs = 0): ReplayMessage {
	const block = (of.message.content as { id: string; name: string }[])[0] as { id: string; name: string };
	const message = {
		role: "toolResult",
		toolCallId: block.id,
		toolName: block.name,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: ++n,
	};
	return { message: message as TranscriptMessage, ...(idleMs > 0 ? { idleMs } : {}) };
}
function say(text: string): ReplayMessage {
	return {
		message: {
			role: "assistant",
			content: [{ type: "text", text }],
			stopReason: "stop",
			timestamp: ++n,
		} as TranscriptMessage,
	};
}

/** Reads, a fold of the first two (a mark), more reads, then a long-running build (`idleMs`). */
function session(idleMs: number): ReplayMessage[] {
	const out: ReplayMessage[] = [user("work through the files")];
	const reads: ReplayMessage[] = [];
	for (let i = 0; i < 6; i++) {
		const c = call("read", { path: `src/f${i}.ts` });
		reads.push(c);
		out.push(c, result(c, `file f${i}: ${"const x = 1;\n".repeat(900)}`));
	}
	const callId = (m: ReplayMessage | undefined) => (m?.message.content as { id: string }[] | undefined)?.[0]?.id;
	const first = callId(reads[0]);
	const second = callId(reads[1]);
	const fold = call("active_context", { action: "fold", from: first, to: second, brief: "the first two files" });
	out.push(fold, result(fold, "(recorded by the runtime)"));
	for (let i = 6; i < 9; i++) {
		const c = call("read", { path: `src/f${i}.ts` });
		out.push(c, result(c, `file f${i}: ${"let y = 2;\n".repeat(300)}`));
	}
	const build = call("bash", { command: "npm run build" });
	out.push(build, result(build, "build ok", idleMs));
	out.push(say("built"));
	return out;
}

async function run(idleMs: number) {
	const runtime = new FoldRuntime(
		resolveOptions({ summarizer: "deterministic", cacheTtlMs: TTL }),
		() => new MemoryStore(),
	);
	const model = { contextWindow: 200_000, maxTokens: 8_192, cost: PRICES, cacheTtlMs: TTL };
	const sim = new SimSession({ model });
	const replayed = await drive(runtime, sim, session(idleMs), { cacheTtlMs: TTL });
	const host = sim.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	return { runtime, replayed, snap: runtime.snapshot(host) };
}

describe("cost scheduling and a cold cache", () => {
	it("holds the agent's mark while a rewrite would cost a cache write", async () => {
		const { runtime, replayed, snap } = await run(0);
		expect(replayed.errors).toEqual([]);
		expect(runtime.options.foldScheduling).toBe("cost");
		expect(snap.state.pendingMarks.size).toBe(1);
		expect(snap.state.commitSeq).toBe(0);
	});

	it("lands it at the first boundary after a tool ran past the cache lifetime", async () => {
		const { runtime, replayed, snap } = await run(TTL + 60_000);
		expect(replayed.errors).toEqual([]);
		expect(snap.state.pendingMarks.size).toBe(0);
		// The agent's fold is in force (the ladder may fold more with it: the rewrite is free).
		const marked = [...snap.state.folds.values()].filter((f) => f.origin === "agent");
		expect(marked.map((f) => f.brief)).toEqual(["the first two files"]);
		expect(runtime.telemetry.view().commit?.reason).toMatch(
			/the provider's cache expired: the next request is fresh anyway/,
		);
		// The request after the commit was fresh anyway: the simulated provider read nothing from cache.
		const last = replayed.requests.at(-1);
		expect(last?.kind).toBe("rewrite");
		expect(last?.cacheRead).toBe(0);
		expect(runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});
