// What Pi's compaction summarizer reads of pi-fold's own text. Pi serializes the messages it
// summarizes by role ("[User]: ...", "[Assistant]: ...", "[Tool result]: ..."), and pi-fold's text
// reaches it in two shapes that would read as someone's words: a fold's placeholder keeps the role
// of the entry it replaced (a span opened by a prompt shows as "[User]: [active-context fold ...]"),
// and a commit's receipt is a custom message, which Pi turns into a user message. Before Pi's
// default summary runs (`session_before_compact`, which hands extensions the preparation Pi then
// summarizes), placeholders become tool results (pi-fold's output, as its tool's answers are) and
// receipts are left out (they say only that a commit happened, nothing of the work). Only the
// summarizer's input changes: the session's entries, and so every request the provider is sent,
// stay as they are. Pure over the preparation's arrays, which it edits in place.

import type { PlaceholderNames } from "../projection/index.ts";

/** The parts of Pi's compaction preparation this edits. */
export interface SummarizedMessages {
	messagesToSummarize: unknown[];
	turnPrefixMessages: unknown[];
}

interface MessageShape {
	role?: unknown;
	customType?: unknown;
	content?: unknown;
	timestamp?: unknown;
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.flatMap((b) => {
			const block = b as { type?: unknown; text?: unknown } | null;
			return block?.type === "text" && typeof block.text === "string" ? [block.text] : [];
		})
		.join("\n");
}

/** Whether `text` is one of pi-fold's placeholders (projection/placeholder.ts's head). */
function isPlaceholder(text: string, brandNoun: string): boolean {
	return text.startsWith(`[${brandNoun} fold f`) || text.startsWith(`[${brandNoun} excerpt · fold f`);
}

/** `messages` with pi-fold's placeholders as tool results and its receipts left out. */
function reattributed(messages: readonly unknown[], names: PlaceholderNames, receiptType: string): unknown[] {
	const out: unknown[] = [];
	for (const message of messages) {
		const m = message as MessageShape | null;
		if (m?.role === "custom" && m.customType === receiptType) continue;
		const text = m && m.role !== "toolResult" ? textOf(m.content) : "";
		if (m && text && isPlaceholder(text, names.brandNoun)) {
			out.push({
				role: "toolResult",
				toolCallId: "",
				toolName: names.toolName,
				content: [{ type: "text", text }],
				isError: false,
				timestamp: typeof m.timestamp === "number" ? m.timestamp : 0,
			});
			continue;
		}
		out.push(message);
	}
	return out;
}

/**
 * Edits `preparation` in place so Pi's summarizer attributes none of pi-fold's text to the user:
 * placeholders become tool results, receipts are left out. Returns how many messages it replaced or left out.
 */
export function unattributeForSummary(
	preparation: SummarizedMessages,
	names: PlaceholderNames,
	receiptType: string,
): number {
	let changed = 0;
	for (const key of ["messagesToSummarize", "turnPrefixMessages"] as const) {
		const list = preparation[key];
		if (!Array.isArray(list)) continue;
		const next = reattributed(list, names, receiptType);
		const kept = new Set(next);
		changed += list.filter((m) => !kept.has(m)).length;
		list.splice(0, list.length, ...next);
	}
	return changed;
}
