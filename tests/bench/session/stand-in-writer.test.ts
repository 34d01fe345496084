// One stand-in writer for both sides: native's compaction summary and pi-fold's span brief, given the same work,
// keep the same facts (files, their line counts when the host showed the read whole or the agent stated them,
// receipts) in the same stage line, within the same bound, dropping the oldest stage first.

import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { writeBrief } from "../../../bench/session/brief-writer.ts";
import { summarize } from "../../../bench/session/compaction-summarizer.ts";
import { WRITER_MAX_CHARS } from "../../../bench/session/stand-in-writer.ts";
import { textOf } from "../../../bench/session/window-view.ts";
import { spanTranscript } from "../../../src/briefs/span-transcript.ts";
import { SUMMARY_INPUT_MAX_CHARS, SUMMARY_SYSTEM_PROMPT } from "../../../src/briefs/summarizer.ts";
import { writtenBriefProblem } from "../../../src/briefs/written-check.ts";
import type { TranscriptEntry } from "../../../src/transcript/index.ts";
import { system, user } from "./messages.ts";

const FILE_TEXT = "export function a() {}\nexport const b = 1;\n// three\n";
const BIG_TEXT = Array.from({ length: 400 }, (_, i) => `// line ${i + 1}`).join("\n");

interface Step {
	stage: number;
	files: { path: string; text: string }[];
	note?: string;
}

function stageResult(stage: number, files: string[]): string {
	return [
		`# Stage ${stage} of 64`,
		`Receipt for stage ${stage}: R${stage}-ABCDEFGH`,
		`Key for stage ${stage + 1}: K${stage + 1}-ZZZZZZ`,
		"Read these files:",
		...files.map((f) => `- ${f}`),
	].join("\n");
}

/** Pi's compaction request for the steps: tool results cut at 2,000 characters, as Pi cuts them. */
function piRequest(steps: Step[]): Message[] {
	const cut = (t: string) =>
		t.length <= 2_000 ? t : `${t.slice(0, 2_000)}\n\n[... ${t.length - 2_000} more characters truncated]`;
	const blocks = ["[User]: Staged repository assignment: 64 stages."];
	for (const s of steps) {
		const note = s.note ? `, note=${JSON.stringify(s.note)}` : "";
		blocks.push(`[Assistant tool calls]: repo_stage(stage=${s.stage}, key="K${s.stage}-AAAAAA"${note})`);
		blocks.push(
			`[Tool result]: ${stageResult(
				s.stage,
				s.files.map((f) => f.path),
			)}`,
		);
		blocks.push(`[Assistant tool calls]: ${s.files.map((f) => `read(path=${JSON.stringify(f.path)})`).join("; ")}`);
		for (const f of s.files) blocks.push(`[Tool result]: ${cut(f.text)}`);
	}
	return [
		system("You are a context summarization assistant. Your task is to read a conversation..."),
		user(`<conversation>\n${blocks.join("\n\n")}\n</conversation>\n\nThe messages above are...`),
	];
}

/** pi-fold's brief request for the same steps: the span as pi-fold renders it (a readable transcript), whole. */
function pifoldRequest(steps: Step[]): Message[] {
	let n = 0;
	const entry = (role: string, content: unknown, toolName?: string): TranscriptEntry => ({
		id: `e${++n}`,
		message: { role, content, ...(toolName ? { toolName } : {}) },
	});
	const entries: TranscriptEntry[] = [];
	for (const s of steps) {
		const args = { stage: s.stage, key: `K${s.stage}-AAAAAA`, ...(s.note ? { note: s.note } : {}) };
		entries.push(entry("assistant", [{ type: "toolCall", id: `c${n}`, name: "repo_stage", arguments: args }]));
		entries.push(
			entry(
				"toolResult",
				[
					{
						type: "text",
						text: stageResult(
							s.stage,
							s.files.map((f) => f.path),
						),
					},
				],
				"repo_stage",
			),
		);
		entries.push(
			entry(
				"assistant",
				s.files.map((f, i) => ({ type: "toolCall", id: `r${n}-${i}`, name: "read", arguments: { path: f.path } })),
			),
		);
		for (const f of s.files) entries.push(entry("toolResult", [{ type: "text", text: f.text }], "read"));
	}
	return [system(SUMMARY_SYSTEM_PROMPT), user(spanTranscript(entries, SUMMARY_INPUT_MAX_CHARS))];
}

const steps: Step[] = [
	{ stage: 4, files: [{ path: "pkg/small.js", text: FILE_TEXT }] },
	{ stage: 5, files: [{ path: "pkg/big.js", text: BIG_TEXT }], note: "Stage 4 note. pkg/small.js has 3 lines." },
	{ stage: 6, files: [{ path: "pkg/other.js", text: BIG_TEXT }] },
];

describe("the stand-in writer", () => {
	it("writes the same stage line (files, line counts, receipt) in native's summary and pi-fold's brief", () => {
		const summary = summarize(piRequest(steps));
		const request = pifoldRequest(steps);
		const brief = writeBrief(request);
		// pi-fold's checks of a written brief let it stand (no echo, no entry JSON, no instructions).
		expect(
			writtenBriefProblem(brief, { system: SUMMARY_SYSTEM_PROMPT, prompt: textOf(request[1]?.content) }),
		).toBeNull();
		const line = "Stage 5: read pkg/big.js (400 lines). Receipt for stage 5: R5-ABCDEFGH";
		expect(brief).toContain(line);
		expect(brief).toContain("Stage 4: read pkg/small.js (3 lines). Receipt for stage 4: R4-ABCDEFGH");
		// Pi cut the big read to 2,000 characters: its line count is not known there, the small one's is.
		expect(summary).toContain("- [x] Stage 5: read pkg/big.js. Receipt for stage 5: R5-ABCDEFGH");
		expect(summary).toContain("- [x] Stage 4: read pkg/small.js (3 lines). Receipt for stage 4: R4-ABCDEFGH");
		expect(summary).toContain("Current stage: 6 of 64");
		expect(summary).toContain("Key for stage 7: K7-ZZZZZZ");
	});

	it("takes a line count the agent stated in its own words when the read itself was cut", () => {
		const cutSmall: Step[] = [
			{ stage: 4, files: [{ path: "pkg/huge.js", text: BIG_TEXT }] },
			{ stage: 5, files: [], note: "Stage 4 note. pkg/huge.js has 400 lines." },
			{ stage: 6, files: [] },
		];
		expect(summarize(piRequest(cutSmall))).toContain("Stage 4: read pkg/huge.js (400 lines).");
	});

	it("keeps both within the same bound, the brief within the bound pi-fold's request states, oldest stage first to go", () => {
		const many: Step[] = Array.from({ length: 60 }, (_, i) => ({
			stage: i + 1,
			files: [{ path: `pkg/dir/file-${i + 1}.js`, text: FILE_TEXT }],
		}));
		const summary = summarize(piRequest(many));
		const brief = writeBrief(pifoldRequest(many));
		expect(summary.length).toBeLessThanOrEqual(WRITER_MAX_CHARS);
		expect(brief.length).toBeLessThanOrEqual(1_200);
		expect(SUMMARY_SYSTEM_PROMPT).toContain("at most 1200 characters");
		for (const text of [summary, brief]) {
			expect(text).toContain("Stage 59: read pkg/dir/file-59.js (3 lines). Receipt for stage 59: R59-ABCDEFGH");
			expect(text).not.toContain("Receipt for stage 2:");
		}
		expect(brief).toMatch(/^Stages 1-60 of 64, worked\./);
	});
});
