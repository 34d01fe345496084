// What one arm's run did, as seen by the harness (not by the agent): stages opened, answers graded, notes,
// stage reissues, wrong keys, file reads and rereads, compactions. The stage tool and the session hooks write it;
// the report reads it. Plain mutable data, no I/O.

import type { QuestionKind } from "./plan.ts";

export interface GradedAnswer {
	stage: number;
	id: string;
	kind: QuestionKind;
	role: "revisit" | "probe" | "reuse";
	expected: string;
	given: string | null;
	correct: boolean;
}

export interface FileRead {
	/** Index of the provider request whose reply issued the read (agent requests only). */
	afterRequest: number;
	path: string;
	chars: number;
	/** The path was read before in this run. */
	reread: boolean;
}

export interface RunRecord {
	/** Highest stage opened (0 before stage 1). */
	opened: number;
	complete: boolean;
	answers: GradedAnswer[];
	notes: { stage: number; words: number; accepted: boolean }[];
	reissues: number;
	wrongKeys: number;
	rejectedCalls: number;
	reads: FileRead[];
	compactions: { reason: string; tokensBefore: number; afterRequest: number }[];
}

export function createRunRecord(): RunRecord {
	return {
		opened: 0,
		complete: false,
		answers: [],
		notes: [],
		reissues: 0,
		wrongKeys: 0,
		rejectedCalls: 0,
		reads: [],
		compactions: [],
	};
}

/** Stages whose work was handed in: every stage before the one currently open, all of them once complete. */
export function stagesCompleted(record: RunRecord, stageCount: number): number {
	return record.complete ? stageCount : Math.max(0, record.opened - 1);
}
