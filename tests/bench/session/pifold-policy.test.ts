// The scripted agent's pi-fold behaviour, from the window alone: it reads pi-fold's placeholders, pages through a
// fold's exact source with bounded peeks (and expands only when paging cannot settle a question), marks finished
// stages once they are out of pi-fold's fresh tail, and answers pi-fold's brief requests with a bounded brief.

import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { isBriefRequest, writeBrief } from "../../../bench/session/brief-writer.ts";
import { peekedSources, placeholders, sourceMessages, sourceReads } from "../../../bench/session/folds.ts";
import {
	briefCoversStage,
	lineCounts,
	markFinished,
	PEEK_MAX_PAGES,
	PEEK_PAGE_BYTES,
	peekRoute,
	stageBrief,
} from "../../../bench/session/pifold-policy.ts";
import { createPolicyFactory } from "../../../bench/session/policy.ts";
import { STAGE_TOOL } from "../../../bench/session/protocol.ts";
import { buildView, type QuestionView, type StageView } from "../../../bench/session/window-view.ts";
import { SUMMARY_SYSTEM_PROMPT } from "../../../src/briefs/summarizer.ts";
import { foldSource } from "../../../src/lattice/index.ts";
import { renderPlaceholder } from "../../../src/projection/index.ts";
import { exchange, system, user } from "./messages.ts";

const FOLD_ID = "f0123456789abcdef";
const FILE = "pkg/dist/thing.js";
const FILE_TEXT = Array.from({ length: 4_000 }, (_, i) =>
	i === 41 ? "export function target() {}" : `// line ${i + 1}`,
).join("\n");

function placeholderMessage(brief: string, bytes: number): Message {
	const text = renderPlaceholder(
		{
			id: FOLD_ID,
			kind: "span",
			origin: "agent",
			leafIds: ["a", "b"],
			sourceSha256: "ab".repeat(32),
			sourceBytes: bytes,
			brief,
			briefSource: "agent",
		},
		{ brandNoun: "active-context", toolName: "active_context" },
	);
	return { ...(exchange("x", {}, "")[0] as Message), content: [{ type: "text", text }] } as Message;
}

/** The exact source of a read batch of FILE, as pi-fold stores it. */
function readSource(): string {
	const [call, result] = exchange("read", { path: FILE }, FILE_TEXT);
	return foldSource([
		{ id: "e1", message: call as never },
		{ id: "e2", message: result as never },
	]);
}

/** The peek result for [offset, offset + bytes) of `source`, formatted as pi-fold's peek action formats it. */
function peekPage(source: string, offset: number, bytes = PEEK_PAGE_BYTES): Message[] {
	const all = Buffer.from(source);
	const end = Math.min(all.length, offset + bytes);
	const text = all.subarray(offset, end).toString();
	const tail = end >= all.length ? "[end of source]" : `[more: {"action":"peek","id":"${FOLD_ID}","offset":${end}}]`;
	const head = `[peek ${FOLD_ID} · bytes ${offset}-${end} of ${all.length} · sha256 abab… verified · one JSON line per entry]`;
	return exchange("active_context", { action: "peek", id: FOLD_ID, offset, bytes }, `${head}\n${text}\n${tail}`);
}

const lineCount: QuestionView = {
	id: "q1",
	kind: "line-count",
	text: `How many lines does \`${FILE}\` have?`,
	quoted: [FILE],
	aboutStage: undefined,
};
const stage: StageView = {
	stage: 9,
	stageCount: 16,
	reissued: false,
	nextKey: "K10-X",
	files: [],
	questions: [lineCount],
	note: false,
	index: 0,
};

