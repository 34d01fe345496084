// Answers pi-fold's brief requests (`summarizer: "session"`: one bounded request per fold, sent to the session's own
// model, here the faux model whose replies the scripted policy writes): reads pi-fold's request (the span as the
// window shows it as a readable transcript, one labelled paragraph per message, cut at pi-fold's bound) into
// the stand-in writer's events, and has the one writer (bench/session/stand-in-writer.ts, which also writes native's
// compaction summaries) write the brief: the stages it covers, each with its files, their line counts and its
// receipt, newest first, within the bound the request states. Pure functions.

import type { Message } from "@earendil-works/pi-ai";
import { collectEvents, emptyFacts, WRITER_MAX_CHARS, type WriterEvent, writeSpanBrief } from "./stand-in-writer.ts";
import { textOf } from "./window-view.ts";

/** How pi-fold's brief requests start (the system prompt the request carries, as a model reads it). */
const BRIEF_SYSTEM_PREFIX = "You write the brief for a folded span of a coding agent's transcript.";
/** How pi-fold marks a span it cut for the request. */
const CUT_MARK = "[the rest of the span is left out of this request]";

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

/** A label pi-fold's transcript opens a message with (src/briefs span-transcript.ts). */
const LABEL = /^(?:(User|Assistant):|Tool result(?: \((\S+)\))?(?:, an error)?:|Assistant ran (\w+)\((.*)\))$/gm;

/** The span pi-fold sent as events, and whether pi-fold cut it. */
export function spanEvents(messages: readonly Message[]): { events: WriterEvent[]; cut: boolean } {
	const raw = messages
		.filter((m) => m.role === "user")
		.map((m) => textOf(m.content))
		.join("\n");
	const cut = raw.includes(CUT_MARK);
	const text = raw.replace(CUT_MARK, "");
	const events: WriterEvent[] = [];
	const labels = [...text.matchAll(LABEL)];
	for (const [i, m] of labels.entries()) {
		const next = labels[i + 1];
		const body = text
			.slice((m.index ?? 0) + m[0].length, next?.index ?? text.length)
			.replace(/^\n/, "")
			.trimEnd();
		if (m[3] !== undefined) {
			const call = { name: m[3], args: m[4] ?? "" };
			const last = events.at(-1);
			if (last?.kind === "calls") last.calls.push(call);
			else events.push({ kind: "calls", calls: [call] });
		} else if (m[1] === "User") events.push({ kind: "user", text: body });
		else if (m[1] === undefined) events.push({ kind: "result", text: body, whole: !(cut && next === undefined) });
	}
	return { events, cut };
}

/** The brief for pi-fold's request, within the bound it states. */
export function writeBrief(messages: readonly Message[], maxChars = statedBound(messages)): string {
	const { events, cut } = spanEvents(messages);
	const facts = emptyFacts();
	collectEvents(events, facts);
	return writeSpanBrief(facts, cut, Math.min(maxChars, statedBound(messages)));
}
