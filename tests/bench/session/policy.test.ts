// The scripted agent decides from the window alone: it reads what a stage lists, answers from what it sees,
// rereads a file it no longer sees (once), cannot recover a receipt that is gone, and asks for a stage again when
// its instructions were compacted away.

import { beforeAll, describe, expect, it } from "vitest";
import { findDefinitions } from "../../../bench/session/facts.ts";
import { buildPlan, type Plan, type PlanStage, type Question } from "../../../bench/session/plan.ts";
import { composeNote, decide, NOTE_WORDS } from "../../../bench/session/policy.ts";
import { countWords, STAGE_TOOL, stageResult, taskMessage } from "../../../bench/session/protocol.ts";
import { type Corpus, type CorpusFile, countLines, loadCorpus } from "../../../bench/session/session-corpus.ts";
import { buildView } from "../../../bench/session/window-view.ts";
import { exchange, system, user } from "./messages.ts";

let corpus: Corpus;
let plan: Plan;
let fileA: CorpusFile;
let fileB: CorpusFile;

beforeAll(() => {
	corpus = loadCorpus();
	plan = buildPlan(corpus, { seed: "policy", stages: 8, stageChars: 48_000 });
	const withDefs = corpus.files.filter((f) => f.path.endsWith(".js") && findDefinitions(f.text).length > 2);
	fileA = withDefs[0] as CorpusFile;
	fileB = withDefs[1] as CorpusFile;
});

/** A stage 5 whose one question is `q`, listing only fileB. */
function stageWith(q: Omit<Question, "id" | "role">): PlanStage {
	return {
		stage: 5,
		key: "K5-AAAAAA",
		receipt: "R5-BBBBBBBB",
		files: [fileB.path],
		questions: [{ ...q, id: "q1", role: "probe" }],
		note: false,
	};
}

function openStage5(stage: PlanStage) {
	return exchange(STAGE_TOOL, { stage: 5, key: stage.key }, stageResult(plan, stage, false));
}

function readOf(file: CorpusFile) {
	return exchange("read", { path: file.path }, file.text);
}

