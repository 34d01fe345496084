// What a host sends for a simulated session, mirroring Pi 1.x's own projection (session-manager's
// buildContextEntries / sessionEntryToContextMessages / projectContextEntry and messages'
// convertToLlm): the compaction-aware context entries, each entry's original message, the messages
// with the latest context edit per target applied, and those messages as the provider sees them
// (custom and summary messages become user text). tests/simulate checks it against Pi's functions
// on the same entries. Pure.

import type { Replacement } from "../projection/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import type { SimEntry } from "./entries.ts";

/** Pi's wrapping of a compaction summary in the window (COMPACTION_SUMMARY_PREFIX / _SUFFIX). */
const SUMMARY_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const SUMMARY_SUFFIX = "\n</summary>";

/** The compaction-aware context entries: after the latest compaction, its kept entries then the rest. */
export function contextEntries(entries: readonly SimEntry[]): SimEntry[] {
	let at = -1;
	entries.forEach((e, i) => {
		if (e.type === "compaction") at = i;
	});
	if (at < 0) return [...entries];
	const compaction = entries[at] as Extract<SimEntry, { type: "compaction" }>;
	const out: SimEntry[] = [compaction];
	let kept = false;
	for (let i = 0; i < at; i++) {
		const e = entries[i] as SimEntry;
		if (e.id === compaction.firstKeptEntryId) kept = true;
		if (kept) out.push(e);
	}
	out.push(...entries.slice(at + 1));
	return out;
}

/** The original message an entry contributes at context position `index` (none for state entries). */
export function messageOf(entry: SimEntry, index: number): TranscriptMessage | undefined {
	switch (entry.type) {
		case "message":
			return entry.message;
		case "custom_message":
			return { role: "custom", customType: entry.customType, content: entry.content, display: entry.display };
		case "compaction":
			return index === 0
				? { role: "compactionSummary", summary: entry.summary, tokensBefore: entry.tokensBefore }
				: undefined;
		default:
			return undefined;
	}
}

const EDITABLE = new Set(["user", "assistant", "toolResult", "custom"]);

/** `message` with an edit applied: null when omitted; only editable roles take a replacement. */
function applyEdit(message: TranscriptMessage, replacement: Replacement | undefined): TranscriptMessage | null {
	if (replacement === undefined) return message;
	if (replacement === null) return null;
	if (!EDITABLE.has(message.role)) return message;
	const content = replacement.content;
	const wrapped =
		(message.role === "assistant" || message.role === "toolResult") && typeof content === "string"
			? [{ type: "text", text: content }]
			: content;
	return { ...message, content: wrapped };
}

/** One context entry and the message it projects with its latest edit applied (none: omitted or state). */
export interface ProjectedEntry {
	readonly entry: SimEntry;
	readonly message: TranscriptMessage | null;
}

/** The context entries, each with its projected message (Pi's buildSessionProjection `entries`). */
export function projectedEntries(entries: readonly SimEntry[]): ProjectedEntry[] {
	const context = contextEntries(entries);
	const edits = new Map<string, Extract<SimEntry, { type: "context_edit" }>>();
	for (const e of context) if (e.type === "context_edit") edits.set(e.targetId, e);
	return context.map((entry, i) => {
		const message = messageOf(entry, i);
		return { entry, message: message ? applyEdit(message, edits.get(entry.id)?.replacement) : null };
	});
}

/** The context messages with the latest context edit per target applied (Pi's projection). */
export function projectedMessages(entries: readonly SimEntry[]): TranscriptMessage[] {
	return projectedEntries(entries).flatMap((p) => (p.message ? [p.message] : []));
}

/** Messages as the provider sees them (Pi's convertToLlm): custom and summaries become user text. */
export function toLlm(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
	return messages.map((m) => {
		if (m.role === "custom")
			return { role: "user", content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content };
		if (m.role === "compactionSummary")
			return {
				role: "user",
				content: [{ type: "text", text: `${SUMMARY_PREFIX}${String(m.summary)}${SUMMARY_SUFFIX}` }],
			};
		return m;
	});
}