describe("reading pi-fold's window", () => {
	it("finds each collapsed fold's id, size and brief in its placeholder", () => {
		const found = placeholders([system(), user("task"), placeholderMessage(`Stage 3 of 16. Read ${FILE}.`, 1234)]);
		expect(found).toEqual([{ id: FOLD_ID, entries: 2, bytes: 1234, brief: `Stage 3 of 16. Read ${FILE}.`, index: 2 }]);
	});

	it("assembles contiguous peek pages, and reads a file only once its whole line is in", () => {
		const source = readSource();
		const first = buildView([system(), user("task"), ...peekPage(source, 0)]);
		const partial = peekedSources(first).get(FOLD_ID);
		expect(partial?.next).toBe(PEEK_PAGE_BYTES);
		expect(sourceReads(sourceMessages(partial as never)).has(FILE)).toBe(false);
		const whole = buildView([system(), user("task"), ...peekPage(source, 0), ...peekPage(source, PEEK_PAGE_BYTES)]);
		const done = peekedSources(whole).get(FOLD_ID);
		expect(done?.next).toBeUndefined();
		expect(sourceReads(sourceMessages(done as never)).get(FILE)).toBe(FILE_TEXT);
	});

	it("says which stages a brief covers", () => {
		expect(briefCoversStage("Stage 5 of 64, handed in.", 5)).toBe(true);
		expect(briefCoversStage("Stages 3-9 of 64: opened and worked.", 7)).toBe(true);
		expect(briefCoversStage("Stage 15 of 64", 5)).toBe(false);
	});
});

describe("the brief's handle", () => {
	const source = readSource();
	const fold = placeholderMessage(`Read 1 file: ${FILE}.`, Buffer.byteLength(source));
	const base = [system(), user("task"), fold];

	it("peeks the fold whose brief names the file, from offset 0, in bounded pages", () => {
		expect(peekRoute.resolve(lineCount, buildView(base), stage)).toEqual({
			calls: [{ name: "active_context", args: { action: "peek", id: FOLD_ID, offset: 0, bytes: PEEK_PAGE_BYTES } }],
		});
		const one = buildView([...base, ...peekPage(source, 0)]);
		expect(peekRoute.resolve(lineCount, one, stage)).toEqual({
			calls: [
				{
					name: "active_context",
					args: { action: "peek", id: FOLD_ID, offset: PEEK_PAGE_BYTES, bytes: PEEK_PAGE_BYTES },
				},
			],
		});
	});

	it("answers from the exact source once the pages hold the file", () => {
		const view = buildView([...base, ...peekPage(source, 0), ...peekPage(source, PEEK_PAGE_BYTES)]);
		expect(peekRoute.resolve(lineCount, view, stage)).toEqual({ answer: "4000" });
	});

	it("expands the fold when paging ran out of its page budget without an answer", () => {
		const small = 64;
		const pages = Array.from({ length: PEEK_MAX_PAGES }, (_, i) => peekPage(source, i * small, small)).flat();
		const view = buildView([...base, ...pages]);
		expect(peekRoute.resolve(lineCount, view, stage)).toEqual({
			calls: [{ name: "active_context", args: { action: "expand", id: FOLD_ID } }],
		});
	});

	it("looks a receipt's fold up in the fold tree when no visible brief names its stage, then peeks it", () => {
		const receipt: QuestionView = {
			id: "q2",
			kind: "receipt",
			text: "What was the receipt code for stage 5?",
			quoted: [],
			aboutStage: 5,
		};
		const bare = [system(), user("task"), placeholderMessage("Stages 1-4 of 16: opened and worked.", 900)];
		expect(peekRoute.resolve(receipt, buildView(bare), stage)).toEqual({
			calls: [{ name: "active_context", args: { action: "status", detail: "tree", page: 1 } }],
		});
		const tree = [
			"Fold tree (transcript order) · page 1/1:",
			`${FOLD_ID} · consolidation · depth 0 · parent - · 30 leaves · 900 bytes · collapsed · "Stages 1-4 of 16: opened"`,
			`  f00000000000000aa · span · depth 1 · parent ${FOLD_ID} · 8 leaves · 400 bytes · collapsed, inside a collapsed fold · "Stage 5 of 16, handed in. Read a.js."`,
		].join("\n");
		const listed = buildView([
			...bare,
			...exchange("active_context", { action: "status", detail: "tree", page: 1 }, tree),
		]);
		expect(peekRoute.resolve(receipt, listed, stage)).toEqual({
			calls: [
				{
					name: "active_context",
					args: { action: "peek", id: "f00000000000000aa", offset: 0, bytes: PEEK_PAGE_BYTES },
				},
			],
		});
	});

	it("passes when no brief names what the question is about (the next route rereads from disk)", () => {
		expect(peekRoute.resolve(lineCount, buildView([system(), user("task")]), stage)).toBeUndefined();
	});
});

