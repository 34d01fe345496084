// The extractive summarizer answering native compaction: it keeps the goal, the current stage and its key, recent
// stages with their files and receipts, in Pi's format, within its bound, dropping the oldest detail first.

import { describe, expect, it } from "vitest";
import { isSummaryRequest, summarize } from "../../../bench/session/compaction-summarizer.ts";
import { system, user } from "./messages.ts";

const SYSTEM = "You are a context summarization assistant. Your task is to read a conversation...";

function stageBlock(stage: number): string {
	return [
		`[Assistant tool calls]: repo_stage(stage=${stage}, key="K${stage}-AAAAAA")`,
		`[Tool result]: # Stage ${stage} of 64\nReceipt for stage ${stage}: R${stage}-ABCDEFGH\nKey for stage ${stage + 1}: K${stage + 1}-ZZZZZZ\nRead these files:\n- pi-ai/dist/file-${stage}-a.js\n- pi-ai/dist/file-${stage}-b.js`,
		`[Assistant tool calls]: read(path="pi-ai/dist/file-${stage}-a.js")`,
		"[Tool result]: export function x() {}\n...",
	].join("\n\n");
}

function request(stages: number[], previous?: string) {
	const conversation = [`[User]: Staged repository assignment: 64 stages.`, ...stages.map(stageBlock)].join("\n\n");
	const prompt = `<conversation>\n${conversation}\n</conversation>\n\n${previous ? `<previous-summary>\n${previous}\n</previous-summary>\n\n` : ""}The messages above are...`;
	return [system(SYSTEM), user(prompt)];
}

describe("the extractive summarizer", () => {
	it("recognizes Pi's summary requests and nothing else", () => {
		expect(isSummaryRequest(request([1]))).toBe(true);
		expect(isSummaryRequest([system("You are a coding agent."), user("hi")])).toBe(false);
	});

	it("keeps the goal, the current stage, its key and recent stages with files and receipts", () => {
		const text = summarize(request([1, 2, 3]));
		expect(text).toContain("## Goal\nStaged repository assignment: 64 stages.");
		expect(text).toContain("Current stage: 3 of 64");
		expect(text).toContain("Key for stage 4: K4-ZZZZZZ");
		expect(text).toContain(
			"- [x] Stage 2: read pi-ai/dist/file-2-a.js (2 lines), pi-ai/dist/file-2-b.js. Receipt for stage 2: R2-ABCDEFGH",
		);
		expect(text).toContain("## Critical Context");
	});

	it("stays within its bound by dropping the oldest stage detail first", () => {
		const text = summarize(request(Array.from({ length: 40 }, (_, i) => i + 1)), 2_000);
		expect(text.length).toBeLessThanOrEqual(2_000);
		expect(text).toMatch(/Stages 1-\d+: done/);
		expect(text).toContain("Receipt for stage 39: R39-ABCDEFGH");
		expect(text).not.toContain("Receipt for stage 2:");
		expect(text).toContain("Key for stage 41: K41-ZZZZZZ");
	});

	it("merges an earlier summary with the new messages", () => {
		const first = summarize(request([1, 2, 3]));
		const second = summarize(request([4, 5], first));
		expect(second).toContain("Receipt for stage 2: R2-ABCDEFGH");
		expect(second).toContain("Receipt for stage 4: R4-ABCDEFGH");
		expect(second).toContain("Current stage: 5 of 64");
		expect(second).toContain("## Goal\nStaged repository assignment");
	});

	it("answers the split-turn prefix request in its own format", () => {
		const conversation = ["[User]: Staged repository assignment: 64 stages.", stageBlock(1), stageBlock(2)].join(
			"\n\n",
		);
		const text = summarize([
			system(SYSTEM),
			user(`# Conversation\n${conversation}\n\n# Instructions\nThe messages above are earlier context...`),
		]);
		expect(text).toContain("## Original Request\nStaged repository assignment");
		expect(text).toContain("Current stage: 2 of 64");
		expect(text).toContain("Key for stage 3: K3-ZZZZZZ");
	});
});
