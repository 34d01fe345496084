// Answers Pi's native compaction requests in the benchmark: reads Pi's request (its serialized conversation, where
// Pi cuts every tool result to its first 2,000 characters, and the previous summary when it updates one) into the
// stand-in writer's events, and has the one writer (bench/session/stand-in-writer.ts, which also writes pi-fold's
// briefs) write the summary in Pi's own section format, bounded. Pure functions. See docs/session-benchmark.md.

import type { Message } from "@earendil-works/pi-ai";
import { CURRENT_STAGE_LINE } from "./protocol.ts";
import {
	collectEvents,
	collectStageLines,
	emptyFacts,
	type WorkFacts,
	WRITER_MAX_CHARS,
	type WriterEvent,
	writeSummary,
} from "./stand-in-writer.ts";
import { textOf } from "./window-view.ts";

/** Default bound of one summary: the stand-in writer's (4,000 characters), before Pi appends its file lists. */
export const DEFAULT_SUMMARY_MAX_CHARS = WRITER_MAX_CHARS;
/** How Pi's compaction requests start (its SUMMARIZATION_SYSTEM_PROMPT). */
const SUMMARY_SYSTEM_PREFIX = "You are a context summarization assistant";
/** How Pi marks a tool result it cut for the summary request. */
const CUT_MARK = /\n\n\[\.\.\. \d+ more characters truncated\]$/;

export function isSummaryRequest(messages: readonly Message[]): boolean {
	const first = messages[0];
	if (first?.role !== "system") return false;
	return textOf(first.content).startsWith(SUMMARY_SYSTEM_PREFIX);
}

export function summarize(messages: readonly Message[], maxChars = DEFAULT_SUMMARY_MAX_CHARS): string {
	const prompt = messages
		.filter((m) => m.role === "user")
		.map((m) => textOf(m.content))
		.join("\n");
	const turnPrefix = prompt.startsWith("# Conversation\n");
	const conversation = turnPrefix
		? prompt.slice("# Conversation\n".length, prompt.lastIndexOf("\n\n# Instructions\n"))
		: (/<conversation>\n([\s\S]*?)\n<\/conversation>/.exec(prompt)?.[1] ?? "");
	const previous = /<previous-summary>\n([\s\S]*?)\n<\/previous-summary>/.exec(prompt)?.[1] ?? "";
	const facts = fromPrevious(previous);
	collectEvents(piEvents(conversation), facts);
	return writeSummary(facts, turnPrefix, Math.min(maxChars, WRITER_MAX_CHARS));
}

/** What an earlier summary said: its goal, its stage lines (files, line counts, receipts), its keys. */
function fromPrevious(previous: string): WorkFacts {
	const facts = emptyFacts();
	const goal = /## (?:Goal|Original Request)\n([\s\S]*?)\n\n##/.exec(previous)?.[1];
	if (goal) facts.goal = goal.trim();
	facts.droppedThrough = Number(/Stages 1-(\d+): done/.exec(previous)?.[1] ?? 0);
	collectStageLines(previous, facts);
	for (const m of previous.matchAll(CURRENT_STAGE_LINE)) {
		const stage = Number(m[1]);
		if (!facts.stages.has(stage)) facts.stages.set(stage, { files: [] });
	}
	const total = /Current stage: \d+ of (\d+)/.exec(previous)?.[1];
	if (total) facts.stageCount = Number(total);
	return facts;
}

/** Pi's serialized conversation as events: `[User]: ...`, `[Assistant tool calls]: a(x=1); b(y="z")`, `[Tool result]: ...`. */
function piEvents(conversation: string): WriterEvent[] {
	const events: WriterEvent[] = [];
	for (const block of conversation.split(/\n\n(?=\[(?:User|Assistant|Assistant tool calls|Tool result)\]: )/)) {
		if (block.startsWith("[User]: ")) events.push({ kind: "user", text: block.slice(8) });
		else if (block.startsWith("[Assistant tool calls]: "))
			events.push({
				kind: "calls",
				calls: [...block.slice(24).matchAll(/(\w+)\(([\s\S]*?)\)(?=; \w+\(|$)/g)].map((m) => ({
					name: m[1] as string,
					args: m[2] as string,
				})),
			});
		else if (block.startsWith("[Tool result]: ")) {
			const text = block.slice(15);
			const cut = CUT_MARK.exec(text);
			events.push({ kind: "result", text: cut ? text.slice(0, cut.index) : text, whole: !cut });
		}
	}
	return events;
}