describe("the scripted policy", () => {
	it("opens stage 1 with the key from the task message", () => {
		const d = decide([system(), user(taskMessage(plan))]);
		expect(d.calls).toEqual([{ name: STAGE_TOOL, args: { stage: 1, key: plan.stages[0]?.key } }]);
	});

	it("reads every listed file it cannot see, in one batch", () => {
		const stage = plan.stages[0] as PlanStage;
		const d = decide([
			system(),
			user(taskMessage(plan)),
			...exchange(STAGE_TOOL, { stage: 1, key: stage.key }, stageResult(plan, stage, false)),
		]);
		expect(d.calls.map((c) => c.args.path)).toEqual(stage.files);
	});

	it("answers a probe from the window when the fact is visible, with no reread", () => {
		const def = findDefinitions(fileA.text)[1] as { symbol: string; line: number };
		const stage = stageWith({
			kind: "definition-line",
			aboutStage: 2,
			file: fileA.path,
			symbol: def.symbol,
			answer: String(def.line),
		});
		const answered: string[] = [];
		const d = decide([system(), user("task"), ...readOf(fileA), ...openStage5(stage), ...readOf(fileB)], {
			observer: { answered: (_s, _q, route) => answered.push(route) },
		});
		expect(d.calls).toHaveLength(1);
		expect(d.calls[0]).toMatchObject({ name: STAGE_TOOL, args: { stage: 6, answers: { q1: String(def.line) } } });
		expect(answered).toEqual(["window"]);
	});

	it("rereads the file from disk when the fact is not visible, then answers and counts the reread", () => {
		const stage = stageWith({ kind: "line-count", aboutStage: 2, file: fileA.path, answer: String(fileA.lines) });
		const before = [system(), user("task"), ...openStage5(stage), ...readOf(fileB)];
		const first = decide(before);
		expect(first.calls).toEqual([{ name: "read", args: { path: fileA.path } }]);
		const answered: string[] = [];
		const second = decide([...before, ...readOf(fileA)], {
			observer: { answered: (_s, _q, route) => answered.push(route) },
		});
		expect(second.calls[0]).toMatchObject({
			name: STAGE_TOOL,
			args: { answers: { q1: String(countLines(fileA.text)) } },
		});
		expect(answered).toEqual(["reread"]);
	});

	it("rereads candidates one at a time to find which file defines a symbol", () => {
		const def = findDefinitions(fileA.text)[0] as { symbol: string };
		const stage = stageWith({
			kind: "defining-file",
			aboutStage: 2,
			symbol: def.symbol,
			candidates: [fileB.path, fileA.path],
			answer: fileA.path,
		});
		// fileB is visible and does not define it; fileA is not visible: one read, of fileA.
		const d = decide([system(), user("task"), ...openStage5(stage), ...readOf(fileB)]);
		expect(d.calls).toEqual([{ name: "read", args: { path: fileA.path } }]);
	});

	it("cannot recover a receipt that is no longer visible, and says so", () => {
		const stage = stageWith({ kind: "receipt", aboutStage: 2, answer: "R2-XXXXXXXX" });
		const answered: string[] = [];
		const d = decide([system(), user("task"), ...openStage5(stage), ...readOf(fileB)], {
			observer: { answered: (_s, _q, route) => answered.push(route) },
		});
		expect(d.calls[0]).toMatchObject({ name: STAGE_TOOL, args: { answers: { q1: "unknown" } } });
		expect(answered).toEqual(["none"]);
	});

	it("takes a receipt from a compaction summary when the summary kept it", () => {
		const stage = stageWith({ kind: "receipt", aboutStage: 2, answer: "R2-XXXXXXXX" });
		const summary = user(
			"The conversation history before this point was compacted...\n- [x] Stage 2: read a.js. Receipt for stage 2: R2-XXXXXXXX",
		);
		const d = decide([system(), summary, ...openStage5(stage), ...readOf(fileB)]);
		expect(d.calls[0]).toMatchObject({ args: { answers: { q1: "R2-XXXXXXXX" } } });
	});

	it("takes a file's line count from a compaction summary that kept it, instead of rereading the file", () => {
		const stage = stageWith({ kind: "line-count", aboutStage: 2, file: fileA.path, answer: String(fileA.lines) });
		const summary = user(
			`The conversation history before this point was compacted into the following summary:\n\n<summary>\n- [x] Stage 2: read ${fileA.path} (${fileA.lines} lines). Receipt for stage 2: R2-XXXXXXXX\n</summary>`,
		);
		const answered: string[] = [];
		const d = decide([system(), summary, ...openStage5(stage), ...readOf(fileB)], {
			observer: { answered: (_s, _q, route) => answered.push(route) },
		});
		expect(d.calls[0]).toMatchObject({ name: STAGE_TOOL, args: { answers: { q1: String(fileA.lines) } } });
		expect(answered).toEqual(["summary"]);
	});

	it("asks for a stage again when a summary says it is current but its instructions are gone", () => {
		const d = decide([system(), user("## Progress\n- [ ] Current stage: 7 of 8. Key for stage 8: K8-ABCDEF")]);
		expect(d.calls).toEqual([{ name: STAGE_TOOL, args: { stage: 7, reissue: true } }]);
	});

	it("writes notes of a fixed length inside the range the stage asks for", () => {
		const stage = { ...stageWith({ kind: "line-count", aboutStage: 1, file: fileB.path, answer: "1" }), note: true };
		const view = buildView([system(), user("task"), ...openStage5(stage), ...readOf(fileB)]);
		const note = composeNote(view.stages[0] as never, view);
		expect(countWords(note)).toBe(NOTE_WORDS);
	});

	it("stops once the assignment is complete", () => {
		const d = decide([
			system(),
			user("task"),
			...exchange(STAGE_TOOL, { stage: 9, key: "K" }, "# Assignment complete\nAll done."),
		]);
		expect(d.calls).toEqual([]);
	});
});

describe("the scripted policy, when a read fails", () => {
	it("does not retry a listed file whose read failed; it moves on", () => {
		const stage = plan.stages[0] as PlanStage;
		const opened = exchange(STAGE_TOOL, { stage: 1, key: stage.key }, stageResult(plan, stage, false));
		const reads = stage.files.flatMap((path, i) =>
			i === 0 ? exchange("read", { path }, "ENOENT: no such file", true) : exchange("read", { path }, "text"),
		);
		const d = decide([system(), user(taskMessage(plan)), ...opened, ...reads]);
		expect(d.calls.map((c) => c.name)).toEqual([STAGE_TOOL]);
	});
});
