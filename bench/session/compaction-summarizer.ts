// The deterministic extractive summarizer that answers Pi's native compaction requests in the benchmark, so the
// native arm is a fair baseline: it keeps what a real summarizer keeps (the goal, the current stage and the key for
// the next one, recent progress with exact file paths and receipt codes) in Pi's own section format, bounded to
// `maxChars`; older stage detail is dropped first. Pure functions. See docs/session-benchmark.md.

import type { Message } from "@earendil-works/pi-ai";
import { CURRENT_STAGE_LINE, KEY_LINE, RECEIPT_LINE, STAGE_HEADER } from "./protocol.ts";
import { textOf } from "./window-view.ts";

/** Default bound of one summary: 4,000 characters (about 1,000 faux tokens), before Pi appends its file lists. */
export const DEFAULT_SUMMARY_MAX_CHARS = 4_000;
const GOAL_MAX_CHARS = 900;
/** How Pi's compaction requests start (its SUMMARIZATION_SYSTEM_PROMPT). */
const SUMMARY_SYSTEM_PREFIX = "You are a context summarization assistant";

export function isSummaryRequest(messages: readonly Message[]): boolean {
	const first = messages[0];
	if (first?.role !== "system") return false;
	return textOf(first.content).startsWith(SUMMARY_SYSTEM_PREFIX);
}

interface StageFacts {
	files: string[];
	receipt?: string;
}

interface Extracted {
	goal: string | undefined;
	/** Stages 1..droppedThrough were summarized earlier without detail. */
	droppedThrough: number;
	stages: Map<number, StageFacts>;
	stageCount: number | undefined;
	keys: Map<number, string>;
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
	const facts = extract(previous, conversation);
	return render(facts, turnPrefix, maxChars);
}

function extract(previous: string, conversation: string): Extracted {
	const facts: Extracted = {
		goal: undefined,
		droppedThrough: 0,
		stages: new Map(),
		stageCount: undefined,
		keys: new Map(),
	};
	// From an earlier summary: its goal, its stage lines, its keys.
	const goal = /## (?:Goal|Original Request)\n([\s\S]*?)\n\n##/.exec(previous)?.[1];
	if (goal) facts.goal = goal.trim();
	facts.droppedThrough = Number(/Stages 1-(\d+): done/.exec(previous)?.[1] ?? 0);
	for (const m of previous.matchAll(/Stage (\d+): read ([^\n]*?)\.(?: Receipt for stage \d+: (R\d+-[A-Z0-9]+))?$/gm))
		facts.stages.set(Number(m[1]), {
			files: m[2] === "its files" ? [] : (m[2] as string).split(", "),
			...(m[3] ? { receipt: m[3] } : {}),
		});
	for (const m of previous.matchAll(CURRENT_STAGE_LINE)) {
		const stage = Number(m[1]);
		if (!facts.stages.has(stage)) facts.stages.set(stage, { files: [] });
	}
	const total = /Current stage: \d+ of (\d+)/.exec(previous)?.[1];
	if (total) facts.stageCount = Number(total);
	collectReceipts(previous, facts);
	for (const m of previous.matchAll(KEY_LINE)) facts.keys.set(Number(m[1]), m[2] as string);
	// From the new conversation: the task, then every stage result (Pi shows the first 2,000 characters of each).
	for (const block of conversation.split(/\n\n(?=\[(?:User|Assistant|Assistant tool calls|Tool result)\]: )/)) {
		if (block.startsWith("[User]: ") && !facts.goal) facts.goal = block.slice(8).trim();
		if (!block.startsWith("[Tool result]: ")) continue;
		const text = block.slice(15);
		const header = STAGE_HEADER.exec(text);
		if (!header) continue;
		const stage = Number(header[1]);
		facts.stageCount = Number(header[2]);
		const entry = facts.stages.get(stage) ?? { files: [] };
		const files = text
			.split("\n")
			.filter((l) => l.startsWith("- ") && !/^- q\d+ /.test(l))
			.map((l) => (l.slice(2).split(" (")[0] ?? "").trim());
		if (files.length > 0) entry.files = files;
		facts.stages.set(stage, entry);
		collectReceipts(text, facts);
		for (const m of text.matchAll(KEY_LINE)) facts.keys.set(Number(m[1]), m[2] as string);
	}
	return facts;
}

function collectReceipts(text: string, facts: Extracted): void {
	for (const m of text.matchAll(RECEIPT_LINE)) {
		const stage = Number(m[1]);
		const entry = facts.stages.get(stage) ?? { files: [] };
		entry.receipt = m[2] as string;
		facts.stages.set(stage, entry);
	}
}

function render(facts: Extracted, turnPrefix: boolean, maxChars: number): string {
	const numbers = [...facts.stages.keys()].sort((a, b) => a - b);
	const current = numbers.at(-1) ?? 0;
	const goal = clip(facts.goal ?? "(the task message was not in view)", GOAL_MAX_CHARS);
	const nextKey = facts.keys.get(current + 1);
	const of = facts.stageCount ? ` of ${facts.stageCount}` : "";
	const currentFacts = facts.stages.get(current);
	const currentLine = `Current stage: ${current}${of}${currentFacts?.receipt ? `. Receipt for stage ${current}: ${currentFacts.receipt}` : ""}`;
	const keyLine = nextKey ? `Key for stage ${current + 1}: ${nextKey}` : `Key for stage ${current + 1}: (not seen yet)`;
	const done = numbers.filter((n) => n < current);
	const doneLine = (n: number): string => {
		const f = facts.stages.get(n) as StageFacts;
		return `- [x] Stage ${n}: read ${f.files.length > 0 ? f.files.join(", ") : "its files"}.${f.receipt ? ` Receipt for stage ${n}: ${f.receipt}` : ""}`;
	};
	let dropped = facts.droppedThrough;
	let kept = done.filter((n) => n > dropped);
	const build = (): string => {
		const progress = [
			...(dropped > 0 ? [`- [x] Stages 1-${dropped}: done (details no longer listed)`] : []),
			...kept.map(doneLine),
		];
		if (turnPrefix)
			return [
				`## Original Request\n${goal}`,
				`## Progress So Far\n${progress.join("\n") || "- (no stage finished yet)"}`,
				`## Context Needed to Continue\n- ${currentLine}\n- ${keyLine}`,
			].join("\n\n");
		return [
			`## Goal\n${goal}`,
			"## Constraints & Preferences\n- Open stages in order with the key the previous stage's result gives; answers are exact.",
			`## Progress\n### Done\n${progress.join("\n") || "- (no stage finished yet)"}\n\n### In Progress\n- [ ] ${currentLine}: read its files, answer its questions, then open stage ${current + 1}.\n\n### Blocked\n- (none)`,
			"## Key Decisions\n- **Stage order**: stages are opened strictly in order, with keys read back from stage results.",
			`## Next Steps\n1. Finish stage ${current}, then open stage ${current + 1}.`,
			`## Critical Context\n- ${keyLine}`,
		].join("\n\n");
	};
	let text = build();
	while (text.length > maxChars && kept.length > 0) {
		dropped = kept[0] as number;
		kept = kept.slice(1);
		text = build();
	}
	return text;
}

function clip(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
