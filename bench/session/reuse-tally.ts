// One arm's reused facts, sorted by the route the agent took (reuse-report.ts says what each bucket means): the
// tally and its zod schema, kept apart from the targets so the report's schema can hold it. Pure functions.

import { z } from "zod";
import type { RunRecord } from "./record.ts";

/** Per question ("<stage>/<id>"): the route that answered it and the calls it asked for. */
export type QuestionTrace = Record<string, { route: string; calls: number }>;

const count = z.number().int().nonnegative();
export const reuseTallySchema = z.object({
	facts: count,
	/** Answered from the window without a call: a raw read, or a summary or brief stating it. */
	raw: count,
	/** Recalled through a tool (the fold tool, or a reread of the named file). */
	recalled: count,
	/** Nothing in the window named where the fact was. */
	blind: count,
	/** The window named it, but the recall did not find it. */
	lost: count,
	/** Blind misses by the fact's kind ("line-count", "definition-line", "defining-file"). */
	blindByKind: z.record(z.string(), count),
	correct: count,
	/** Calls the recalled facts took, and the most one took. */
	recallCalls: count,
	maxRecallCalls: count,
});
export type ReuseTally = z.infer<typeof reuseTallySchema>;

/** The routes that answer from the window with no call. */
const IN_VIEW = new Set(["window", "summary", "brief"]);
const BLIND = "blind";
const LOST = "none";

export function reuseTally(record: RunRecord, questions: QuestionTrace): ReuseTally {
	const tally: ReuseTally = {
		facts: 0,
		raw: 0,
		recalled: 0,
		blind: 0,
		lost: 0,
		blindByKind: {},
		correct: 0,
		recallCalls: 0,
		maxRecallCalls: 0,
	};
	for (const a of record.answers) {
		if (a.role !== "reuse") continue;
		tally.facts++;
		if (a.correct) tally.correct++;
		const trace = questions[`${a.stage}/${a.id}`] ?? { route: LOST, calls: 0 };
		if (trace.route === BLIND) {
			tally.blind++;
			tally.blindByKind[a.kind] = (tally.blindByKind[a.kind] ?? 0) + 1;
		} else if (trace.route === LOST) tally.lost++;
		else if (IN_VIEW.has(trace.route) && trace.calls === 0) tally.raw++;
		else {
			tally.recalled++;
			tally.recallCalls += trace.calls;
			tally.maxRecallCalls = Math.max(tally.maxRecallCalls, trace.calls);
		}
	}
	return tally;
}
