// Reads a session made again of content it had already read, unchanged. Without pi-fold an agent
// reads a file again when native compaction has summarized its earlier read away; with pi-fold that
// earlier read is still held (in the window, or folded with its exact bytes a search away), so such a
// read need not be sent whole. The replay sends them as recorded (its figures do not assume the agent
// would have searched instead) and estimates, beside them, the total were each sent as a short note.
// A read counts when a file-read call (src/lattice reads.ts) with the same arguments returned the same
// text before and did not fail. Pure.

import { isFileReadTool, shownRead } from "../lattice/index.ts";
import type { ReplayMessage } from "../simulate/index.ts";
import { contentText, type TranscriptMessage } from "../transcript/index.ts";

/** The session's repeated, unchanged reads. */
export interface HeldRereads {
	/** Read results the same call had returned before, with the same text. */
	readonly reads: number;
	/** Characters those results held in the session. */
	readonly chars: number;
	/** The replay's total (requests and briefs) were those reads sent as a note, or null when there were none. */
	readonly costIfHeld?: number | null;
}

/** The note a held reread's result becomes. */
export function heldReadNote(path: string): string {
	return `${path}: unchanged since its earlier read in this session, which pi-fold still holds (a search finds it).`;
}

/** The file-read calls of an assistant message (src/lattice reads.ts tells them): id and arguments. */
function readCalls(m: TranscriptMessage): { id: string; args: unknown }[] {
	const c = (m as { content?: unknown }).content;
	if (m.role !== "assistant" || !Array.isArray(c)) return [];
	return c.flatMap((part) => {
		const p = part as { type?: string; id?: unknown; name?: unknown; arguments?: unknown } | null;
		if (p?.type !== "toolCall" || typeof p.name !== "string" || !isFileReadTool(p.name) || typeof p.id !== "string")
			return [];
		return [{ id: p.id, args: p.arguments }];
	});
}

/** `messages` with every repeated, unchanged read's result as a note, and how many there were. */
export function holdRereads(messages: readonly ReplayMessage[]): { messages: ReplayMessage[]; held: HeldRereads } {
	const calls = new Map<string, unknown>();
	// The text each call (its arguments) last returned.
	const seen = new Map<string, string>();
	let reads = 0;
	let chars = 0;
	const out = messages.map((m) => {
		const msg = m.message;
		for (const call of readCalls(msg)) calls.set(call.id, call.args);
		if (msg.role !== "toolResult" || msg.isError === true || !calls.has(msg.toolCallId ?? "")) return m;
		const args = calls.get(msg.toolCallId ?? "");
		const text = contentText(msg.content, "\n");
		const read = shownRead(args, text);
		if (!read) return m;
		const key = JSON.stringify(args ?? {});
		if (seen.get(key) !== text) {
			seen.set(key, text);
			return m;
		}
		reads++;
		chars += text.length;
		const note: TranscriptMessage = { ...msg, content: [{ type: "text", text: heldReadNote(read.path) }] };
		return { ...m, message: note };
	});
	return { messages: out, held: { reads, chars } };
}
