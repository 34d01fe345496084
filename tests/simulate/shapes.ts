// Test helper: the session shapes of the randomized sweep, as fast-check arbitraries, and a shape
// turned into what the simulator replays. A shape names a window (16k to 1M tokens), an output
// reservation, a system prompt, the tokens one tool step adds (as a share of the serving budget),
// parallel batch sizes, thinking blocks, results larger than the fresh tail's share (and, rarely,
// one larger than the whole window), the human's `/fold-context` commands and manual `/compact`s
// between and during runs, and Pi's native compaction settings. Plain data; no Pi. An oversized
// batch (one result larger than the window, or a parallel read of two to four files that together
// are) comes at any window, 16k to 1M.

import fc from "fast-check";
import type { CompactionSettings, HumanStep, ReplayMessage } from "../../src/simulate/index.ts";
import { syntheticSession } from "../../src/simulate/index.ts";

export type Mode = "cost" | "immediate" | "epoch";

export interface Shape {
	readonly seed: number;
	readonly window: number;
	readonly maxTokens: number;
	readonly systemChars: number;
	readonly prompts: number;
	readonly turnsPerPrompt: number;
	readonly maxBatch: number;
	/** Tokens one tool turn adds, as a share of the serving budget. */
	readonly stepShare: number;
	readonly writeShare: number;
	readonly thinking: { readonly chars: number; readonly share: number } | null;
	/** Turns whose first result is this share of the budget (above the fresh tail's 25%). */
	readonly sized: readonly { readonly turn: number; readonly share: number }[];
	/** A turn whose batch is larger than the whole window (pi-fold must show it as excerpts), or null. */
	readonly huge: number | null;
	/** Results in that batch: absent or 1, one result larger than the window; more, a parallel read that together is. */
	readonly hugeBatch?: number;
	readonly human: readonly { readonly turn: number; readonly step: HumanStep }[];
	/**
	 * Pi's compaction settings as shares of the window: `threshold` turns Pi's automatic compaction on;
	 * `keep` is what any compaction keeps raw (a manual /compact too).
	 */
	readonly compaction: { readonly threshold: boolean; readonly reserve: number; readonly keep: number };
}

/** The parts of a hand-written shape most tests leave plain: no system prompt, writes, sized or huge results, human steps, thinking, or Pi's threshold compaction. */
export const PLAIN_SHAPE = {
	maxTokens: 4_096,
	systemChars: 0,
	writeShare: 0,
	sized: [],
	huge: null,
	human: [],
	thinking: null,
	compaction: { threshold: false, reserve: 0.2, keep: 0.1 },
} as const satisfies Partial<Shape>;

/** Windows log-uniform between 16k and 1M (unbiased: fast-check would favour the bounds). */
const windowArb = fc
	.noBias(fc.integer({ min: 0, max: 1_000 }))
	.map((x) => Math.round(16 * (1_000 / 16) ** (x / 1_000)) * 1_000);

/** Windows above this get shorter sessions: each request costs what the window holds. */
const LARGE_WINDOW = 250_000;

/** Largest share of the budget one tool step adds (a batch plus a sized result stays under the window). */
const MAX_STEP_SHARE = 0.1;

const WORDS = ["alpha", "gamma", "sigma", "src/file-3", "nothing-matches-this"];

function stepArb(turns: number): fc.Arbitrary<{ turn: number; step: HumanStep }> {
	const turn = fc.integer({ min: 1, max: Math.max(1, turns - 1) });
	return turn.chain((t) =>
		fc
			.oneof(
				{ weight: 1, arbitrary: fc.constant<HumanStep>({ kind: "compact" }) },
				{
					weight: 4,
					arbitrary: fc
						.tuple(fc.nat({ max: t - 1 }), fc.nat({ max: t - 1 }), fc.boolean())
						.map(([a, b, brief]): HumanStep => {
							const [from, to] = a <= b ? [a, b] : [b, a];
							const command = { verb: "fold" as const, from: `call_${from}_0`, to: `call_${to}_0` };
							return { kind: "command", command: brief ? { ...command, brief: "the human folds this" } : command };
						}),
				},
				{
					weight: 3,
					arbitrary: fc
						.tuple(fc.constantFrom("expand", "refold", "peek", "unmark") as fc.Arbitrary<"expand">, fc.nat(7))
						.map(([verb, pick]): HumanStep => ({ kind: "command", command: { verb, pick } })),
				},
				{
					weight: 1,
					arbitrary: fc
						.constantFrom(...WORDS)
						.map((text): HumanStep => ({ kind: "command", command: { verb: "search", text } })),
				},
			)
			.map((step) => ({ turn: t, step })),
	);
}

/**
 * Session shapes; `hugeWeight` of 100 runs carry a batch larger than the window. A session adds
 * `fill` budgets of tool results over its turns (so every window folds), in fewer turns above
 * LARGE_WINDOW.
 */
