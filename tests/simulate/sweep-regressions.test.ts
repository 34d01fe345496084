// Regressions the randomized sweep (randomized.test.ts) found, each pinned on the session that
// showed it (docs/runtime.md, "The randomized sweep"):
// - the fence took a commit's receipt for the newest unit and let a batch larger than the window out;
// - after a native compaction every later mark was refused, so epoch and cost never folded again;
// - after a compaction the chapter rung proposed a chapter holding Pi's summary, which cannot fold:
//   commits freed a fraction of what they planned and the window overflowed;
// - a compaction kept a tool result pi-fold had omitted but not its call, and a commit restored it;
// - an expand restored more than the window holds; one that fitted when decided landed after a
//   large result, unseen by the rescue;
// - a mark waiting in the fresh tail was the rescue's only span, so nothing folded;
// - consolidation merged two excerpts of one oversized batch, so one call was left without its result;
// - after Pi's compaction kept a batch's results but not its call, the human folded a span starting at
//   one: its brief went out as a result with no call;
// - (the checker's) an expand the human covered with a fold of their own in the same commit was taken
//   for a broken promise.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { chapterProposals, ladderInput, windowTokens } from "../../src/policy/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { newestUnitStart } from "../../src/runtime/request-estimate.ts";
import {
	type CompactionSettings,
	drive,
	MemoryStore,
	type ReplayMessage,
	SimSession,
	syntheticSession,
} from "../../src/simulate/index.ts";
import type { Mode, Shape } from "./shapes.ts";
import { sweep } from "./sweep.ts";

type CommitData = { kind?: string; applied?: string[]; refused?: { foldId: string; reason: string }[] };

async function run(
	mode: Mode,
	window: number,
	messages: readonly ReplayMessage[],
	compaction?: CompactionSettings,
	maxTokens = 2_048,
) {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling: mode, summarizer: "deterministic" }), () => store);
	const session = new SimSession({ model: { contextWindow: window, maxTokens } });
	const requests: number[] = [];
	const result = await drive(runtime, session, messages, {
		...(compaction ? { compaction } : {}),
		onRequest: (r) => void requests.push(r.promptTokens),
	});
	return { runtime, session, result, requests };
}

