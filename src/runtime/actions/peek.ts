// The peek action: one fold's exact, SHA-256-verified source as a tool result, at any depth
// (ancestors stay collapsed), in a bounded slice on UTF-8 boundaries with the next offset, trimmed
// when the window has no room for all it asked (admission.ts; the agent's peek only: a person's is
// shown, never sent, so it reads all it asks for). The
// source must be the fold's own (bound-source.ts: its entries are the fold's leaves and hash to its
// id), checked once per fold before the first slice. It records nothing and never edits the window.
// The fold store does the verified read; when it has no blob, the source is rebuilt from the
// session's entries and verified against the fold's digest (bound-source.ts), and the header says so.
// A person (the slash command) reads the slice drawn as entries (peek-human.ts) and a next page
// that keeps the bytes asked for; a fold that is only a pending mark is said to be one.

import { nounFor } from "../../common/index.ts";
import { readBoundSlice } from "../bound-source.ts";
import { entriesOverlapping, staleInFold, staleNote } from "../stale.ts";
import { admittedPeekBytes } from "./admission.ts";
import { humanSlice } from "./peek-human.ts";
import { type ActionInput, type ActionResult, askFor, refuse } from "./shared.ts";
import { sourceRefusal } from "./source-failure.ts";
import { PEEK_DEFAULT_BYTES } from "./tool-schema.ts";

const fmt = (n: number) => n.toLocaleString("en-US");

export async function peekAction(
	input: ActionInput,
	args: { id: string; offset?: number | undefined; bytes?: number | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	const fold = snap.state.folds.get(args.id) ?? snap.known.get(args.id);
	if (!fold && snap.state.pendingMarks.has(args.id))
		return refuse(
			"peek",
			`${args.id} is marked to fold, not folded yet: its messages are still in the window as they were. To keep it from folding: ${askFor(input, "unmark", args.id)}`,
			{ id: args.id, pending: true },
		);
	if (!fold) return refuse("peek", `no fold ${args.id} on this branch`);
	const offset = args.offset ?? 0;
	const asked = args.bytes ?? PEEK_DEFAULT_BYTES;
	// A person's peek is only shown, never sent to the model: the window's room does not bound it.
	const human = input.actor === "human";
	const want = human ? asked : admittedPeekBytes(input, snap, asked);
	if (offset > fold.sourceBytes)
		return refuse("peek", `offset ${offset} is past the end of fold ${args.id} (${fold.sourceBytes} bytes)`);
	let slice: Awaited<ReturnType<typeof readBoundSlice>>;
	try {
		slice = await readBoundSlice(input.runtime.store(input.host), fold, snap.view, offset, want);
	} catch (error) {
		return refuse("peek", sourceRefusal(input, error, "peek", args.id), { id: args.id });
	}
	const done = slice.end >= slice.totalBytes;
	const stale = staleInSlice(input, snap, fold, slice.start, slice.end);
	const trimmed =
		want < asked
			? ` · trimmed to ${want.toLocaleString("en-US")} of the ${asked.toLocaleString("en-US")} bytes asked: the window has no room for more`
			: "";
	const rebuilt = slice.from === "session" ? " (rebuilt from the session's entries: the fold store has no copy)" : "";
	const head = human
		? `Fold ${args.id}, bytes ${fmt(slice.start)}-${fmt(slice.end)} of ${fmt(slice.totalBytes)}, exact original (SHA-256 verified)${rebuilt}${stale.note}${trimmed}:`
		: `[peek ${args.id} · bytes ${slice.start}-${slice.end} of ${slice.totalBytes} · sha256 ${fold.sourceSha256.slice(0, 16)}… verified${rebuilt} · one JSON line per entry${stale.note}${trimmed}]`;
	// The person's next page asks for as many bytes as this one did.
	const more = askFor(input, "peek", args.id, slice.end) + (human && args.bytes !== undefined ? ` ${args.bytes}` : "");
	const tail = done ? (human ? "[end of this fold]" : "[end of source]") : `[more: ${more}]`;
	const body = human ? humanSlice(slice.text).join("\n") : slice.text;
	return {
		text: `${head}\n${body}\n${tail}`,
		details: {
			action: "peek",
			id: args.id,
			start: slice.start,
			end: slice.end,
			totalBytes: slice.totalBytes,
			nextOffset: done ? null : slice.end,
			from: slice.from,
			...(want < asked ? { trimmedFrom: asked } : {}),
			stale: stale.reads,
		},
	};
}

/** Files read in this slice whose file on disk no longer holds what the read returned (none: ""). */
function staleInSlice(
	input: ActionInput,
	snap: ReturnType<ActionInput["runtime"]["snapshot"]>,
	fold: Parameters<typeof staleInFold>[3],
	start: number,
	end: number,
): { note: string; reads: { path: string; entry: string; state: string }[] } {
	const all = staleInFold(input.runtime, input.host, snap, fold);
	if (all.length === 0) return { note: "", reads: [] };
	const here = entriesOverlapping(snap, fold.leafIds, start, end);
	const shown = all.filter((s) => here.has(s.read.entry));
	const reads = shown.map((s) => ({ path: s.read.path, entry: s.read.entry, state: s.state }));
	const listed = shown.slice(0, 3).map((s) => `${s.read.path} (entry ${s.read.entry}) ${staleNote(s.state)}`);
	const more = shown.length > 3 ? ` and ${shown.length - 3} more` : "";
	const elsewhere = all.length - shown.length;
	const other = elsewhere > 0 ? ` · ${elsewhere} other stale ${nounFor(elsewhere, "read")} in this fold` : "";
	return { note: listed.length > 0 ? ` · ${listed.join("; ")}${more}${other}` : other, reads };
}
