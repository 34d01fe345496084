// The one stand-in writer for every summary the benchmark's model writes: Pi's native compaction summaries
// (compaction-summarizer.ts reads Pi's request) and pi-fold's span briefs (brief-writer.ts reads pi-fold's request).
// Both readers turn their request into the same events (what the user said, the calls made, the results shown, whole
// or cut as the host cut them), and this writer extracts the same facts from them: what Pi's compaction prompt asks a
// summary to keep, the files touched, facts about them (line counts, from a read shown whole or from the agent's own
// words) and receipts, plus the stage bookkeeping (current stage, next key). It writes them in the format the request
// asks for, within the same bound (WRITER_MAX_CHARS, or less when the request states less), dropping the oldest
// stage's detail first. The curating agent's own briefs are not written here (bench/session/pifold-policy.ts).
// Pure functions.

import { KEY_LINE, RECEIPT_LINE, STAGE_HEADER } from "./protocol.ts";

/** Characters of one summary or brief at most, whichever host asks (a request may state a lower bound). */
export const WRITER_MAX_CHARS = 4_000;
const GOAL_MAX_CHARS = 900;

/** What a host's request shows, in order. */
export type WriterEvent =
	| { kind: "user"; text: string }
	| { kind: "calls"; calls: { name: string; args: string }[] }
	| { kind: "result"; text: string; whole: boolean };

export interface StageFacts {
	files: string[];
	receipt?: string;
}

/** The facts a summary keeps. */
export interface WorkFacts {
	goal: string | undefined;
	/** Stages 1..droppedThrough were summarized earlier without detail. */
	droppedThrough: number;
	stages: Map<number, StageFacts>;
	stageCount: number | undefined;
	keys: Map<number, string>;
	/** Line counts of files, by path. */
	lines: Map<string, number>;
	/** Files read outside any stage the events show. */
	looseFiles: string[];
}

export function emptyFacts(): WorkFacts {
	return {
		goal: undefined,
		droppedThrough: 0,
		stages: new Map(),
		stageCount: undefined,
		keys: new Map(),
		lines: new Map(),
		looseFiles: [],
	};
}

/** Lines of a text as a reader counts them (a trailing newline does not start another line). */
function linesOf(text: string): number {
	if (text.length === 0) return 0;
	return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").length;
}

/** "a.js (120 lines)" in a summary or brief, and "a.js has 120 lines" in the agent's own words. */
const NAMED_LINES = /([\w@./-]+\.\w+) (?:\((\d+) lines\)|has (\d+) lines)/g;

/** Facts stated in free text (an earlier summary, a nested brief, the agent's note): receipts, line counts, keys. */
export function collectStated(text: string, facts: WorkFacts): void {
	for (const m of text.matchAll(NAMED_LINES)) facts.lines.set(m[1] as string, Number(m[2] ?? m[3]));
	for (const m of text.matchAll(RECEIPT_LINE)) stageOf(facts, Number(m[1])).receipt = m[2] as string;
	for (const m of text.matchAll(KEY_LINE)) facts.keys.set(Number(m[1]), m[2] as string);
}

function stageOf(facts: WorkFacts, stage: number): StageFacts {
	const entry = facts.stages.get(stage) ?? { files: [] };
	facts.stages.set(stage, entry);
	return entry;
}

function addFile(files: string[], path: string): void {
	if (!files.includes(path)) files.push(path);
}

/** Adds what the events show to `facts`: the task, every stage result, every read (its lines when shown whole). */
export function collectEvents(events: readonly WriterEvent[], facts: WorkFacts): void {
	let current: number | undefined;
	let pending: { name: string; args: string }[] = [];
	for (const event of events) {
		if (event.kind === "user") {
			if (!facts.goal) facts.goal = event.text.trim();
			collectStated(event.text, facts);
			continue;
		}
		if (event.kind === "calls") {
			pending = [...event.calls];
			for (const call of event.calls) {
				collectStated(call.args, facts);
				const file = readPath(call);
				if (file) addFile(current === undefined ? facts.looseFiles : stageOf(facts, current).files, file);
			}
			continue;
		}
		const call = pending.shift();
		const header = STAGE_HEADER.exec(event.text);
		if (header) {
			current = Number(header[1]);
			facts.stageCount = Number(header[2]);
			const entry = stageOf(facts, current);
			for (const line of event.text.split("\n"))
				if (line.startsWith("- ") && !/^- q\d+ /.test(line))
					addFile(entry.files, (line.slice(2).split(" (")[0] ?? "").trim());
		}
		collectStated(event.text, facts);
		const file = call ? readPath(call) : undefined;
		if (file && event.whole) facts.lines.set(file, linesOf(event.text));
	}
}

