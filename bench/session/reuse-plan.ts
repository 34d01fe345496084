// Realistic reuse in the staged plan: later stages use facts from files read many stages earlier (a file's line
// count, where a symbol is defined in a file, which file defines a symbol), as an agent's later work quotes what an
// earlier result showed. The schedule is part of the plan: the default draws a fact every second stage from a file
// read 8 to 24 stages back; the recall-every-four-steps shape asks, every fourth stage, for a fact from a file read
// exactly twelve stages earlier (and nothing else: no revisits, no probes). Drawn from a random of its own, so the
// rest of a plan (files, keys, receipts, revisits, probes) is the same with reuse on or off. Pure functions.

import { z } from "zod";
import type { Random } from "./random.ts";
import type { CorpusFile } from "./session-corpus.ts";

/** "standard": the staged plan with its revisits and probes; "recall-every-four": only the four-step recalls. */
export const PLAN_SHAPES = ["standard", "recall-every-four"] as const;
export type PlanShape = (typeof PLAN_SHAPES)[number];

export const reuseScheduleSchema = z.object({
	/** A reuse fact on every stage that is a multiple of this. */
	every: z.number().int().min(1),
	/** How many stages back the fact's file was read: at least `minBack`, at most `maxBack`. */
	minBack: z.number().int().min(1),
	maxBack: z.number().int().min(1),
});
export type ReuseSchedule = z.infer<typeof reuseScheduleSchema>;

/** The default: a fact every second stage from a file read 8 to 24 stages earlier. */
export const DEFAULT_REUSE: ReuseSchedule = { every: 2, minBack: 8, maxBack: 24 };
/** The recall-every-four-steps shape: every fourth stage, a fact from a file read twelve stages earlier. */
export const FOUR_STEP_REUSE: ReuseSchedule = { every: 4, minBack: 12, maxBack: 12 };

/** The schedule a plan of `shape` uses (`reuse` false: none, the plan as it was before reuse). */
export function reuseScheduleFor(shape: PlanShape, reuse: boolean): ReuseSchedule | undefined {
	if (shape === "recall-every-four") return FOUR_STEP_REUSE;
	return reuse ? DEFAULT_REUSE : undefined;
}

/** A fact's question as plan.ts stores it (role "reuse"; `candidates` left out: the agent is not told where). */
export interface ReuseQuestion {
	id: string;
	kind: "line-count" | "definition-line" | "defining-file";
	role: "reuse";
	aboutStage: number;
	file?: string;
	symbol?: string;
	answer: string;
}

/** A symbol defined in exactly one corpus file, at `line`. */
export interface UniqueDefinition {
	file: CorpusFile;
	symbol: string;
	line: number;
}

/**
 * The reuse fact of `stage`, or undefined when the schedule asks none there: a file of the stage `back` stages
 * earlier, and a fact about it by rotation (line count; a definition's line; which file defines a symbol), falling
 * back to the line count when the file defines no corpus-unique symbol.
 */
export function reuseQuestion(
	stage: number,
	schedule: ReuseSchedule,
	stages: readonly { stage: number; files: readonly string[] }[],
	byPath: ReadonlyMap<string, CorpusFile>,
	unique: readonly UniqueDefinition[],
	random: Random,
): ReuseQuestion | undefined {
	if (stage % schedule.every !== 0 || stage - schedule.minBack < 1) return undefined;
	const back = random.int(schedule.minBack, Math.min(schedule.maxBack, stage - 1));
	const source = stages[stage - back - 1];
	if (!source || source.files.length === 0) return undefined;
	const file = byPath.get(random.pick([...source.files])) as CorpusFile;
	const defs = unique.filter((d) => d.file.path === file.path);
	const rotation = (stage / schedule.every) % 3;
	const base = { id: "", role: "reuse" as const, aboutStage: source.stage };
	if (rotation === 1 && defs.length > 0) {
		const d = random.pick(defs);
		return { ...base, kind: "definition-line", file: file.path, symbol: d.symbol, answer: String(d.line) };
	}
	if (rotation === 2 && defs.length > 0) {
		const d = random.pick(defs);
		return { ...base, kind: "defining-file", symbol: d.symbol, answer: file.path };
	}
	return { ...base, kind: "line-count", file: file.path, answer: String(file.lines) };
}
