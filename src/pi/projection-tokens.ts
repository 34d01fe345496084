// The estimated size of Pi's projection of the branch (the messages a boundary's preview holds, and
// the next request's less what comes after the boundary), kept as entries are appended: each
// context entry's share measured once, and again when a context edit replaces it. The forecast
// (turn-end-forecast.ts) reads it instead of asking Pi to project the whole branch, which would
// cost a walk of every entry a turn. Mirrors Pi's projection of one entry (`projectContextEntry` in
// Pi's session manager, not exported: an older compaction kept at a later index projects nothing, a
// `null` replacement drops the entry, a replacement replaces the content of the entry's user,
// assistant, tool result or custom message, a string given to an assistant or tool result as one
// text block), then Pi's `convertToLlm`, then the estimate the runtime reads (src/policy
// `requestMessageTokens`, additive over messages). tests/pi/turn-end-forecast*.test.ts compare it
// with the preview Pi builds at every boundary of their sessions. Fed by branch.ts; reads only.

import type { ContextEditEntry, SessionEntry } from "@earendil-works/pi-coding-agent";
import { convertToLlm, sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import { requestMessageTokens } from "../policy/index.ts";

type AgentMessage = ReturnType<typeof sessionEntryToContextMessages>[number];

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** Pi's projection of `entry` (at `index` among the context entries) with its latest edit. */
function projected(entry: SessionEntry, edit: ContextEditEntry | undefined, index: number): AgentMessage[] {
	if (entry.type === "compaction" && index > 0) return [];
	const messages = sessionEntryToContextMessages(entry);
	if (!edit) return messages;
	const replacement = edit.replacement;
	if (replacement === null) return [];
	return messages.map((message) => {
		if (!EDITABLE_ROLES.has(message.role)) return message;
		const content =
			(message.role === "assistant" || message.role === "toolResult") && typeof replacement.content === "string"
				? [{ type: "text", text: replacement.content }]
				: replacement.content;
		return { ...message, content } as AgentMessage;
	});
}

/** Running estimate of the projected messages of one branch's context entries, fed in order. */
export class ProjectionTokens {
	private readonly entries = new Map<string, { entry: SessionEntry; index: number }>();
	private readonly edits = new Map<string, ContextEditEntry>();
	private readonly shares = new Map<string, number>();
	private count = 0;
	/** Estimated tokens of every projected message so far. */
	total = 0;

	/** Takes the next context entries (Pi's `buildContextEntries` order), edits among them. */
	append(context: readonly SessionEntry[]): void {
		for (const entry of context) {
			const index = this.count++;
			if (entry.type === "context_edit") {
				this.edits.set(entry.targetId, entry);
				const target = this.entries.get(entry.targetId);
				if (target) this.measure(target.entry, target.index);
				continue;
			}
			this.entries.set(entry.id, { entry, index });
			this.measure(entry, index);
		}
	}

	private measure(entry: SessionEntry, index: number): void {
		const share = requestMessageTokens(convertToLlm(projected(entry, this.edits.get(entry.id), index)));
		this.total += share - (this.shares.get(entry.id) ?? 0);
		this.shares.set(entry.id, share);
	}
}
