// The simulator's native compaction is Pi's: on the entries of simulated sessions (pi-fold's folds
// and receipts, thinking blocks, earlier compactions), at every prefix of the branch, the simulator's
// context estimate, threshold estimate and prepared cut equal what Pi's own
// estimateProjectedContextTokens and prepareCompaction compute on the same entries.

import { buildSessionProjection, type SessionEntry } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import {
	estimateProjectedContextTokens,
	prepareCompaction as piPrepare,
} from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/compaction/compaction.js";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import {
	type CompactionSettings,
	drive,
	MemoryStore,
	prepareCompaction,
	projectedContextTokens,
	SimSession,
	syntheticSession,
} from "../../src/simulate/index.ts";
import { asPi } from "./pi-entries.ts";

async function session(seed: number, settings: CompactionSettings) {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(
		resolveOptions({ foldScheduling: "epoch", summarizer: "deterministic" }),
		() => store,
	);
	const sim = new SimSession({ model: { contextWindow: 24_000, maxTokens: 2_048 } });
	const messages = syntheticSession({
		seed,
		prompts: 3,
		turnsPerPrompt: 6,
		resultChars: [1_000, 6_000],
		thinkingChars: 300,
		thinkingShare: 0.5,
		human: [{ turn: 12, step: { kind: "compact" } }],
	});
	const result = await drive(runtime, sim, messages, { compaction: settings });
	return { entries: sim.entries, usage: result.usage, compactions: result.compactions };
}

function piPlan(entries: readonly SessionEntry[], settings: CompactionSettings) {
	const plan = piPrepare(entries as SessionEntry[], settings);
	if (!plan) return undefined;
	return {
		firstKeptEntryId: plan.firstKeptEntryId,
		tokensBefore: plan.tokensBefore,
		summarized: plan.messagesToSummarize.length + plan.turnPrefixMessages.length,
	};
}

describe("the simulator's native compaction", () => {
	for (const [seed, keep] of [
		[1, 2_000],
		[2, 5_000],
		[4, 9_000],
	] as const) {
		const settings = { enabled: true, reserveTokens: 6_000, keepRecentTokens: keep };
		it(`estimates and cuts as Pi does at every prefix (seed ${seed}, keepRecentTokens ${keep})`, async () => {
			const { entries, usage, compactions } = await session(seed, settings);
			expect(compactions.some((c) => c.decision === "passed")).toBe(true);
			expect(entries.some((e) => e.type === "context_edit")).toBe(true);
			for (let n = 1; n <= entries.length; n++) {
				const prefix = entries.slice(0, n);
				const pi = asPi(prefix, usage);
				const input = { entries: prefix, usage, systemPrompt: "" };
				const projection = buildSessionProjection(pi, pi.at(-1)?.id ?? null, new Map(pi.map((e) => [e.id, e])));
				expect(projectedContextTokens(input), `prefix ${n}`).toBe(
					estimateProjectedContextTokens(projection, pi).tokens,
				);
				expect(prepareCompaction(input, settings), `prefix ${n}`).toEqual(piPlan(pi, settings));
			}
		});
	}
});