export function shapeArb(hugeWeight = 12): fc.Arbitrary<Shape> {
	return fc
		.record({
			seed: fc.integer({ min: 1, max: 0x7fff_ffff }),
			window: windowArb,
			maxTokens: fc.constantFrom(2_048, 4_096, 8_192, 16_384, 32_000),
			systemChars: fc.integer({ min: 0, max: 12_000 }),
			prompts: fc.integer({ min: 1, max: 4 }),
			turnsPerPrompt: fc.integer({ min: 3, max: 14 }),
			fill: fc.double({ min: 0.6, max: 3, noNaN: true }),
			maxBatch: fc.integer({ min: 1, max: 8 }),
			writeShare: fc.double({ min: 0, max: 0.3, noNaN: true }),
			thinking: fc.option(
				fc.record({ chars: fc.integer({ min: 50, max: 4_000 }), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
			),
			compaction: fc.record({
				threshold: fc.boolean(),
				reserve: fc.double({ min: 0.05, max: 0.3, noNaN: true }),
				keep: fc.double({ min: 0.05, max: 0.3, noNaN: true }),
			}),
			hugeRoll: fc.noBias(fc.integer({ min: 0, max: 99 })),
		})
		.map(({ fill, ...base }) => {
			const large = base.window > LARGE_WINDOW;
			const prompts = large ? Math.min(base.prompts, 2) : base.prompts;
			const turnsPerPrompt = large ? Math.min(base.turnsPerPrompt, 6) : base.turnsPerPrompt;
			// A batch holds up to ~3 steps' worth: capped so that no unit but the huge one outgrows the window.
			return {
				...base,
				prompts,
				turnsPerPrompt,
				stepShare: Math.min(MAX_STEP_SHARE, fill / (prompts * turnsPerPrompt)),
			};
		})
		.chain((base) => {
			const turns = base.prompts * base.turnsPerPrompt;
			return fc
				.record({
					sized: fc.array(
						fc.record({
							turn: fc.integer({ min: 0, max: turns - 1 }),
							share: fc.double({ min: 0.26, max: 0.6, noNaN: true }),
						}),
						{ maxLength: 3 },
					),
					huge: fc.integer({ min: 0, max: turns - 1 }),
					hugeBatch: fc.integer({ min: 1, max: 4 }),
					human: fc.array(stepArb(turns), { maxLength: 6 }),
				})
				.map(({ sized, huge, hugeBatch, human }) => {
					const { hugeRoll, ...rest } = base;
					const withHuge = hugeRoll < hugeWeight;
					return { ...rest, sized, huge: withHuge ? huge : null, hugeBatch, human };
				});
		});
}

/** The size unit of a shape: the window less the model's output cap (pi-fold's budget keeps less when the cap is above Pi's reserve). */
export function budgetOf(shape: Shape): number {
	const model = modelOf(shape);
	return model.contextWindow - model.maxTokens;
}

/** The model the session describes. */
export function modelOf(shape: Shape): { contextWindow: number; maxTokens: number } {
	return { contextWindow: shape.window, maxTokens: Math.min(shape.maxTokens, Math.floor(shape.window / 4)) };
}

/** Pi's compaction settings of a shape. */
export function compactionOf(shape: Shape): CompactionSettings {
	return {
		enabled: shape.compaction.threshold,
		reserveTokens: Math.round(shape.window * shape.compaction.reserve),
		keepRecentTokens: Math.round(shape.window * shape.compaction.keep),
	};
}

/** The messages a shape replays; `tools` names the read-only and the write tool. */
export function messagesOf(shape: Shape, tools?: { read: string; write: string }): ReplayMessage[] {
	const budget = budgetOf(shape);
	const perResult = (budget * shape.stepShare * 4) / ((shape.maxBatch + 1) / 2);
	const sized = shape.sized.map((s) => ({ turn: s.turn, chars: Math.round(budget * s.share * 4) }));
	const huge = shape.huge === null ? [] : [{ turn: shape.huge, ...hugeResults(shape) }];
	return syntheticSession({
		seed: shape.seed,
		prompts: shape.prompts,
		turnsPerPrompt: shape.turnsPerPrompt,
		maxBatch: shape.maxBatch,
		resultChars: [Math.round(perResult * 0.5), Math.round(perResult * 1.5)],
		writeShare: shape.writeShare,
		thinkingChars: shape.thinking?.chars ?? 0,
		thinkingShare: shape.thinking?.share ?? 0,
		sized: [...huge, ...sized],
		human: shape.human,
		...(tools ? { tools } : {}),
	});
}

/**
 * The oversized batch's results: one of twice the window's characters-worth of tokens, or `hugeBatch`
 * results that are together 1.5 windows (each may fit alone; the batch does not).
 */
export function hugeResults(shape: Shape): { chars: number; batch?: number } {
	const batch = shape.hugeBatch ?? 1;
	if (batch <= 1) return { chars: Math.round(shape.window * 4 * 2) };
	return { chars: Math.round((shape.window * 4 * 1.5) / batch), batch };
}

/** The system prompt of a shape. */
export function systemPromptOf(shape: Shape): string {
	return "You are a coding agent. ".repeat(Math.ceil(shape.systemChars / 24)).slice(0, shape.systemChars);
}