/** The path a read call names (pi-fold renders arguments as JSON, Pi as `path="..."`). */
function readPath(call: { name: string; args: string }): string | undefined {
	if (call.name !== "read") return undefined;
	const m = /"path":"([^"]+)"|path="([^"]+)"/.exec(call.args);
	return m ? ((m[1] ?? m[2]) as string) : undefined;
}

/** A file as a summary names it: with its line count when known. */
function fileText(facts: WorkFacts, path: string): string {
	const lines = facts.lines.get(path);
	return lines === undefined ? path : `${path} (${lines} lines)`;
}

/** One stage's line, the same in a compaction summary and a brief. */
export function stageLine(facts: WorkFacts, stage: number): string {
	const f = facts.stages.get(stage) ?? { files: [] };
	const files = f.files.length > 0 ? f.files.map((p) => fileText(facts, p)).join(", ") : "its files";
	return `Stage ${stage}: read ${files}.${f.receipt ? ` Receipt for stage ${stage}: ${f.receipt}` : ""}`;
}

/** Parses a stage line back (an earlier summary's), files and line counts included. */
export function collectStageLines(text: string, facts: WorkFacts): void {
	for (const m of text.matchAll(/Stage (\d+): read ([^\n]*?)\.(?: Receipt for stage \d+: (R\d+-[A-Z0-9]+))?$/gm)) {
		const entry = stageOf(facts, Number(m[1]));
		if (m[2] !== "its files")
			for (const part of (m[2] as string).split(", ")) addFile(entry.files, part.replace(/ \(\d+ lines\)$/, ""));
		if (m[3]) entry.receipt = m[3];
	}
	collectStated(text, facts);
}

/**
 * The longest text `build(kept)` makes within `maxChars`, dropping the oldest of `stages` first; `build` gets the
 * stages kept and the last one dropped (0: none).
 */
export function fitNewestFirst(
	stages: readonly number[],
	maxChars: number,
	build: (kept: readonly number[], droppedThrough: number) => string,
	droppedBefore = 0,
): string {
	let kept = [...stages];
	let dropped = droppedBefore;
	let text = build(kept, dropped);
	while (text.length > maxChars && kept.length > 0) {
		dropped = Math.max(dropped, kept[0] as number);
		kept = kept.slice(1);
		text = build(kept, dropped);
	}
	return text.length <= maxChars ? text : `${text.slice(0, maxChars - 3)}...`;
}

/** Pi's compaction format ("## Goal" ... or, for a split turn's prefix, "## Original Request" ...). */
export function writeSummary(facts: WorkFacts, turnPrefix: boolean, maxChars = WRITER_MAX_CHARS): string {
	const numbers = [...facts.stages.keys()].sort((a, b) => a - b);
	const current = numbers.at(-1) ?? 0;
	const goal = clip(facts.goal ?? "(the task message was not in view)", GOAL_MAX_CHARS);
	const nextKey = facts.keys.get(current + 1);
	const of = facts.stageCount ? ` of ${facts.stageCount}` : "";
	const receipt = facts.stages.get(current)?.receipt;
	const currentLine = `Current stage: ${current}${of}${receipt ? `. Receipt for stage ${current}: ${receipt}` : ""}`;
	const keyLine = nextKey ? `Key for stage ${current + 1}: ${nextKey}` : `Key for stage ${current + 1}: (not seen yet)`;
	const done = numbers.filter((n) => n < current && n > facts.droppedThrough);
	const build = (kept: readonly number[], dropped: number): string => {
		const progress = [
			...(dropped > 0 ? [`- [x] Stages 1-${dropped}: done (details no longer listed)`] : []),
			...kept.map((n) => `- [x] ${stageLine(facts, n)}`),
		].join("\n");
		if (turnPrefix)
			return [
				`## Original Request\n${goal}`,
				`## Progress So Far\n${progress || "- (no stage finished yet)"}`,
				`## Context Needed to Continue\n- ${currentLine}\n- ${keyLine}`,
			].join("\n\n");
		return [
			`## Goal\n${goal}`,
			"## Constraints & Preferences\n- Open stages in order with the key the previous stage's result gives; answers are exact.",
			`## Progress\n### Done\n${progress || "- (no stage finished yet)"}\n\n### In Progress\n- [ ] ${currentLine}: read its files, answer its questions, then open stage ${current + 1}.\n\n### Blocked\n- (none)`,
			"## Key Decisions\n- **Stage order**: stages are opened strictly in order, with keys read back from stage results.",
			`## Next Steps\n1. Finish stage ${current}, then open stage ${current + 1}.`,
			`## Critical Context\n- ${keyLine}`,
		].join("\n\n");
	};
	return fitNewestFirst(done, maxChars, build, facts.droppedThrough);
}

/** A span's brief: the stages it covers, then each stage's line newest first (files, line counts, receipt). */
export function writeSpanBrief(facts: WorkFacts, cut: boolean, maxChars = WRITER_MAX_CHARS): string {
	const numbers = [...facts.stages.keys()].sort((a, b) => a - b);
	const first = numbers[0];
	const last = numbers.at(-1);
	const of = facts.stageCount ? ` of ${facts.stageCount}` : "";
	const head =
		first === undefined ? "" : `${first === last ? `Stage ${first}` : `Stages ${first}-${last}`}${of}, worked.`;
	const loose =
		facts.looseFiles.length > 0
			? `Read ${facts.looseFiles.length} file${facts.looseFiles.length === 1 ? "" : "s"}: ${facts.looseFiles.map((p) => fileText(facts, p)).join(", ")}.`
			: "";
	const build = (kept: readonly number[], dropped: number): string => {
		const parts = [
			...(cut ? ["(Only the span's start was shown.)"] : []),
			head,
			...[...kept].reverse().map((n) => stageLine(facts, n)),
			...(dropped > 0 && first !== undefined ? [`(Stages ${first}-${dropped}: details left out.)`] : []),
			loose,
		].filter(Boolean);
		return parts.join(" ") || "Tool work of an earlier step; nothing in it names a stage, receipt or file.";
	};
	return fitNewestFirst(numbers, maxChars, build);
}

function clip(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}
