// A recorded session's branch as the simulator takes it: the system prompt its system messages
// build up (sections and tool declarations, the last state), the messages pi-fold would have seen
// (user, assistant, tool results, extension messages; `!` shell runs and branch summaries as the user
// text Pi sends; pi-fold's own receipts and records left out, since the replay makes its own), with
// the idle time between them, and the session as it ran (compactions and context edits included)
// for the estimator check. Pure.

import type { ReplayMessage, SimSession } from "../simulate/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import type { FileEntry, FileMessage } from "./session-file.ts";

/** The system prompt the branch's system messages (and compaction checkpoints) add up to, at the end. */
export function systemPromptOf(branch: readonly FileEntry[]): string {
	let content = "";
	const sections = new Map<string, string>();
	const tools = new Map<string, unknown>();
	const apply = (m: Record<string, unknown>) => {
		if (typeof m.content === "string" && m.content) content = m.content;
		for (const [name, text] of Object.entries((m.sections ?? {}) as Record<string, unknown>))
			if (typeof text === "string") sections.set(name, text);
			else sections.delete(name);
		for (const t of (m.toolsAdded ?? []) as { name?: string }[]) tools.set(String(t.name), t);
		for (const t of (m.toolsRemoved ?? []) as { name?: string }[]) tools.delete(String(t.name));
	};
	for (const e of branch) {
		if (e.type === "message" && e.message.role === "system") apply(e.message);
		if (e.type === "compaction" && typeof e.systemMessage === "object" && e.systemMessage)
			apply(e.systemMessage as Record<string, unknown>);
	}
	return [content, ...sections.values(), ...[...tools.values()].map((t) => JSON.stringify(t))]
		.filter(Boolean)
		.join("\n\n");
}

/** The custom types of pi-fold's own entries in this file (its decision records' prefixes), to leave out. */
function piFoldPrefixes(entries: readonly FileEntry[]): Set<string> {
	const out = new Set<string>();
	for (const e of entries)
		if (e.type === "custom" && e.customType.endsWith(":decision")) out.add(e.customType.slice(0, -9));
	return out;
}

/** A user text message. */
function userText(text: string, timestamp?: number): TranscriptMessage {
	return { role: "user", content: [{ type: "text", text }], ...(timestamp !== undefined ? { timestamp } : {}) };
}

/** The message an entry contributes to what pi-fold sees, or undefined. */
function messageOf(e: FileEntry, skip: Set<string>): TranscriptMessage | undefined {
	if (e.type === "message") {
		const m = e.message as FileMessage & { command?: string; output?: string; excludeFromContext?: boolean };
		if (m.role === "system") return undefined;
		if (m.role === "bashExecution")
			return m.excludeFromContext ? undefined : userText(`Ran \`${m.command ?? ""}\`\n${m.output ?? ""}`, m.timestamp);
		return m as TranscriptMessage;
	}
	if (e.type === "custom_message") {
		if ([...skip].some((prefix) => e.customType.startsWith(`${prefix}:`))) return undefined;
		return { role: "custom", customType: e.customType, content: e.content, display: e.display ?? true };
	}
	if (e.type === "branch_summary") return userText(e.summary);
	return undefined;
}

/**
 * Milliseconds since the epoch of an entry: its message's timestamp, else the entry's. A message
 * timestamp of 0 or less is no time (replies a faux or test provider made carry 0): taking it would
 * put the epoch between two requests, and every replayed request would find the cache expired.
 */
function timeOf(e: FileEntry): number | undefined {
	if (e.type === "message" && typeof e.message.timestamp === "number" && e.message.timestamp > 0)
		return e.message.timestamp;
	const t = e.timestamp ? Date.parse(e.timestamp) : Number.NaN;
	return Number.isFinite(t) ? t : undefined;
}

/** The messages to replay through pi-fold, with the idle time before each. */
export function replayMessages(branch: readonly FileEntry[], all: readonly FileEntry[]): ReplayMessage[] {
	const skip = piFoldPrefixes(all);
	const out: ReplayMessage[] = [];
	let last: number | undefined;
	for (const e of branch) {
		const message = messageOf(e, skip);
		if (!message) continue;
		const at = timeOf(e);
		const idleMs = at !== undefined && last !== undefined ? Math.max(0, at - last) : 0;
		if (at !== undefined) last = at;
		out.push({ id: e.id, message, ...(idleMs > 0 ? { idleMs } : {}) });
	}
	return out;
}

/**
 * Feeds the branch into `session` as it ran (compactions and context edits applied, pi-fold's
 * records left out), calling `beforeReply` before each assistant reply with the reply's entry.
 */
export function feedAsRecorded(
	branch: readonly FileEntry[],
	session: SimSession,
	beforeReply: (entry: FileEntry, idleMs: number) => void,
): void {
	let last: number | undefined;
	for (const e of branch) {
		const at = timeOf(e);
		const idleMs = at !== undefined && last !== undefined ? Math.max(0, at - last) : 0;
		if (at !== undefined) last = at;
		if (e.type === "compaction")
			session.appendEntry({
				type: "compaction",
				id: e.id,
				summary: e.summary,
				firstKeptEntryId: e.firstKeptEntryId ?? null,
				tokensBefore: e.tokensBefore,
			});
		else if (e.type === "context_edit")
			session.appendEntry({
				type: "context_edit",
				id: e.id,
				targetId: e.targetId,
				replacement: e.replacement as never,
			});
		else if (e.type === "custom_message")
			session.appendEntry({
				type: "custom_message",
				id: e.id,
				customType: e.customType,
				content: e.content,
				display: e.display ?? true,
			});
		else {
			const message = messageOf(e, new Set());
			if (!message) continue;
			if (message.role === "assistant") beforeReply(e, idleMs);
			session.appendMessage(message, e.id);
		}
	}
}