describe("marking finished stages", () => {
	function stageExchange(n: number, files: string[]): Message[] {
		const text = [
			`# Stage ${n} of 16`,
			`Receipt for stage ${n}: R${n}-ABCDEF`,
			`Key for stage ${n + 1}: K${n + 1}-ABCDEF`,
			"Read these files:",
			...files.map((f) => `- ${f}`),
		].join("\n");
		return [
			...exchange(STAGE_TOOL, { stage: n, key: `K${n}-ABCDEF` }, text),
			...exchange("read", { path: files[0] }, "x"),
		];
	}

	it("folds every handed-in stage until a refusal tells it how many newest units stay raw, then waits for them", () => {
		const messages = [system(), user("task")];
		for (let n = 1; n <= 4; n++) messages.push(...stageExchange(n, [`dir/file${n}.js`]));
		const untold = buildView(messages);
		const stagesOf = (marks: { args: Record<string, unknown> }[]) =>
			marks.map((m) => String(m.args.brief).split(",")[0]);
		// Not told anything about pi-fold's fresh tail: it tries every finished stage.
		expect(stagesOf(markFinished(untold, untold.stages.at(-1) as StageView))).toEqual(
			[1, 2, 3].map((n) => `Stage ${n} of 16`),
		);
		// pi-fold refused one, saying the newest 5 units stay raw: 2 units per stage, so only stages with 5 units
		// after them (the mark's own message counted) are marked now.
		const refusal = "fold refused: entry e9 is in the fresh tail (the newest 5 units stay raw)";
		const told = [...messages, ...exchange("active_context", { action: "fold" }, refusal, true)];
		const view = buildView(told);
		const current = view.stages.at(-1) as StageView;
		const marks = markFinished(view, current);
		expect(stagesOf(marks)).toEqual([1, 2].map((n) => `Stage ${n} of 16`));
		const first = view.stages[0] as StageView;
		expect(marks[0]?.args.brief).toBe(stageBrief(first, "R1-ABCDEF", 16, lineCounts(view, first)));
		expect(String(marks[0]?.args.brief)).toContain("Receipt for stage 1: R1-ABCDEF");
		expect(String(marks[0]?.args.brief)).toContain("dir/file1.js (1 lines)");
	});

	it("does not mark a span twice (a visible fold call already names it)", () => {
		const messages = [system(), user("task")];
		for (let n = 1; n <= 4; n++) messages.push(...stageExchange(n, [`dir/file${n}.js`]));
		const first = markFinished(buildView(messages), buildView(messages).stages.at(-1) as StageView);
		expect(first.length).toBeGreaterThan(0);
		messages.push(...exchange("active_context", first[0]?.args ?? {}, "Folded f1 (span)"));
		const view = buildView(messages);
		const again = markFinished(view, view.stages.at(-1) as StageView);
		expect(again.map((m) => m.args.from)).not.toContain(first[0]?.args.from);
	});
});

describe("pi-fold's brief requests", () => {
	const span = [
		"Assistant ran repo_stage(stage=7)",
		"Tool result (repo_stage):\n# Stage 7 of 64\nReceipt for stage 7: R7-ABCDEFGH\nKey for stage 8: K8-X",
		'Assistant ran read(path="a/b.js")',
	].join("\n\n");
	const request: Message[] = [system(SUMMARY_SYSTEM_PROMPT), user(span)];

	it("are recognised by pi-fold's brief system prompt", () => {
		expect(isBriefRequest(request)).toBe(true);
		expect(isBriefRequest([system(), user(span)])).toBe(false);
	});

	it("get a bounded extractive brief naming the stages, their receipts and the files read", () => {
		const brief = writeBrief(request);
		expect(brief).toContain("Stage 7 of 64");
		expect(brief).toContain("Receipt for stage 7: R7-ABCDEFGH");
		expect(brief).toContain("a/b.js");
		const many = Array.from({ length: 200 }, (_, i) => `Assistant ran read(path="dir/file-${i}.js")`).join("\n\n");
		expect(writeBrief([system(SUMMARY_SYSTEM_PROMPT), user(many)]).length).toBeLessThanOrEqual(1_200);
	});

	it("are answered by the policy's factory with that brief and no tool call", () => {
		const reply = createPolicyFactory()({ messages: request });
		expect(reply.stopReason).toBe("stop");
		expect(reply.content).toEqual([{ type: "text", text: writeBrief(request) }]);
	});
});
