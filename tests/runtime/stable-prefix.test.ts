// The stable prefix (src/runtime/stable-prefix.ts): the first entry the next commit could change.
// Replayed without Pi (src/simulate) over synthetic sessions the ladder alone folds, in both
// scheduling modes: the prefix computed at the first request after each commit (where the Anthropic
// adapter places its breakpoint, held until the next commit) is never touched by that next commit.
// And each source it names pulls it back: a recorded decision not yet committed, a pending mark.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { callTool, FoldRuntime, type Host } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession, syntheticSession } from "../../src/simulate/index.ts";

const WINDOWS = [32_000, 64_000, 200_000];
const SEEDS = 6;

/** Replays one synthetic session; returns how many commits were checked against the held prefix. */
async function replay(window: number, seed: number, foldScheduling: "immediate" | "epoch") {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling, summarizer: "deterministic" }), () => store);
	const session = new SimSession({ model: { contextWindow: window, maxTokens: 4_096 } });
	const host: Host = session.host({
		decisionEntryType: runtime.names.decisionEntryType,
		receiptType: runtime.receiptType,
	});
	let held = runtime.stablePrefixEnd(host).index;
	let checked = 0;
	const touched: string[] = [];
	const boundary = runtime.boundary.bind(runtime);
	runtime.boundary = async (h, at, next) => {
		const drafts = await boundary(h, at, next);
		const view = runtime.snapshot(h).view;
		// A receipt the commit omits sits right before transcript entry `before`.
		const index = new Map([
			...view.transcript.map((e, i) => [e.id, i] as const),
			...(view.receipts ?? []).map((r) => [r.id, r.before] as const),
		]);
		const targets = (drafts ?? []).flatMap((d) => (d.type === "context_edit" ? [index.get(d.targetId) ?? -1] : []));
		if (targets.length > 0) {
			checked++;
			if (Math.min(...targets) < held) touched.push(`entry ${Math.min(...targets)} < stable prefix ${held}`);
		}
		return drafts;
	};
	const messages = syntheticSession({ seed, prompts: 4, turnsPerPrompt: 8 + seed * 2, resultChars: [1_200, 7_000] });
	const result = await drive(runtime, session, messages, {
		onRequest: (r) => {
			if (r.kind === "rewrite") held = runtime.stablePrefixEnd(host).index;
		},
	});
	return { result, checked, touched, runtime };
}

describe("the stable prefix", () => {
	it("is never touched by the next commit of the ladder, in either scheduling mode", async () => {
		let checked = 0;
		for (const window of WINDOWS)
			for (let seed = 1; seed <= SEEDS; seed++)
				for (const mode of ["immediate", "epoch"] as const) {
					const run = await replay(window, seed, mode);
					const label = `${mode} window ${window} seed ${seed}`;
					expect(run.result.errors, label).toEqual([]);
					expect(run.touched, label).toEqual([]);
					checked += run.checked;
				}
		expect(checked).toBeGreaterThan(WINDOWS.length * SEEDS);
	});

	it("ends before a decision recorded but not yet committed, and before a pending mark", async () => {
		for (const mode of ["immediate", "epoch"] as const) {
			const { runtime, session, host } = handBuilt(mode);
			const before = runtime.stablePrefixEnd(host);
			expect(before.by).toBe("fresh tail");
			expect(before.index).toBeGreaterThan(6);
			expect(before.index).toBeLessThan(session.entries.length);
			const ids = session.entries.map((e) => e.id);
			const result = await callTool(runtime, host, { action: "fold", from: ids[3], to: ids[6] }, "agent");
			expect(result.isError ?? false).toBe(false);
			expect(runtime.stablePrefixEnd(host)).toEqual({
				firstTouchable: ids[3],
				index: 3,
				by: mode === "epoch" ? "mark" : "decision",
			});
		}
	});
});

/** One prompt, twelve batches of a tool the ladder never folds: only the fresh tail bounds the stable prefix. */
function handBuilt(foldScheduling: "immediate" | "epoch") {
	const runtime = new FoldRuntime(
		resolveOptions({ foldScheduling, summarizer: "deterministic" }),
		() => new MemoryStore(),
	);
	const session = new SimSession({ model: { contextWindow: 200_000, maxTokens: 4_096 } });
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	session.appendMessage({ role: "user", content: "work through the twelve steps" });
	for (let i = 0; i < 12; i++) {
		const id = `call_${i}`;
		session.appendMessage({
			role: "assistant",
			content: [{ type: "toolCall", id, name: "edit", arguments: { step: i } }],
			stopReason: "toolUse",
		});
		session.appendMessage({
			role: "toolResult",
			toolCallId: id,
			toolName: "edit",
			content: [{ type: "text", text: `step ${i} ${"x".repeat(400)}` }],
		});
	}
	runtime.rebuild(host, "test");
	return { runtime, session, host };
}
