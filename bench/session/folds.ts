// What a pi-fold window shows the scripted agent about folds, read off the messages the provider was sent: the
// placeholders of collapsed folds (id, size, brief), the visible pages of `peek` results assembled into each fold's
// exact source, and the file texts and receipts that source holds. Pure functions over a WindowView.

import type { Message } from "@earendil-works/pi-ai";
import { RECEIPT_LINE } from "./protocol.ts";
import { textOf, type WindowView } from "./window-view.ts";

/** The context tool's name in every pi-fold arm (pi-fold's default `toolName`). */
export const CONTEXT_TOOL = "active_context";

export interface Placeholder {
	id: string;
	entries: number;
	bytes: number;
	brief: string;
	/** Index of the message that shows it. */
	index: number;
}

const PLACEHOLDER =
	/\[[^\]\n]* fold (f[0-9a-f]{16}) · (\d+) entr(?:y|ies) · ([\d,]+) bytes · sha256 [0-9a-f]+\]\n([\s\S]*?)\npeek: /g;
const PEEK_HEADER = /^\[peek (f[0-9a-f]{16}) · bytes (\d+)-(\d+) of (\d+) · /;

/** Every collapsed fold's placeholder visible in the window, in window order. */
export function placeholders(messages: readonly Message[]): Placeholder[] {
	const out: Placeholder[] = [];
	messages.forEach((message, index) => {
		const text =
			message.role === "assistant" || message.role === "user" || message.role === "toolResult"
				? textOf(message.content)
				: "";
		if (!text.includes(" fold f")) return;
		for (const m of text.matchAll(PLACEHOLDER))
			out.push({
				id: m[1] as string,
				entries: Number(m[2]),
				bytes: Number((m[3] as string).replaceAll(",", "")),
				brief: m[4] as string,
				index,
			});
	});
	return out;
}

/** Receipts named in visible briefs, by stage. */
export function briefReceipts(view: WindowView): Map<number, string> {
	const out = new Map<number, string>();
	for (const p of placeholders(view.messages))
		for (const m of p.brief.matchAll(RECEIPT_LINE)) out.set(Number(m[1]), m[2] as string);
	return out;
}

export interface PeekedSource {
	id: string;
	totalBytes: number;
	/** Contiguous bytes from offset 0 seen so far (as text). */
	text: string;
	/** Where the next page starts, or undefined when the whole source was seen. */
	next: number | undefined;
	/** Pages seen (visible peek results for this fold). */
	pages: number;
}

/** Visible peek pages of each fold, assembled from offset 0 while they are contiguous. */
export function peekedSources(view: WindowView): Map<string, PeekedSource> {
	const pages = new Map<string, { start: number; end: number; total: number; text: string }[]>();
	for (const r of view.results) {
		if (r.toolName !== CONTEXT_TOOL || r.isError) continue;
		const m = PEEK_HEADER.exec(r.text);
		if (!m) continue;
		const lines = r.text.split("\n");
		const body = lines.slice(1, -1).join("\n");
		const list = pages.get(m[1] as string) ?? [];
		list.push({ start: Number(m[2]), end: Number(m[3]), total: Number(m[4]), text: body });
		pages.set(m[1] as string, list);
	}
	const out = new Map<string, PeekedSource>();
	for (const [id, list] of pages) {
		list.sort((a, b) => a.start - b.start);
		let at = 0;
		let text = "";
		for (const page of list) {
			if (page.start !== at) continue;
			text += page.text;
			at = page.end;
		}
		const total = list[0]?.total ?? 0;
		out.set(id, { id, totalBytes: total, text, next: at >= total ? undefined : at, pages: list.length });
	}
	return out;
}

interface SourceMessage {
	role?: string;
	content?: unknown;
	toolCallId?: string;
	toolName?: string;
	isError?: boolean;
}

/** The complete JSON lines of a (possibly partial) fold source. */
export function sourceMessages(source: PeekedSource): SourceMessage[] {
	const lines = source.text.split("\n");
	if (source.next !== undefined || lines.at(-1) !== "") lines.pop();
	const out: SourceMessage[] = [];
	for (const line of lines) {
		if (line === "") continue;
		try {
			out.push((JSON.parse(line) as { message: SourceMessage }).message);
		} catch {
			// A line cut by the page boundary waits for the next page.
		}
	}
	return out;
}

/** File texts of successful `read` results in a source's complete lines, by path. */
export function sourceReads(messages: readonly SourceMessage[]): Map<string, string> {
	const paths = new Map<string, string>();
	const out = new Map<string, string>();
	for (const m of messages) {
		if (m.role === "assistant" && Array.isArray(m.content))
			for (const b of m.content as { type?: string; id?: string; name?: string; arguments?: { path?: unknown } }[])
				if (b.type === "toolCall" && b.name === "read" && typeof b.arguments?.path === "string" && b.id)
					paths.set(b.id, b.arguments.path);
		if (m.role === "toolResult" && m.toolName === "read" && !m.isError && m.toolCallId) {
			const path = paths.get(m.toolCallId);
			if (path) out.set(path, textOf(m.content));
		}
	}
	return out;
}

/** Receipts in a source's complete lines (stage results), by stage. */
export function sourceReceipts(messages: readonly SourceMessage[]): Map<number, string> {
	const out = new Map<number, string>();
	for (const m of messages)
		if (m.role === "toolResult")
			for (const r of textOf(m.content).matchAll(RECEIPT_LINE)) out.set(Number(r[1]), r[2] as string);
	return out;
}
