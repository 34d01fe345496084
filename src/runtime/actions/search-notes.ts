// What a search result says about each hit's entry, from the branch's structure (never from the
// bytes): who wrote it (user, assistant, which tool's result), the file a read result holds, and,
// for a hit in an assistant message that calls a file-reading tool on a path the excerpt shows,
// the entry of that read's result and its byte range (so one peek brings the file's text back). A
// read's own hit and a pointer to one also say how big the file it showed is ("120 lines", "lines
// 1-2,000 of 3,500"), so one search answers how long a folded file is without a peek.
// Pure over the snapshot.

import { isFileReadTool, readSize } from "../../lattice/index.ts";
import type { Snapshot } from "../../policy/index.ts";
import { contentText } from "../../transcript/index.ts";
import type { EntryRange, PlacedHit } from "./search-types.ts";

/** Entries looked at around a hit to pair a tool call with its result (one tool batch). */
const PAIR_WINDOW = 64;

/** A file read an assistant hit points to: the path, the result entry, its range when the scan saw it. */
export interface ReadPointer {
	readonly path: string;
	readonly entry: string;
	readonly range: EntryRange | undefined;
	/** How much of the file the read showed ("120 lines", "lines 1-2,000 of 3,500"). */
	readonly size: string | undefined;
}

export interface HitNote {
	readonly label: string;
	/** For a hit in a file read's result: how much of the file it showed. */
	readonly size?: string | undefined;
	readonly reads: readonly ReadPointer[];
}

export interface SearchNotes {
	readonly perHit: readonly HitNote[];
	/** Result entries of file reads the page mentions (their own entry, or pointed to). */
	readonly readEntries: readonly string[];
}

interface CallBlock {
	readonly type?: unknown;
	readonly id?: unknown;
	readonly name?: unknown;
	readonly arguments?: { readonly path?: unknown; readonly file_path?: unknown } | undefined;
}

function callsOf(content: unknown): CallBlock[] {
	return Array.isArray(content) ? (content as CallBlock[]).filter((b) => b?.type === "toolCall") : [];
}

function pathArg(call: CallBlock): string | undefined {
	const p = call.arguments?.path ?? call.arguments?.file_path;
	return typeof p === "string" ? p : undefined;
}

/** The call (in an assistant message before `index`) whose id is `callId`. */
function callBefore(snap: Snapshot, index: number, callId: string): CallBlock | undefined {
	for (let i = index - 1; i >= 0 && i >= index - PAIR_WINDOW; i--) {
		const m = snap.view.transcript[i]?.message;
		const call = m?.role === "assistant" ? callsOf(m.content).find((c) => c.id === callId) : undefined;
		if (call) return call;
	}
	return undefined;
}

/** The result entry (after `index`) of the call `callId`, with its text. */
function resultAfter(snap: Snapshot, index: number, callId: string): { id: string; text: string } | undefined {
	const { transcript } = snap.view;
	for (let i = index + 1; i < transcript.length && i <= index + PAIR_WINDOW; i++) {
		const e = transcript[i];
		if (e?.message.role === "toolResult" && e.message.toolCallId === callId)
			return { id: e.id, text: e.message.isError === true ? "" : contentText(e.message.content, "\n") };
	}
	return undefined;
}

function noteOf(snap: Snapshot, placed: PlacedHit): HitNote {
	const id = placed.hit.entryId;
	const index = id === null ? undefined : snap.lattice.position.get(id);
	const message = index === undefined ? undefined : snap.view.transcript[index]?.message;
	if (!message || index === undefined) return { label: "entry not identified", reads: [] };
	if (message.role === "toolResult") {
		const tool = String(message.toolName ?? "tool");
		const call = typeof message.toolCallId === "string" ? callBefore(snap, index, message.toolCallId) : undefined;
		const path = call && isFileReadTool(tool) ? pathArg(call) : undefined;
		if (!path || message.isError === true)
			return { label: path ? `${tool} result of ${path}` : `${tool} result`, reads: [] };
		return {
			label: `${tool} result of ${path}`,
			size: readSize(call?.arguments, contentText(message.content, "\n")),
			reads: [],
		};
	}
	if (message.role !== "assistant") return { label: message.role, reads: [] };
	const shown = `${placed.hit.before}${placed.hit.match}${placed.hit.after}`;
	const reads: ReadPointer[] = [];
	for (const call of callsOf(message.content)) {
		const path = pathArg(call);
		if (!path || typeof call.id !== "string" || !isFileReadTool(String(call.name))) continue;
		if (!shown.includes(JSON.stringify(path).slice(1, -1))) continue;
		const result = resultAfter(snap, index, call.id);
		if (result)
			reads.push({
				path,
				entry: result.id,
				range: placed.ranges.get(result.id),
				size: result.text ? readSize(call.arguments, result.text) : undefined,
			});
	}
	return { label: "assistant", reads };
}

/** Notes for a page of hits. */
export function annotate(snap: Snapshot, hits: readonly PlacedHit[]): SearchNotes {
	const perHit = hits.map((h) => noteOf(snap, h));
	const readEntries = new Set<string>();
	hits.forEach((h, i) => {
		if (h.hit.entryId !== null && perHit[i]?.label.includes(" result of ")) readEntries.add(h.hit.entryId);
		for (const r of perHit[i]?.reads ?? []) readEntries.add(r.entry);
	});
	return { perHit, readEntries: [...readEntries] };
}
