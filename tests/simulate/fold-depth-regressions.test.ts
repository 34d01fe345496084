// The fold tree's depth bound (sweep-lossless.ts, depthProblem) pinned on the session the randomized
// sweep found with seed 11: one prompt, a 90,000-token window, and the human's six folds
// (`/fold-context fold call_0_0 call_4_0` and so on), four spans each around the last and two tool
// batches inside them, so the tree is five levels deep over six folds, past log2(6) + 2 = 4.58, with
// no fold of pi-fold's in it (cost and epoch scheduling failed on it; immediate folded it otherwise). The bound is what the
// ladder promises for what it builds (consolidation pairs equal ranks, src/policy/ladder.ts); nesting
// the human or the agent asks for is theirs, and pi-fold does not flatten it. So the checker bounds
// the levels pi-fold's folds make on one chain, and these tests pin both sides: the human's chain
// passes in every mode, and a chain of the ladder's own folds still fails.

import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, Lattice } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession } from "../../src/simulate/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { reply, user } from "../helpers/entries.ts";
import { compactionOf, messagesOf, modelOf, type Shape, systemPromptOf } from "./shapes.ts";
import { sweep } from "./sweep.ts";
import { depthProblem, foldLevels } from "./sweep-lossless.ts";

/** Seed 11's shape, its tiny floats rounded (writeShare 4.27e-293 to 0, thinking share 0.9999999999999994 to 1). */
const nested: Shape = {
	seed: 1_352_282_077,
	window: 90_000,
	maxTokens: 8_192,
	systemChars: 3_163,
	prompts: 1,
	turnsPerPrompt: 6,
	maxBatch: 1,
	writeShare: 0,
	thinking: { chars: 941, share: 1 },
	compaction: { threshold: true, reserve: 0.2221849792735389, keep: 0.05 },
	stepShare: 0.1,
	sized: [
		{ turn: 1, share: 0.3395976538844109 },
		{ turn: 5, share: 0.2692540296759882 },
	],
	huge: null,
	hugeBatch: 1,
	human: [
		{ turn: 4, step: { kind: "command", command: { verb: "fold", from: "call_2_0", to: "call_2_0" } } },
		{
			turn: 5,
			step: {
				kind: "command",
				command: { verb: "fold", from: "call_0_0", to: "call_4_0", brief: "the human folds this" },
			},
		},
		{ turn: 3, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_2_0" } } },
		{ turn: 2, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } },
		{
			turn: 2,
			step: {
				kind: "command",
				command: { verb: "fold", from: "call_0_0", to: "call_1_0", brief: "the human folds this" },
			},
		},
		{
			turn: 4,
			step: {
				kind: "command",
				command: { verb: "fold", from: "call_2_0", to: "call_3_0", brief: "the human folds this" },
			},
		},
	],
};

/** The fold tree at the session's end, replayed as the sweep does. */
async function finalLattice(shape: Shape): Promise<Lattice> {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling: "cost", summarizer: "deterministic" }), () => store);
	const session = new SimSession({ model: modelOf(shape), systemPrompt: systemPromptOf(shape) });
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	await drive(runtime, session, messagesOf(shape), { compaction: compactionOf(shape) });
	return runtime.snapshot(host).lattice;
}

/** Ten plain entries and a record over [start, end) made by `origin`. */
const entries: TranscriptEntry[] = Array.from({ length: 10 }, (_, i) =>
	i % 2 === 0 ? user(`u${i}`, `question ${i}`) : reply(`a${i}`, `answer ${i}`),
);
function record(start: number, end: number, origin: FoldRecord["origin"], kind: FoldRecord["kind"]): FoldRecord {
	const leaves = entries.slice(start, end);
	return {
		id: foldId(leaves),
		kind,
		origin,
		leafIds: leaves.map((e) => e.id),
		sourceSha256: "b".repeat(64),
		sourceBytes: 100,
		brief: "brief text",
		briefSource: "deterministic",
	};
}
/** Six folds, each around the last: [0,1), [0,2), ... [0,6). Five levels of spans over a tool fold. */
function chain(origin: FoldRecord["origin"]): FoldRecord[] {
	return Array.from({ length: 6 }, (_, k) => record(0, k + 1, origin, k === 0 ? "tools" : "span"));
}

describe("the fold tree's depth bound", () => {
	it("the human's six nested folds stay as the human made them (the shape still builds them)", async () => {
		const lattice = await finalLattice(nested);
		expect(lattice.inOrder()).toHaveLength(6);
		expect(lattice.inOrder().every((f) => f.record.origin === "agent")).toBe(true);
		expect(foldLevels(lattice)).toBe(5);
	});

	for (const mode of ["cost", "immediate", "epoch"] as const)
		it(`does not count the human's own nested folds against pi-fold (${mode})`, async () => {
			expect((await sweep(nested, mode)).problems).toEqual([]);
		});

	it("still fails a chain the ladder built, and passes the same chain the human or agent built", () => {
		const ladder = depthProblem(Lattice.build(entries, chain("ladder")));
		expect(ladder).toMatch(
			/^pi-fold's folds are 6 levels deep on one chain .* over 6 folds exceeds log2\(folds\) \+ 2 = 4\.58/,
		);
		expect(depthProblem(Lattice.build(entries, chain("agent")))).toBeNull();
	});

	it("counts the ladder's levels over the human's: a ladder chain around a human fold still fails", () => {
		// The human's fold at the bottom, five ladder folds each around the last above it.
		const records = chain("ladder").map((r, k) => (k === 0 ? { ...r, origin: "agent" as const } : r));
		expect(depthProblem(Lattice.build(entries, records))).toMatch(/pi-fold's folds are 5 levels deep/);
		// A ladder consolidation over the human's chain adds one level of pi-fold's: within the bound.
		const over = [...chain("agent"), record(0, 8, "ladder", "consolidation"), record(6, 8, "agent", "span")];
		expect(depthProblem(Lattice.build(entries, over))).toBeNull();
	});
});
