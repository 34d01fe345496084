// Answers pi-fold's brief requests (`summarizer: "session"`: one bounded request per fold, sent to the session's own
// model, here the faux model whose replies the scripted policy writes). Like the native arm's compaction summarizer
// it is extractive and bounded: it names what the span established that a later question could need (the stages it
// covers, their receipts, the files read), newest detail kept first when the brief would run over. Pure functions.

import type { Message } from "@earendil-works/pi-ai";
import { RECEIPT_LINE, STAGE_HEADER } from "./protocol.ts";
import { textOf } from "./window-view.ts";

/** Characters of a written brief at most (pi-fold refuses briefs over 1,200). */
export const BRIEF_WRITER_MAX_CHARS = 1_100;

/** How pi-fold's brief requests start (the system prompt the request carries, as a model reads it). */
const BRIEF_SYSTEM_PREFIX = "You write the brief for a folded span of a coding agent's transcript.";

/** Whether a request is pi-fold's brief request (read off the system prompt it was sent with). */
export function isBriefRequest(messages: readonly Message[]): boolean {
	const first = messages[0];
	return first?.role === "system" && textOf(first.content).startsWith(BRIEF_SYSTEM_PREFIX);
}

/** The span's rendering, JSON escapes undone (tool results and calls are JSON-encoded in it). */
function spanText(messages: readonly Message[]): string {
	const raw = messages
		.filter((m) => m.role === "user")
		.map((m) => textOf(m.content))
		.join("\n");
	return raw.replaceAll("\\n", "\n").replaceAll('\\"', '"');
}

/** An extractive brief of at most `maxChars` characters: stages and receipts, then files read. */
export function writeBrief(messages: readonly Message[], maxChars = BRIEF_WRITER_MAX_CHARS): string {
	const text = spanText(messages);
	const stages = new Map<number, string | undefined>();
	let of = 0;
	for (const line of text.split("\n")) {
		const header = STAGE_HEADER.exec(line.replace(/^.*?(# Stage)/, "$1"));
		if (header) {
			stages.set(Number(header[1]), stages.get(Number(header[1])));
			of = Number(header[2]);
		}
	}
	for (const m of text.matchAll(RECEIPT_LINE)) stages.set(Number(m[1]), m[2] as string);
	const files = [
		...new Set([...text.matchAll(/"name":"read","arguments":\{"path":"([^"]+)"/g)].map((m) => m[1] as string)),
	];
	const numbers = [...stages.keys()].sort((a, b) => a - b);
	const parts: string[] = [];
	if (numbers.length > 0) {
		const first = numbers[0] as number;
		const last = numbers.at(-1) as number;
		parts.push(
			`${first === last ? `Stage ${first}` : `Stages ${first}-${last}`}${of ? ` of ${of}` : ""}: opened and worked.`,
		);
		// Newest receipts first: when the brief is full, the oldest detail is the one dropped.
		for (const n of [...numbers].reverse()) {
			const receipt = stages.get(n);
			if (receipt) parts.push(`Receipt for stage ${n}: ${receipt}.`);
		}
	}
	if (files.length > 0) parts.push(`Read ${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}.`);
	if (parts.length === 0) parts.push("Tool work of an earlier step; nothing in it names a stage, receipt or file.");
	// pi-fold cuts a long span for the request; say so, so the reader knows to peek for the rest.
	if (text.includes("[span truncated for the brief request]")) parts.unshift("(Only the span's start was shown.)");
	let out = "";
	for (const part of parts) {
		const next = out ? `${out} ${part}` : part;
		if (next.length > maxChars) {
			out = out && out.length + 4 <= maxChars ? `${out} ...` : `${next.slice(0, maxChars - 3)}...`;
			break;
		}
		out = next;
	}
	return out.slice(0, maxChars);
}
