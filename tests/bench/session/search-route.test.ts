// The curating agent's search route, fed pi-fold's real search output (a simulated session folds a stage and the
// runtime answers the searches): it asks for the search a question needs, answers receipts, line counts and
// definitions from the matches, reads the next page only when the first did not settle it, passes otherwise, and
// does not read a revisited file again when a search shows a current folded read of it (a stale one it rereads).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { recoverListed, SEARCH_LIMIT, searchPages, searchRoute } from "../../../bench/session/search-route.ts";
import { buildView, type QuestionView, type StageView } from "../../../bench/session/window-view.ts";
import { user as entryUser, readBatch, reply, toolResult, toolUse } from "../../helpers/entries.ts";
import { simFixture } from "../../runtime/actions/sim-helpers.ts";
import { exchange, system, user } from "./messages.ts";

const FILE = "pkg/dist/thing.js";
const FILE_TEXT = ["// thing", "const a = 1;", "export function target(x) {", "  return x;", "}", ""].join("\n");

const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A workspace holding FILE as it was read (so the folded read is current). */
function workspace(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-search-route-"));
	dirs.push(dir);
	mkdirSync(join(dir, "pkg/dist"), { recursive: true });
	writeFileSync(join(dir, FILE), FILE_TEXT);
	return dir;
}

/** A simulated session with one folded stage (its result, a read of FILE, the agent's brief naming line counts). */
async function folded() {
	const f = simFixture(workspace());
	f.append([
		entryUser("u1", "stage 3"),
		toolUse("s3", [{ id: "s3-call", name: "repo_stage", args: { stage: 3 } }]),
		toolResult(
			"s3-r",
			"s3-call",
			"repo_stage",
			"# Stage 3 of 16\nReceipt for stage 3: R3-QWERTY12\nKey for stage 4: K4-X",
		),
		...readBatch("r3", [FILE], () => FILE_TEXT),
		reply("a1", `Stage 3 of 16, handed in. Read ${FILE} (6 lines). Receipt for stage 3: R3-QWERTY12.`),
	]);
	f.pad();
	await f.fold("u1", "a1", `Stage 3 of 16, handed in. Read ${FILE} (6 lines).`);
	return f;
}

/** The window after the agent's `calls`, answered by pi-fold's runtime. */
async function windowAfter(f: Awaited<ReturnType<typeof folded>>, calls: { args: Record<string, unknown> }[]) {
	const messages: Message[] = [system(), user("task")];
	for (const c of calls) messages.push(...exchange("active_context", c.args, (await f.call(c.args)).text));
	return buildView(messages);
}

const stage: StageView = {
	stage: 9,
	stageCount: 16,
	reissued: false,
	nextKey: "K10-X",
	files: [],
	questions: [],
	note: false,
	index: 0,
};
const q = (kind: string, text: string, aboutStage?: number): QuestionView => ({
	id: "q1",
	kind,
	text,
	quoted: [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string),
	aboutStage,
});

describe("the search route", () => {
	it.each([
		[q("receipt", "What was the receipt code for stage 3?", 3), "R3-QWERTY12"],
		// The tool says how long the folded read's file is (5 lines), which the brief's words (6) do not override.
		[q("line-count", `How many lines does \`${FILE}\` have?`), "5"],
		[q("definition-line", `On which line of \`${FILE}\` is \`target\` defined?`), "3"],
		[q("defining-file", `Which of these files defines \`target\`: \`a.js\`, \`${FILE}\`?`), FILE],
	])("searches, then answers %s from the matches", async (question, answer) => {
		const f = await folded();
		const first = searchRoute.resolve(question, buildView([system(), user("task")]), stage);
		expect(first && "calls" in first ? first.calls[0]?.args : undefined).toMatchObject({
			action: "search",
			limit: SEARCH_LIMIT,
		});
		const view = await windowAfter(f, first && "calls" in first ? first.calls : []);
		expect(searchPages(view)[0]?.hits.length).toBeGreaterThan(0);
		expect(searchRoute.resolve(question, view, stage)).toEqual({ answer });
	});

	it("passes to the next route when the search found nothing, without searching again", async () => {
		const f = await folded();
		const question = q("receipt", "What was the receipt code for stage 7?", 7);
		const first = searchRoute.resolve(question, buildView([system(), user("task")]), stage);
		const view = await windowAfter(f, first && "calls" in first ? first.calls : []);
		expect(searchRoute.resolve(question, view, stage)).toBeUndefined();
	});

	it("treats a search that found no folds at all as done", () => {
		const view = buildView([
			system(),
			user("task"),
			...exchange(
				"active_context",
				{ action: "search", pattern: "Receipt for stage 7:", limit: SEARCH_LIMIT },
				"No folds on this branch to search.",
			),
		]);
		expect(searchRoute.resolve(q("receipt", "What was the receipt code for stage 7?", 7), view, stage)).toBeUndefined();
	});
});

describe("a revisited listed file", () => {
	it("is searched for, then not read again when the fold holds a current read of it; new files are read", async () => {
		const f = await folded();
		const stageMessages = exchange(
			"repo_stage",
			{ stage: 9 },
			`# Stage 9 of 16\nRead these files:\n- ${FILE} (revisited from stage 3)\n- new/file.js`,
		);
		const view0 = buildView([system(), user("task"), ...stageMessages]);
		const first = recoverListed(view0, view0.stages[0] as StageView, [FILE, "new/file.js"]);
		expect(first.rest).toEqual(["new/file.js"]);
		expect(first.calls.map((c) => c.args.pattern)).toEqual([FILE]);
		const result = await f.call(first.calls[0]?.args ?? {});
		const view1 = buildView([
			system(),
			user("task"),
			...stageMessages,
			...exchange("active_context", first.calls[0]?.args ?? {}, result.text),
		]);
		expect(recoverListed(view1, view1.stages[0] as StageView, [FILE])).toEqual({ calls: [], rest: [] });
		// The same search result with the read flagged stale: the file is read from disk again.
		const stale = result.text.replace(/(→ read [^\n]*)/, "$1 (stale: changed on disk since this read)");
		const view2 = buildView([
			system(),
			user("task"),
			...stageMessages,
			...exchange("active_context", first.calls[0]?.args ?? {}, stale),
		]);
		expect(recoverListed(view2, view2.stages[0] as StageView, [FILE])).toEqual({ calls: [], rest: [FILE] });
	});
});
