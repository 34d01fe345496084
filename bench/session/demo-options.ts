// Options of the offline session benchmark (`pi-fold demo`): one zod schema, documented defaults.
// Pure values; the CLI parses flags into this shape and `runDemo` validates it.

import { z } from "zod";
import { budgetFor } from "../../src/policy/index.ts";
import { PRICES } from "./ledger.ts";

/** Stages in the staged plan. Default 64, as in the spec's measured run. */
/**
 * The benchmark's plan shapes, as reuse-plan.ts's PLAN_SHAPES (kept apart so the demo's command line
 * loads no plan code; tests/bench/session/reuse.test.ts checks they agree).
 */
export const PLAN_SHAPES = ["standard", "recall-every-four"] as const;

export const DEFAULT_STAGES = 64;
/**
 * Serving context window of the faux model, in faux tokens (characters / 4). Default 372,000: the cap the spec's
 * provider actually served, so native compaction lives between its keep-recent floor and 372k while the long-context
 * price tier starts at 272,000 (see `LONG_CONTEXT_THRESHOLD`). A 64-stage plan carries about twice this window.
 */
export const DEFAULT_WINDOW = 372_000;
/** Seed of the plan (keys, receipts, file choice, probe targets). Default "pi-fold". */
export const DEFAULT_SEED = "pi-fold";
/** Characters of file bodies handed out per stage. Default 48,000 (about 12,000 faux tokens). */
export const DEFAULT_STAGE_CHARS = 48_000;
/** Arms run by default, in order. */
export const DEFAULT_ARMS: readonly string[] = [
	"native",
	"native-tuned",
	"pifold-ladder",
	"pifold-agent",
	"pifold-immediate",
	"pifold-epoch",
];
/** The windows of `--sweep`: the common context sizes, from a small local model's to a 1M-token one's. */
export const SWEEP_WINDOWS: readonly number[] = [60_000, 120_000, 200_000, 272_000, 372_000, 1_000_000];

/** Output token cap of the faux model; Pi reserves it for replies and summaries. Default 16,384. */
export const DEFAULT_MAX_TOKENS = 16_384;

/**
 * pi-fold's total window in the default pi-fold arms: the model's window, as pi-fold is installed (no
 * `providerTotalWindow` override; since issue 20). Cost scheduling has to avoid the long-context tier on its own.
 */
export function pifoldTotalWindow(window: number): number {
	return window;
}

/**
 * The total window of the arm pinned to the spec's transport descriptor (`pifold-agent-272k`, not a default arm):
 * 272,000, where the long-context tier starts, passed as `providerTotalWindow`.
 */
export function pinnedTotalWindow(window: number): number {
	return Math.min(window, PRICES.longContextThreshold);
}

/**
 * pi-fold's serving budget in the default pi-fold arms, as the runtime derives it: its total window
 * less the room kept for a reply (Pi's default reserve, or the model's output cap when smaller).
 */
export function pifoldServingBudget(window: number, maxTokens: number): number {
	return budgetFor({ contextWindow: pifoldTotalWindow(window), maxTokens }, undefined).budgetTokens;
}

export const demoOptionsSchema = z.object({
	stages: z.number().int().min(4).max(512).default(DEFAULT_STAGES),
	arms: z
		.array(z.string().min(1))
		.min(1)
		.default(() => [...DEFAULT_ARMS]),
	window: z.number().int().min(16_000).max(4_000_000).default(DEFAULT_WINDOW),
	seed: z.string().min(1).default(DEFAULT_SEED),
	stageChars: z.number().int().min(2_000).max(400_000).default(DEFAULT_STAGE_CHARS),
	maxTokens: z.number().int().min(1_024).default(DEFAULT_MAX_TOKENS),
	/** Later stages reuse facts from files read many stages earlier (reuse-plan.ts). Default on. */
	reuse: z.boolean().default(true),
	/** "standard", or "recall-every-four": every fourth stage a fact from a file read twelve stages earlier. */
	shape: z.enum(PLAN_SHAPES).default("standard"),
	/** Results folder; default `results/demo-<timestamp>` under the current directory. */
	out: z.string().min(1).optional(),
	/** Print the JSON report to stdout instead of the table. */
	json: z.boolean().default(false),
	/** Progress lines on stderr while arms run. */
	progress: z.boolean().default(true),
});

export type DemoOptionsInput = z.input<typeof demoOptionsSchema>;
export type DemoOptions = z.output<typeof demoOptionsSchema>;

/** Validates and fills defaults; throws a ZodError naming the bad field. */
export function parseDemoOptions(input: DemoOptionsInput = {}): DemoOptions {
	return demoOptionsSchema.parse(input);
}

/** The window the short plans run at, and the plan lengths `--sweep` runs there (sweep-plans.ts). */
export const PLANS_WINDOW = 200_000;
export const SWEEP_STAGES: readonly number[] = [8, 16, 32, 64];
