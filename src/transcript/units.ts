// Groups a transcript into units (user message, assistant reply, tool batch) and chapters.
// Pure functions over plain data.

import { messageChars } from "./measure.ts";
import type { Chapter, TranscriptEntry, TranscriptMessage, Unit, UnitKind } from "./transcript-types.ts";

const USER_ROLES = new Set(["user", "custom", "bashExecution"]);
const SUMMARY_ROLES = new Set(["compactionSummary", "branchSummary"]);

/** The ids of the tool calls an assistant message makes, in order. */
export function toolCallsOf(message: TranscriptMessage): { id: string; name: string }[] {
	if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
	const calls: { id: string; name: string }[] = [];
	for (const block of message.content as unknown[]) {
		if (block !== null && typeof block === "object") {
			const b = block as { type?: unknown; id?: unknown; name?: unknown };
			if (b.type === "toolCall" && typeof b.id === "string") {
				calls.push({ id: b.id, name: typeof b.name === "string" ? b.name : "" });
			}
		}
	}
	return calls;
}

function sizeOf(entries: readonly TranscriptEntry[], start: number, end: number): number {
	let chars = 0;
	for (let i = start; i < end; i++) chars += messageChars((entries[i] as TranscriptEntry).message);
	return chars;
}

function kindOf(message: TranscriptMessage): UnitKind {
	if (message.role === "assistant") return toolCallsOf(message).length > 0 ? "toolBatch" : "assistant";
	if (message.role === "toolResult") return "orphan";
	if (SUMMARY_ROLES.has(message.role)) return "summary";
	if (USER_ROLES.has(message.role)) return "user";
	return "user";
}

/** Splits entries into units; every entry belongs to exactly one unit, in order. */
export function toUnits(entries: readonly TranscriptEntry[]): Unit[] {
	return unitsFrom(entries, 0, []);
}

/**
 * Whether `next` is `prev` followed by more entries: the same array, or one at least as long whose
 * first entry and entry at `prev`'s last place are `prev`'s own objects (entries are immutable once
 * read, so identity at both ends stands for the whole prefix). An empty `prev` extends nothing.
 */
export function extendsByAppending(prev: readonly TranscriptEntry[], next: readonly TranscriptEntry[]): boolean {
	if (prev === next) return true;
	const n = prev.length;
	return n > 0 && next.length >= n && next[0] === prev[0] && next[n - 1] === prev[n - 1];
}

/**
 * The units of `entries` when its first entries are those `units` were split from (a transcript that
 * grew by appending): every unit but the last is the same (a later unit began after it), and the
 * last is split again from its start, since appended tool results may belong to it. The caller checks
 * that the entries are the same; src/policy snapshot.ts keeps them by identity.
 */
export function extendUnits(units: readonly Unit[], entries: readonly TranscriptEntry[]): Unit[] {
	const last = units.at(-1);
	if (!last) return toUnits(entries);
	return unitsFrom(entries, last.start, units.slice(0, -1));
}

/** `units` followed by the units of entries[from, ...). */
function unitsFrom(entries: readonly TranscriptEntry[], from: number, units: Unit[]): Unit[] {
	let i = from;
	while (i < entries.length) {
		const message = (entries[i] as TranscriptEntry).message;
		const kind = kindOf(message);
		const start = i;
		let toolNames: string[] = [];
		let complete = true;
		i++;
		if (kind === "toolBatch") {
			const calls = toolCallsOf(message);
			toolNames = calls.map((c) => c.name);
			const open = new Set(calls.map((c) => c.id));
			const answered = new Set<string>();
			while (i < entries.length) {
				const next = (entries[i] as TranscriptEntry).message;
				if (next.role !== "toolResult" || typeof next.toolCallId !== "string" || !open.has(next.toolCallId)) break;
				if (answered.has(next.toolCallId)) break;
				answered.add(next.toolCallId);
				i++;
			}
			complete = answered.size === open.size;
		}
		units.push({
			index: units.length,
			kind,
			start,
			end: i,
			entryIds: entries.slice(start, i).map((e) => e.id),
			toolNames,
			complete,
			chars: sizeOf(entries, start, i),
		});
	}
	return units;
}

/**
 * Splits units into chapters: each user unit opens one; units before the first user unit form a
 * leading chapter. A chapter is closed when a later chapter exists and its tool batches are complete.
 */
export function toChapters(units: readonly Unit[]): Chapter[] {
	const starts: number[] = [];
	for (const unit of units) {
		if (unit.kind === "user" || (unit.index === 0 && starts.length === 0)) starts.push(unit.index);
	}
	const chapters: Chapter[] = [];
	for (let c = 0; c < starts.length; c++) {
		const startUnit = starts[c] as number;
		const endUnit = c + 1 < starts.length ? (starts[c + 1] as number) : units.length;
		let complete = true;
		for (let u = startUnit; u < endUnit; u++) if (!(units[u] as Unit).complete) complete = false;
		chapters.push({ index: c, startUnit, endUnit, closed: c + 1 < starts.length && complete });
	}
	return chapters;
}
