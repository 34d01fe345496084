// A read-only view of exactly what the provider was sent on one request: tool calls paired with their results,
// the visible file reads, the visible stage results and every user-visible text (the task, compaction summaries).
// The scripted policy decides from this view alone. Pure functions.

import type { Message } from "@earendil-works/pi-ai";
import { COMPLETE_HEADER, CURRENT_STAGE_LINE, KEY_LINE, REUSE_PREFIX, STAGE_HEADER, STAGE_TOOL } from "./protocol.ts";

export interface VisibleCall {
	id: string;
	name: string;
	args: Record<string, unknown>;
	/** Index of the assistant message that made the call. */
	index: number;
}

export interface VisibleResult {
	call: VisibleCall | undefined;
	toolName: string;
	text: string;
	isError: boolean;
	/** Index of the tool result message in the window. */
	index: number;
}

export interface StageView {
	stage: number;
	stageCount: number;
	reissued: boolean;
	nextKey: string | undefined;
	files: string[];
	questions: QuestionView[];
	note: boolean;
	/** Index of the stage result in the window. */
	index: number;
}

export interface QuestionView {
	id: string;
	kind: string;
	text: string;
	/** Backtick-quoted items in the question, in order (file, symbol, candidates). */
	quoted: string[];
	/** The stage number a receipt question names. */
	aboutStage: number | undefined;
	/** A fact from earlier work the stage uses ("From your earlier work: ..."): it does not say where the fact is. */
	reuse?: boolean;
}

export interface WindowView {
	messages: readonly Message[];
	results: VisibleResult[];
	/** Text of every user message (the task, compaction summaries, steering). */
	userTexts: string[];
	/** Last visible successful read per path. */
	reads: Map<string, VisibleResult>;
	stages: StageView[];
	complete: boolean;
	/** The model's context window in tokens, which the agent knows as any model knows its limits. */
	windowTokens?: number;
}

export function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((b: { type?: string; text?: string }) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
		.join("\n");
}

export function buildView(messages: readonly Message[]): WindowView {
	const calls = new Map<string, VisibleCall>();
	const results: VisibleResult[] = [];
	const userTexts: string[] = [];
	messages.forEach((message, index) => {
		if (message.role === "assistant") {
			for (const block of message.content)
				if (block.type === "toolCall")
					calls.set(block.id, {
						id: block.id,
						name: block.name,
						args: block.arguments as Record<string, unknown>,
						index,
					});
		} else if (message.role === "toolResult") {
			results.push({
				call: calls.get(message.toolCallId),
				toolName: message.toolName,
				text: textOf(message.content),
				isError: message.isError,
				index,
			});
		} else if (message.role === "user") userTexts.push(textOf(message.content));
	});
	const reads = new Map<string, VisibleResult>();
	const stages: StageView[] = [];
	let complete = false;
	for (const r of results) {
		if (r.isError) continue;
		if (r.toolName === "read" && typeof r.call?.args.path === "string") reads.set(r.call.args.path, r);
		if (r.toolName === STAGE_TOOL) {
			if (r.text.startsWith(COMPLETE_HEADER)) complete = true;
			const stage = parseStage(r.text, r.index);
			if (stage) stages.push(stage);
		}
	}
	return { messages, results, userTexts, reads, stages, complete };
}

export function parseStage(text: string, index: number): StageView | undefined {
	const lines = text.split("\n");
	const header = STAGE_HEADER.exec(lines[0] ?? "");
	if (!header) return undefined;
	const stage = Number(header[1]);
	const files: string[] = [];
	const questions: QuestionView[] = [];
	let section = "";
	let nextKey: string | undefined;
	for (const line of lines.slice(1)) {
		for (const m of line.matchAll(KEY_LINE)) if (Number(m[1]) === stage + 1) nextKey = m[2];
		if (line.startsWith("Read these files:")) section = "files";
		else if (line.startsWith("Questions")) section = "questions";
		else if (line.startsWith("- ") && section === "files") files.push((line.slice(2).split(" (")[0] ?? "").trim());
		else if (line.startsWith("- ") && section === "questions") {
			const m = /^- (q\d+) \(([a-z-]+)\): (.*)$/.exec(line);
			if (m) {
				const text = m[3] as string;
				questions.push({
					id: m[1] as string,
					kind: m[2] as string,
					text,
					quoted: [...text.matchAll(/`([^`]+)`/g)].map((q) => q[1] as string),
					aboutStage: Number(/stage (\d+)/.exec(text)?.[1]) || undefined,
					reuse: text.startsWith(REUSE_PREFIX),
				});
			}
		}
	}
	return {
		stage,
		stageCount: Number(header[2]),
		reissued: lines[0]?.includes("(reissued)") ?? false,
		nextKey,
		files,
		questions,
		note: lines.some((l) => l.startsWith("Note: write")),
		index,
	};
}

/** Every text the agent can see: user messages (task, summaries) and tool results. */
export function visibleTexts(view: WindowView): string[] {
	return [...view.userTexts, ...view.results.map((r) => r.text)];
}

/** The stage tool's refusal names the stage in progress ("... the current stage is 27; ..."). */
const REFUSED_STAGE_LINE = /the current stage is (\d+)/g;

/**
 * The highest stage a summary says was current, or the stage tool said was in progress when it
 * refused a call (what the agent reads when the stage's own instructions left the window), or 0.
 */
export function summaryStage(view: WindowView): number {
	let max = 0;
	for (const text of view.userTexts)
		for (const m of text.matchAll(CURRENT_STAGE_LINE)) max = Math.max(max, Number(m[1]));
	for (const r of view.results)
		if (r.isError) for (const m of r.text.matchAll(REFUSED_STAGE_LINE)) max = Math.max(max, Number(m[1]));
	return max;
}

/** A key for `stage` visible anywhere (stage result, task message or summary). */
export function visibleKey(view: WindowView, stage: number): string | undefined {
	let found: string | undefined;
	for (const text of visibleTexts(view))
		for (const m of text.matchAll(KEY_LINE)) if (Number(m[1]) === stage) found = m[2];
	return found;
}

/** Tool calls made after window index `index` (the policy's "since this stage opened"). */
export function callsSince(view: WindowView, index: number): VisibleCall[] {
	return view.results.filter((r) => r.index > index && r.call).map((r) => r.call as VisibleCall);
}
