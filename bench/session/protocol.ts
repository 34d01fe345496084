// The text protocol between the benchmark tool (`repo_stage`) and whoever reads its results: the task message,
// a stage result, the completion result and the error texts. The tool formats with these; the scripted policy and
// the summarizer parse with the patterns below. Pure functions.

import type { Plan, PlanStage, Question } from "./plan.ts";

export const STAGE_TOOL = "repo_stage";

/** `# Stage 5 of 64` (optionally ` (reissued)`). */
export const STAGE_HEADER = /^# Stage (\d+) of (\d+)/;
/** `Receipt for stage 5: R5-ABCDEFGH` anywhere in visible text (tool result or summary). */
export const RECEIPT_LINE = /Receipt for stage (\d+): (R\d+-[A-Z0-9]+)/g;
/** `Key for stage 6: K6-ABCDEF`. */
export const KEY_LINE = /Key for stage (\d+): (K\d+-[A-Z0-9]+)/g;
/** `Current stage: 5 of 64`, written by summaries. */
export const CURRENT_STAGE_LINE = /Current stage: (\d+)/g;
export const COMPLETE_HEADER = "# Assignment complete";
export const NOTE_MIN_WORDS = 200;
export const NOTE_MAX_WORDS = 400;

export function taskMessage(plan: Plan): string {
	const first = plan.stages[0] as PlanStage;
	return [
		`Staged repository assignment: ${plan.stageCount} stages over the files in the working directory.`,
		`Open stage 1 with ${STAGE_TOOL}({"stage": 1, "key": "${first.key}"}). Key for stage 1: ${first.key}`,
		"Each stage result lists files to read (paths relative to the working directory), may ask questions and a",
		`${NOTE_MIN_WORDS}-${NOTE_MAX_WORDS} word note, and gives the key for the next stage. Read every listed file, then open`,
		`stage k+1 with ${STAGE_TOOL}({"stage": k+1, "key": "<key from stage k>", "answers": {"q1": "..."}, "note": "..."}),`,
		"answering stage k's questions and note in that call. Answers are exact: a number, a path or a code.",
		"Work through every stage in this one turn; reply with a one-line report when the assignment is complete.",
	].join("\n");
}

/** How a reuse fact's question opens: the stage's work uses a fact from earlier work, and does not say where it is. */
export const REUSE_PREFIX = "From your earlier work:";

export function questionText(q: Question): string {
	if (q.role === "reuse") return `${REUSE_PREFIX} ${reuseText(q)}`;
	switch (q.kind) {
		case "line-count":
			return `How many lines does \`${q.file}\` have?`;
		case "definition-line":
			return `On which line of \`${q.file}\` is \`${q.symbol}\` defined?`;
		case "defining-file":
			return `Which of these files defines \`${q.symbol}\`: ${(q.candidates ?? []).map((c) => `\`${c}\``).join(", ")}?`;
		case "receipt":
			return `What was the receipt code for stage ${q.aboutStage}?`;
	}
}

/** A reuse fact's question: names the file or the symbol it is about, never the stage or the candidates. */
function reuseText(q: Question): string {
	switch (q.kind) {
		case "definition-line":
			return `on which line of \`${q.file}\` is \`${q.symbol}\` defined?`;
		case "defining-file":
			return `which file defines \`${q.symbol}\`?`;
		default:
			return `how many lines does \`${q.file}\` have?`;
	}
}

/** The result of opening (or reissuing) a stage. Receipt, key and files come first: they are the bookkeeping. */
export function stageResult(plan: Plan, stage: PlanStage, reissue: boolean): string {
	const next = stage.stage + 1;
	const nextKey = next <= plan.stageCount ? (plan.stages[next - 1] as PlanStage).key : plan.completionKey;
	const lines = [
		`# Stage ${stage.stage} of ${plan.stageCount}${reissue ? " (reissued)" : ""}`,
		reissue
			? `The receipt for stage ${stage.stage} was shown once and is not reissued.`
			: `Receipt for stage ${stage.stage}: ${stage.receipt}`,
		`Key for stage ${next}: ${nextKey}${next > plan.stageCount ? " (opening it completes the assignment)" : ""}`,
		"Read these files:",
		...stage.files.map(
			(f, i) => `- ${f}${i === 0 && stage.revisitOf !== undefined ? ` (revisited from stage ${stage.revisitOf})` : ""}`,
		),
	];
	if (stage.questions.length > 0) {
		lines.push(`Questions (answer in the call that opens stage ${next}, as "answers": {"q1": "..."}):`);
		for (const q of stage.questions) lines.push(`- ${q.id} (${q.kind}): ${questionText(q)}`);
	}
	if (stage.note)
		lines.push(
			`Note: write a ${NOTE_MIN_WORDS}-${NOTE_MAX_WORDS} word note on this stage's files ("note" in the call that opens stage ${next}).`,
		);
	return lines.join("\n");
}

export function completionResult(plan: Plan): string {
	return `${COMPLETE_HEADER}\nAll ${plan.stageCount} stages are done. Reply with a one-line report.`;
}

export function wrongKeyError(stage: number): string {
	const where = stage === 1 ? "the task message" : `stage ${stage - 1}'s result`;
	const recover =
		stage === 1
			? ""
			: ` If that result is gone, call ${STAGE_TOOL}({"stage": ${stage - 1}, "reissue": true}) to see it again.`;
	return `Wrong key for stage ${stage}. The key was given in ${where}.${recover}`;
}

export function countWords(text: string): number {
	return text.split(/\s+/).filter((w) => w.length > 0).length;
}
