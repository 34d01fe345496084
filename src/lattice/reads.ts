// File reads inside a span: for each successful result of a file-reading tool (Pi's `read`, or any
// tool named like one, e.g. `read_file`, `mcp__fs__read_file`) whose call names a path, the path and
// the SHA-256 of the text the tool returned, so a later check can tell whether the file on disk
// still holds that text. A whole-file read is compared with the whole file; a ranged or truncated
// read (Pi's offset/limit, or its "[Showing lines a-b of n ...]" notice) records which lines it
// showed, and only those lines are compared. Images and reads that returned no content are skipped.
// Pure (hashing through the Wasm core).

import { plural } from "../common/index.ts";
import { contentText, type TranscriptEntry, type TranscriptMessage } from "../transcript/index.ts";
import { sha256Hex } from "../wasm/index.ts";

/** One file read a fold holds: the result entry, the path as the call named it, the text's digest. */
export interface FileRead {
	/** Entry id of the tool result. */
	readonly entry: string;
	readonly path: string;
	/** SHA-256 (hex) of the text the tool returned, without a continuation notice. */
	readonly sha256: string;
	/** [first line (1-based), line count] when the read showed only part of the file. */
	readonly lines?: readonly [number, number];
}

/** Most reads one fold record lists (the oldest beyond this are not tracked). */
export const FOLD_READS_MAX = 256;
/** Longest path recorded. */
export const READ_PATH_MAX_CHARS = 1_024;

const READ_TOOL = /(^|[_.:-])read(_?file)?$/i;
const PATH_KEYS = ["path", "file_path", "filePath", "file"] as const;
/** Pi's continuation notices, appended after two newlines when a read stops before the end. */
const NOTICE = /\n\n\[(?:Showing lines \d+-\d+ of \d+[^\]\n]*|\d+ more lines in file\.[^\]\n]*)\]$/;
const NO_CONTENT = /^\[Line \d+ is [^\]\n]*exceeds[^\]\n]*\]$|^Read image file \[/;

/** True for a tool whose name reads like a file read (`read`, `Read`, `read_file`, `fs.read`, ...). */
export function isFileReadTool(name: string): boolean {
	return READ_TOOL.test(name);
}

function pathOf(args: unknown): string | undefined {
	if (args === null || typeof args !== "object") return undefined;
	for (const key of PATH_KEYS) {
		const value = (args as Record<string, unknown>)[key];
		if (typeof value === "string" && value.length > 0 && value.length <= READ_PATH_MAX_CHARS) return value;
	}
	return undefined;
}

function positiveInt(value: unknown): number | undefined {
	return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** What a file read's result shows: the path its call named, the file text (no continuation notice), its range. */
export interface ShownRead {
	readonly path: string;
	readonly text: string;
	/** [first line (1-based), line count] when the read showed only part of the file. */
	readonly lines?: readonly [number, number];
}

/** What a read's result shows, given its call's arguments; undefined when it holds no file text. */
function shownRead(args: unknown, resultText: string): ShownRead | undefined {
	const path = pathOf(args);
	if (path === undefined || NO_CONTENT.test(resultText)) return undefined;
	const notice = NOTICE.exec(resultText);
	const text = notice ? resultText.slice(0, notice.index) : resultText;
	const a = args as { offset?: unknown; limit?: unknown };
	const from = positiveInt(a.offset);
	const ranged = notice !== null || from !== undefined || a.limit !== undefined;
	return ranged ? { path, text, lines: [from ?? 1, text.split("\n").length] } : { path, text };
}

/** Lines of a tool result's text (a trailing newline ends the last line, it does not start another). */
export function resultLineCount(text: string): number {
	return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").length;
}

/** Lines of a read's text: none when it is empty. */
function textLines(text: string): number {
	return text.length === 0 ? 0 : resultLineCount(text);
}

/** The file's length in lines as Pi's continuation notice states it, when the read stopped early. */
function fileLinesFromNotice(resultText: string, from: number, shownLines: number): number | undefined {
	const showing = /\n\n\[Showing lines \d+-\d+ of (\d+)[^\]\n]*\]$/.exec(resultText);
	if (showing) return Number(showing[1]);
	const more = /\n\n\[(\d+) more lines in file\.[^\]\n]*\]$/.exec(resultText);
	return more ? from - 1 + shownLines + Number(more[1]) : undefined;
}

