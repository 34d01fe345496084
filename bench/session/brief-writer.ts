// Answers pi-fold's brief requests (`summarizer: "session"`: one bounded request per fold, sent to the session's own
// model, here the faux model whose replies the scripted policy writes): reads pi-fold's request (the span as the
// window shows it, one `--- role id (tool)` block per entry with its content as JSON, cut at pi-fold's bound) into
// the stand-in writer's events, and has the one writer (bench/session/stand-in-writer.ts, which also writes native's
// compaction summaries) write the brief: the stages it covers, each with its files, their line counts and its
// receipt, newest first, within the bound the request states. Pure functions.

import type { Message } from "@earendil-works/pi-ai";
import { collectEvents, emptyFacts, WRITER_MAX_CHARS, type WriterEvent, writeSpanBrief } from "./stand-in-writer.ts";
import { textOf } from "./window-view.ts";

/** How pi-fold's brief requests start (the system prompt the request carries, as a model reads it). */
const BRIEF_SYSTEM_PREFIX = "You write the brief for a folded span of a coding agent's transcript.";
/** How pi-fold marks a span it cut for the request. */
const CUT_MARK = "[span truncated for the brief request]";

/** Whether a request is pi-fold's brief request (read off the system prompt it was sent with). */
export function isBriefRequest(messages: readonly Message[]): boolean {
	const first = messages[0];
	return first?.role === "system" && textOf(first.content).startsWith(BRIEF_SYSTEM_PREFIX);
}

/** The bound the request states ("In at most 1200 characters"), else the writer's own. */
export function statedBound(messages: readonly Message[]): number {
	const first = messages[0];
	const stated = first?.role === "system" ? /at most (\d+) characters/.exec(textOf(first.content))?.[1] : undefined;
	return Math.min(WRITER_MAX_CHARS, stated ? Number(stated) : WRITER_MAX_CHARS);
}

type Block = { type: string; text?: string; name?: string; arguments?: unknown };

/** An entry's content: the JSON pi-fold rendered, or (cut mid-entry) its text with JSON escapes undone. */
function contentBlocks(body: string): Block[] | string {
	try {
		const parsed = JSON.parse(body) as unknown;
		return Array.isArray(parsed) ? (parsed as Block[]) : typeof parsed === "string" ? parsed : body;
	} catch {
		return body.replaceAll("\\n", "\n").replaceAll('\\"', '"');
	}
}

/** The span pi-fold sent as events, and whether pi-fold cut it. */
export function spanEvents(messages: readonly Message[]): { events: WriterEvent[]; cut: boolean } {
	const raw = messages
		.filter((m) => m.role === "user")
		.map((m) => textOf(m.content))
		.join("\n");
	const cut = raw.includes(CUT_MARK);
	const events: WriterEvent[] = [];
	const parts = raw.replace(CUT_MARK, "").split(/^--- (\w+) \S+(?: \(\S+\))?$/m);
	for (let i = 1; i + 1 < parts.length; i += 2) {
		const role = parts[i] as string;
		const body = (parts[i + 1] as string).replace(/^\n/, "").replace(/\n$/, "");
		const blocks = contentBlocks(body);
		const text = typeof blocks === "string" ? blocks : blocks.flatMap((b) => (b.text ? [b.text] : [])).join("\n");
		if (role === "user") events.push({ kind: "user", text });
		else if (role === "toolResult") events.push({ kind: "result", text, whole: !isCutBody(body) });
		else if (role === "assistant") {
			const calls =
				typeof blocks === "string"
					? // Cut inside the message: its calls as the raw text shows them.
						[...blocks.matchAll(/"name":"(\w+)","arguments":(\{[^}]*\})/g)].map((m) => ({
							name: m[1] as string,
							args: m[2] as string,
						}))
					: blocks.flatMap((b) =>
							b.type === "toolCall" ? [{ name: String(b.name), args: JSON.stringify(b.arguments ?? {}) }] : [],
						);
			if (calls.length > 0) events.push({ kind: "calls", calls });
		}
	}
	return { events, cut };
}

/** Whether an entry's body failed to parse as JSON (pi-fold cut the span inside it). */
function isCutBody(body: string): boolean {
	try {
		JSON.parse(body);
		return false;
	} catch {
		return true;
	}
}

/** The brief for pi-fold's request, within the bound it states. */
export function writeBrief(messages: readonly Message[], maxChars = statedBound(messages)): string {
	const { events, cut } = spanEvents(messages);
	const facts = emptyFacts();
	collectEvents(events, facts);
	return writeSpanBrief(facts, cut, Math.min(maxChars, statedBound(messages)));
}