describe("found by the randomized sweep", () => {
	it("the fence counts a tool batch as the newest unit when a commit receipt follows it", async () => {
		const receipt = { role: "custom", customType: "pi-fold:receipt", content: "[commit #1]", display: false };
		const call = { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: {} }] };
		const result = { role: "toolResult", toolCallId: "c1", toolName: "read", content: [] };
		expect(newestUnitStart([{ role: "user", content: "go" }, call, result, receipt])).toBe(1);
		// Seed 2147483628 of the sweep, with its oversized read made one no excerpt can shrink: 96
		// parallel results of ~400 tokens each (under an excerpt's minimum), ~35,000 tokens together at
		// a 16k window; the turn's commit lands its receipt after the batch, and the request carrying the
		// batch must still be stopped.
		const messages = syntheticSession({
			seed: 2_147_483_628,
			prompts: 1,
			turnsPerPrompt: 4,
			maxBatch: 8,
			resultChars: [100, 300],
			writeShare: 0,
			sized: [{ turn: 2, chars: 1_600, batch: 96 }],
		});
		const { result: out, session } = await run("cost", 16_000, messages, undefined, 4_000);
		expect(out.stopped).toBe(true);
		expect(out.fence).toMatch(
			/^(the result of read|one batch of \d+ results of read): ~[\d,]+ tokens by itself, larger than the whole 16,000-token/,
		);
		expect(session.entries.at(-1)?.type).toBe("custom_message");
	});

	for (const mode of ["epoch", "cost"] as const) {
		it(`keeps folding after a native compaction took folds' entries out of the context (${mode})`, async () => {
			const messages = syntheticSession({
				seed: 7,
				prompts: 4,
				turnsPerPrompt: 6,
				resultChars: [1_000, 6_000],
				human: [{ turn: 12, step: { kind: "compact" } }],
			});
			const manualOnly = { enabled: false, reserveTokens: 4_000, keepRecentTokens: 3_000 };
			const { runtime, session, result, requests } = await run(mode, 16_000, messages, manualOnly);
			expect(result.compactions).toMatchObject([{ reason: "manual", decision: "passed" }]);
			const at = session.entries.findIndex((e) => e.type === "compaction");
			const commits = session.entries
				.slice(at)
				.flatMap((e) =>
					e.type === "custom" && e.customType === runtime.names.decisionEntryType ? [e.data as CommitData] : [],
				)
				.filter((d) => d.kind === "commit");
			// Folds were in force and the compaction took some of their entries out of the context...
			expect(session.entries.slice(0, at).some((e) => e.type === "context_edit")).toBe(true);
			// ...and the marks placed after it still apply: none refused for those folds, the window held.
			expect(commits.some((c) => (c.applied ?? []).length > 0)).toBe(true);
			expect(commits.flatMap((c) => c.refused ?? []).filter((r) => /not on this branch/.test(r.reason))).toEqual([]);
			expect(Math.max(...requests)).toBeLessThanOrEqual(16_000 - 2_048);
		});
	}

	it("keeps the window when the human expands an outer fold holding an expanded one", async () => {
		// Seed 1610254021 of the sweep (epoch, 174k window): the human expanded an inner fold, marked a
		// span around it, then expanded that; the commit restored both and the next request carried
		// 247k tokens. The expand is now refused for want of room (admission.ts, on main alongside).
		const shape: Shape = {
			seed: 1_610_254_021,
			window: 174_000,
			maxTokens: 2_048,
			systemChars: 6,
			prompts: 1,
			turnsPerPrompt: 14,
			maxBatch: 7,
			stepShare: 0.1399999999999996,
			writeShare: 0,
			thinking: null,
			compaction: { threshold: false, reserve: 0.2, keep: 0.1 },
			sized: [],
			huge: null,
			human: [
				{ turn: 6, step: { kind: "command", command: { verb: "expand", pick: 6 } } },
				{ turn: 4, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_3_0" } } },
				{ turn: 1, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } },
				{ turn: 10, step: { kind: "command", command: { verb: "expand", pick: 3 } } },
			],
		};
		const out = await sweep(shape, "epoch");
		expect(out.problems).toEqual([]);
	});

	it("proposes no chapter holding a compaction's summary, so a commit frees what it planned", async () => {
		// Seed 168407921 of the sweep (cost, 16k window, a manual /compact mid-session): every commit after
		// the compaction planned the chapter opening with the summary, dropped it, and the window overflowed.
		const shape: Shape = {
			seed: 168_407_921,
			window: 16_000,
			maxTokens: 2_048,
			systemChars: 10,
			prompts: 4,
			turnsPerPrompt: 12,
			maxBatch: 7,
			stepShare: 0.14,
			writeShare: 0,
			thinking: null,
			compaction: { threshold: true, reserve: 0.15, keep: 0.29 },
			sized: [],
			huge: null,
			human: [
				{ turn: 19, step: { kind: "compact" } },
				{ turn: 4, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_2_0" } } },
			],
		};
		const out = await sweep(shape, "cost");
		expect(out.compactions).toBeGreaterThan(0);
		expect(out.problems).toEqual([]);
	});

	it("the chapter rung never proposes a span holding Pi's compaction summary", async () => {
		const messages = syntheticSession({
			seed: 7,
			prompts: 4,
			turnsPerPrompt: 6,
			resultChars: [1_000, 6_000],
			human: [{ turn: 12, step: { kind: "compact" } }],
		});
		const manualOnly = { enabled: false, reserveTokens: 4_000, keepRecentTokens: 3_000 };
		const { runtime, session } = await run("cost", 16_000, messages, manualOnly);
		const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
		const snap = runtime.snapshot(host);
		const summary = snap.view.transcript.findIndex((e) => e.message.role === "compactionSummary");
		expect(summary).toBe(0);
		const input = ladderInput(snap, runtime.options, windowTokens(snap), 1);
		expect(input.chapters.some((c) => c.closed && c.startUnit === 0)).toBe(true);
		expect(chapterProposals(input).filter((p) => p.start <= summary && summary < p.end)).toEqual([]);
	});

	it("keeps omitted a tool result whose call a compaction took away", async () => {
		// Seed 1131169250 of the sweep (immediate, 16k window, two manual /compacts): Pi's cut point steps
		// back over entries that project nothing, so the second compaction kept an omitted result of a
		// fold without the call before it; the fold no longer placed, pi-fold restored the result.
		const shape: Shape = {
			seed: 1_131_169_250,
			window: 16_000,
			maxTokens: 2_048,
			systemChars: 2_665,
			prompts: 4,
			turnsPerPrompt: 7,
			maxBatch: 1,
			stepShare: 0.0224,
			writeShare: 0,
			thinking: null,
			compaction: { threshold: true, reserve: 0.3, keep: 0.0589 },
			sized: [
				{ turn: 13, share: 0.5535 },
				{ turn: 17, share: 0.345 },
			],
			huge: null,
			human: [
				{ turn: 16, step: { kind: "compact" } },
				{ turn: 8, step: { kind: "command", command: { verb: "fold", from: "call_1_0", to: "call_2_0" } } },
				{ turn: 9, step: { kind: "compact" } },
			],
		};
		const out = await sweep(shape, "immediate");
		expect(out.compactions).toBe(2);
		expect(out.problems).toEqual([]);
	});

	for (const mode of ["immediate", "cost"] as const) {
		it(`counts what a commit restores when it decides whether the rescue must join it (${mode})`, async () => {
			// Seed 1158482545 of the sweep (cost, 684k window) expanded a fold while the window had room;
			// a large result came in before the commit, which restored the fold on top of it (798k
			// tokens sent). Here: the first result folded, expanded with room, and a result of 85% of
			// the budget arriving in the same turn.
			const shape: Shape = {
				seed: 5,
				window: 64_000,
				maxTokens: 2_048,
				systemChars: 0,
				prompts: 1,
				turnsPerPrompt: 8,
				maxBatch: 1,
				stepShare: 0.02,
				writeShare: 0,
				thinking: null,
				compaction: { threshold: false, reserve: 0.2, keep: 0.1 },
				sized: [
					{ turn: 0, share: 0.35 },
					{ turn: 6, share: 0.85 },
				],
				huge: null,
				human: [
					{ turn: 3, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } },
					{ turn: 6, step: { kind: "command", command: { verb: "expand", pick: 0 } } },
				],
			};
			const out = await sweep(shape, mode);
			expect(out.commands).toBe(2);
			expect(out.problems).toEqual([]);
		});
	}

	for (const mode of ["cost", "epoch"] as const) {
		it(`lands a mark waiting in the fresh tail with the rescue (${mode})`, async () => {
			// Seed 547634409 of the sweep (64k window): the human marked the first batch while it was in the
			// fresh tail; two large batches later the rescue's only span was exactly that mark, so it
			// proposed nothing, the mark kept waiting, and an 85k-token request went out.
			const shape: Shape = {
				seed: 547_634_409,
				window: 64_000,
				maxTokens: 2_048,
				systemChars: 12,
				prompts: 1,
				turnsPerPrompt: 5,
				maxBatch: 6,
				stepShare: 0.2474587455819092,
				writeShare: 0,
				thinking: { chars: 2_027, share: 0 },
				compaction: { threshold: true, reserve: 0.267, keep: 0.132 },
				sized: [
					{ turn: 0, share: 0.26 },
					{ turn: 1, share: 0.5961468492887482 },
				],
				huge: null,
				human: [{ turn: 1, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_0_0" } } }],
			};
			const out = await sweep(shape, mode);
			expect(out.problems).toEqual([]);
		});
	}
	for (const mode of ["immediate", "epoch"] as const) {
		it(`never merges two excerpts of one batch into a fold that answers one call for two (${mode})`, async () => {
			// Seed 24 of the sweep (97k window, a batch of four results seven times the window): at 85% the
			// consolidation rung merged the first two results' excerpts, and the request showed one result
			// for calls call_7_0 and call_7_1. Only folds of whole units merge now (src/policy ladder.ts).
			const shape: Shape = {
				seed: 24,
				window: 97_000,
				maxTokens: 4_096,
				systemChars: 4_599,
				prompts: 2,
				turnsPerPrompt: 5,
				maxBatch: 1,
				stepShare: 0.1,
				writeShare: 0,
				thinking: { chars: 53, share: 0 },
				compaction: { threshold: true, reserve: 0.05, keep: 0.15077267409225037 },
				sized: [],
				huge: 7,
				hugeBatch: 4,
				human: [],
			};
			const out = await sweep(shape, mode);
			expect(out.excerpts).toBeGreaterThan(1);
			expect(out.problems).toEqual([]);
		});
	}
	it("never starts a fold at a result whose call Pi's compaction summarized", async () => {
		// Seed 1007916340 of the sweep (seed 7's run, immediate, 17k window): Pi's compaction cut one entry
		// past an omitted assistant, keeping step 7's results (omitted) but not their call; the human's
		// `fold call_7_0 call_17_0` then put its brief on the first result, which went out with no call.
		// A span may not start at such a result now (src/policy span-rules.ts).
		const shape: Shape = {
			seed: 1_007_916_340,
			window: 17_000,
			maxTokens: 32_000,
			systemChars: 3_515,
			prompts: 4,
			turnsPerPrompt: 11,
			maxBatch: 6,
			stepShare: 0.02267196456894488,
			writeShare: 0,
			thinking: { chars: 60, share: 0 },
			compaction: { threshold: true, reserve: 0.09781398024772721, keep: 0.3 },
			sized: [],
			huge: null,
			hugeBatch: 2,
			human: [
				{ turn: 13, step: { kind: "command", command: { verb: "peek", pick: 5 } } },
				{
					turn: 3,
					step: {
						kind: "command",
						command: { verb: "fold", from: "call_2_0", to: "call_2_0", brief: "the human folds this" },
					},
				},
				{ turn: 24, step: { kind: "compact" } },
				{ turn: 31, step: { kind: "command", command: { verb: "fold", from: "call_16_0", to: "call_30_0" } } },
				{
					turn: 25,
					step: {
						kind: "command",
						command: { verb: "fold", from: "call_4_0", to: "call_5_0", brief: "the human folds this" },
					},
				},
				{
					turn: 39,
					step: {
						kind: "command",
						command: { verb: "fold", from: "call_7_0", to: "call_17_0", brief: "the human folds this" },
					},
				},
			],
		};
		const out = await sweep(shape, "immediate");
		expect(out.compactions).toBeGreaterThan(0);
		expect(out.problems).toEqual([]);
	});

	for (const mode of ["cost", "epoch"] as const) {
		it(`lets the human cover their own expand with a fold in the same commit (${mode})`, async () => {
			// Seed 1886854594 of the sweep (seed 7's run, 152k window): the human expanded a fold, then folded
			// a span around it before the next boundary; the commit landed both, so the expand shows inside
			// the human's collapsed fold, as the human asked. The checker took it for a broken promise.
			const shape: Shape = {
				seed: 1_886_854_594,
				window: 152_000,
				maxTokens: 16_384,
				systemChars: 11_998,
				prompts: 1,
				turnsPerPrompt: 7,
				maxBatch: 2,
				stepShare: 0.1,
				writeShare: 0,
				thinking: { chars: 3_042, share: 0 },
				compaction: { threshold: true, reserve: 0.09283830259281035, keep: 0.08801371854324447 },
				sized: [
					{ turn: 4, share: 0.30143669784732546 },
					{ turn: 1, share: 0.4362414979948039 },
					{ turn: 2, share: 0.4468429694723529 },
				],
				huge: null,
				hugeBatch: 2,
				human: [
					{ turn: 5, step: { kind: "command", command: { verb: "expand", pick: 0 } } },
					{ turn: 3, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_1_0" } } },
					{ turn: 4, step: { kind: "command", command: { verb: "expand", pick: 6 } } },
					{ turn: 3, step: { kind: "command", command: { verb: "fold", from: "call_1_0", to: "call_1_0" } } },
					{ turn: 5, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_4_0" } } },
				],
			};
			const out = await sweep(shape, mode);
			expect(out.problems).toEqual([]);
		});
	}
});