/**
 * How big the file a read's result shows is, in a reader's words: "120 lines" when the read showed the
 * file to its end from its first line; "lines 1-2,000 of 3,500" when it stopped early (Pi's continuation
 * notice states the file's length); "lines 40-60" when a ranged read says nothing more. Undefined when
 * the result holds no file text (an image, an error, a call with no path).
 */
export function readSize(args: unknown, resultText: string): string | undefined {
	const shown = shownRead(args, resultText);
	if (!shown) return undefined;
	const n = (v: number) => v.toLocaleString("en-US");
	if (!shown.lines) return plural(textLines(shown.text), "line");
	const from = shown.lines[0];
	const count = textLines(shown.text);
	// No notice and no limit: the read went on to the file's end.
	const a = args as { limit?: unknown };
	const total = fileLinesFromNotice(resultText, from, count) ?? (a.limit === undefined ? from - 1 + count : undefined);
	if (total !== undefined && from === 1 && count === total) return plural(total, "line");
	const range = `lines ${n(from)}-${n(from + count - 1)}`;
	return total === undefined ? range : `${range} of ${n(total)}`;
}

/** One successful file read among messages, paired with the call that asked for it. */
interface ReadResult {
	/** Index of the tool result among the messages. */
	readonly index: number;
	readonly callId: string;
	/** The call's tool name and arguments. */
	readonly name: string;
	readonly args: unknown;
	/** The result's text, and what it showed of the file. */
	readonly text: string;
	readonly shown: ShownRead;
}

/** The successful file reads among `messages`, in order: the one pairing of calls and results every reader uses. */
export function* readResults(messages: readonly TranscriptMessage[]): Generator<ReadResult> {
	const calls = new Map<string, { name: string; args: unknown }>();
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index] as TranscriptMessage;
		if (message.role === "assistant" && Array.isArray(message.content))
			for (const b of message.content as { type?: unknown; id?: unknown; name?: unknown; arguments?: unknown }[])
				if (b.type === "toolCall" && typeof b.id === "string" && typeof b.name === "string")
					calls.set(b.id, { name: b.name, args: b.arguments });
		if (message.role !== "toolResult" || message.isError === true || typeof message.toolCallId !== "string") continue;
		const call = calls.get(message.toolCallId);
		if (!call || !isFileReadTool(call.name)) continue;
		const text = contentText(message.content, "\n");
		const shown = shownRead(call.args, text);
		if (shown) yield { index, callId: message.toolCallId, name: call.name, args: call.args, text, shown };
	}
}

/** The file reads among `leaves`, in order, at most FOLD_READS_MAX. */
export function fileReadsOf(leaves: readonly TranscriptEntry[]): FileRead[] {
	const out: FileRead[] = [];
	for (const r of readResults(leaves.map((l) => l.message))) {
		const read: FileRead = {
			entry: (leaves[r.index] as TranscriptEntry).id,
			path: r.shown.path,
			sha256: sha256Hex(r.shown.text),
		};
		out.push(r.shown.lines ? { ...read, lines: r.shown.lines } : read);
		if (out.length >= FOLD_READS_MAX) break;
	}
	return out;
}

/** The `reads` of a new fold record over `leaves`: none for a consolidation (its child folds hold them). */
export function readsField(leaves: readonly TranscriptEntry[], kind: string): { reads?: FileRead[] } {
	if (kind === "consolidation") return {};
	const reads = fileReadsOf(leaves);
	return reads.length > 0 ? { reads } : {};
}
