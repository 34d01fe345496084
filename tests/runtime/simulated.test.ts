// The runtime with no Pi at all: a plain script (src/simulate) feeds it synthetic transcripts at
// several window sizes, many sessions per run. Each session completes, every rewrite the provider
// sees is attributed to a commit (between commits every request is the previous one plus appended
// messages), the window stays inside the serving budget once pi-fold folds, and every fold's stored
// source is the exact bytes of its entries.

import { describe, expect, it } from "vitest";
import { foldSource } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import { budgetFor } from "../../src/policy/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession, syntheticSession } from "../../src/simulate/index.ts";

const WINDOWS = [64_000, 128_000, 200_000, 1_000_000];
const SEEDS = 12;

async function run(window: number, seed: number, foldScheduling: "immediate" | "epoch") {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling, summarizer: "deterministic" }), () => store);
	const model = { contextWindow: window, maxTokens: 8_192 };
	const session = new SimSession({ model });
	const messages = syntheticSession({
		seed,
		prompts: 3,
		turnsPerPrompt: 10 + (seed % 7) * 4,
		resultChars: [1_500, 9_000 + seed * 500],
	});
	const result = await drive(runtime, session, messages);
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	return { runtime, session, result, store, host, budget: budgetFor(model, undefined).budgetTokens };
}

describe("the runtime driven without Pi", () => {
	it(`replays ${WINDOWS.length * SEEDS * 2} synthetic sessions: complete, every rewrite attributed, inside the budget`, async () => {
		let commits = 0;
		for (const window of WINDOWS)
			for (let seed = 1; seed <= SEEDS; seed++)
				for (const mode of ["immediate", "epoch"] as const) {
					const { runtime, result, budget } = await run(window, seed, mode);
					const label = `${mode} window ${window} seed ${seed}`;
					expect(result.stopped, label).toBe(false);
					expect(result.errors, label).toEqual([]);
					expect(runtime.telemetry.view().counters.unattributedRewrites, label).toBe(0);
					for (const r of result.requests) if (r.kind === "rewrite") expect(r.cause, label).not.toBeNull();
					// The fold store can hold every request; the budget holds them once the ladder has a commit behind it.
					const first = result.requests.findIndex((r) => r.kind === "rewrite");
					for (const r of first < 0 ? [] : result.requests.slice(first))
						expect(r.promptTokens, label).toBeLessThanOrEqual(budget * 1.05);
					commits += result.requests.filter((r) => r.kind === "rewrite").length;
				}
		expect(commits).toBeGreaterThan(WINDOWS.length * SEEDS);
	});

	it("stores every fold's source as the exact bytes of its entries", async () => {
		const { runtime, store, host } = await run(64_000, 3, "epoch");
		const snap = runtime.snapshot(host);
		expect(snap.state.folds.size).toBeGreaterThan(0);
		for (const fold of snap.state.folds.values()) {
			const leaves = snap.view.transcript.filter((e) => fold.leafIds.includes(e.id));
			expect(await store.read(fold.sourceSha256, fold.id)).toBe(foldSource(leaves));
		}
	});
});
