// The fold tree stays shallow and navigable over a long session. The simulator (no Pi) replays
// 1,000 units two ways: an agent that folds each stage it has finished (one adjacent fold per
// stage, the shape that used to grow a chain of consolidations one level per stage), and a session
// the automatic ladder alone folds (under pressure, where consolidation merges over the user's raw
// messages; without it, where every user message stays raw). Afterwards the deepest fold sits at most log2(leaf folds) + 2
// levels down, and every fold, leaves included, can be reached from a handle shown in the window by
// following the handles ladder briefs list.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import type { Snapshot } from "../../src/policy/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession, syntheticSession } from "../../src/simulate/index.ts";
import { toUnits } from "../../src/transcript/index.ts";

/** Stages of four units each: a prompt, a read, a fold of the stage three back, a reply. */
function curatingSession(stages: number): ReplayMessage[] {
	const out: ReplayMessage[] = [];
	for (let k = 0; k < stages; k++) {
		const text = `stage ${k} `.repeat(200);
		out.push({ id: `u${k}`, message: { role: "user", content: `stage ${k}: read file-${k}.ts` } });
		const read = { type: "toolCall", id: `c${k}`, name: "read", arguments: { path: `file-${k}.ts` } };
		out.push({ id: `t${k}`, message: { role: "assistant", content: [read], stopReason: "toolUse" } });
		out.push({
			id: `r${k}`,
			message: { role: "toolResult", toolCallId: `c${k}`, toolName: "read", content: [{ type: "text", text }] },
		});
		if (k >= 3) {
			const brief = `Stage ${k - 3}: read file-${k - 3}.ts, nothing left to do there.`;
			const args = { action: "fold", from: `u${k - 3}`, to: `a${k - 3}`, brief };
			const call = { type: "toolCall", id: `f${k}`, name: "active_context", arguments: args };
			out.push({ id: `m${k}`, message: { role: "assistant", content: [call], stopReason: "toolUse" } });
		}
		out.push({ id: `a${k}`, message: { role: "assistant", content: [{ type: "text", text: `done ${k}` }] } });
	}
	return out;
}

async function replay(messages: ReplayMessage[], contextWindow: number): Promise<Snapshot> {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ summarizer: "deterministic" }), () => store);
	const session = new SimSession({ model: { contextWindow, maxTokens: 4_096 } });
	const result = await drive(runtime, session, messages);
	expect(result.stopped).toBe(false);
	expect(result.errors).toEqual([]);
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	return runtime.snapshot(host);
}

/** Checks depth against log2 of the leaf folds, and that brief-listed handles reach every fold. */
function checkTree(snap: Snapshot): { depth: number; leaves: number } {
	expect(toUnits(snap.view.transcript).length).toBeGreaterThanOrEqual(1_000);
	const folds = [...snap.lattice.folds.values()];
	const leaves = folds.filter((f) => !f.children.some((c) => c.type === "fold")).length;
	const depth = Math.max(...folds.map((f) => f.depth));
	expect(folds.filter((f) => f.record.kind === "consolidation").length).toBeGreaterThan(20);
	expect(depth).toBeLessThanOrEqual(Math.log2(leaves) + 2);
	const shown = snap.lattice.visible(snap.state.expanded).flatMap((v) => (v.type === "fold" ? [v.id] : []));
	const reached = new Set(shown);
	const queue = [...shown];
	while (queue.length > 0) {
		const brief = snap.lattice.get(queue.pop() as string)?.record.brief ?? "";
		for (const [id] of brief.matchAll(/f[0-9a-f]{16}/g))
			if (!reached.has(id) && snap.lattice.get(id)) {
				reached.add(id);
				queue.push(id);
			}
	}
	const lost = folds.filter((f) => !reached.has(f.record.id));
	expect(lost.map((f) => f.record.id)).toEqual([]);
	for (const f of folds) expect(f.record.brief.length).toBeLessThanOrEqual(1_200);
	return { depth, leaves };
}

describe("the fold tree over 1,000 units", () => {
	it("stays logarithmic when the agent folds one stage at a time", async () => {
		const snap = await replay(curatingSession(252), 24_000);
		const { depth, leaves } = checkTree(snap);
		expect(leaves).toBeGreaterThanOrEqual(200);
		expect(depth).toBeGreaterThanOrEqual(4); // a real tree, not a flat list
	}, 120_000);

	const ladderSession = () =>
		syntheticSession({ seed: 12, prompts: 50, turnsPerPrompt: 18, maxBatch: 2, resultChars: [800, 4_000] });

	it("stays logarithmic, and reachable through listed handles, when the ladder folds alone under pressure", async () => {
		// At 32k the budget presses: consolidation merges over the raw user messages too.
		const snap = await replay(ladderSession(), 32_000);
		const { depth } = checkTree(snap);
		expect(depth).toBeGreaterThanOrEqual(3);
		// A fold in the window that holds the user's messages quotes the first of them verbatim.
		let quoting = 0;
		for (const v of snap.lattice.visible(snap.state.expanded)) {
			if (v.type !== "fold") continue;
			const fold = snap.lattice.get(v.id);
			const first = snap.view.transcript.slice(v.start, v.end).find((e) => e.message.role === "user");
			if (!fold || !first) continue;
			const text = String(first.message.content);
			expect(fold.record.brief).toContain(`"${text.slice(0, 160)}`);
			quoting++;
		}
		expect(quoting).toBeGreaterThan(0);
	}, 120_000);

	it("keeps every user message raw while the budget does not press", async () => {
		const snap = await replay(ladderSession(), 128_000);
		const folds = [...snap.lattice.folds.values()];
		expect(folds.length).toBeGreaterThan(40); // the ladder folded the work
		const users = snap.view.transcript.flatMap((e, i) => (e.message.role === "user" ? [i] : []));
		expect(users.length).toBe(50);
		for (const i of users) expect(folds.filter((f) => f.start <= i && i < f.end).map((f) => f.record.id)).toEqual([]);
	}, 120_000);
});
