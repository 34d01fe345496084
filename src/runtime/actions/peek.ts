// The peek action: one fold's exact, SHA-256-verified source as a tool result, at any depth
// (ancestors stay collapsed), in a bounded slice on UTF-8 boundaries with the next offset. The
// source must be the fold's own (bound-source.ts: its entries are the fold's leaves and hash to its
// id), checked once per fold before the first slice. It records nothing and never edits the window.
// The fold store does the verified read.

import { errorMessage } from "../../common/index.ts";
import { ensureBound } from "../bound-source.ts";
import { PEEK_DEFAULT_BYTES } from "./schema.ts";
import { type ActionInput, type ActionResult, askFor, refuse } from "./shared.ts";

export async function peekAction(
	input: ActionInput,
	args: { id: string; offset?: number | undefined; bytes?: number | undefined },
): Promise<ActionResult> {
	const snap = input.runtime.snapshot(input.host);
	const fold = snap.state.folds.get(args.id) ?? snap.known.get(args.id);
	if (!fold) return refuse("peek", `no fold ${args.id} on this branch`);
	const offset = args.offset ?? 0;
	const want = args.bytes ?? PEEK_DEFAULT_BYTES;
	if (offset > fold.sourceBytes)
		return refuse("peek", `offset ${offset} is past the end of fold ${args.id} (${fold.sourceBytes} bytes)`);
	let slice: Awaited<ReturnType<ReturnType<typeof input.runtime.store>["readSlice"]>>;
	try {
		const store = input.runtime.store(input.host);
		await ensureBound(store, fold);
		slice = await store.readSlice(fold.sourceSha256, offset, want, `fold ${args.id}`);
	} catch (error) {
		return refuse("peek", errorMessage(error), { id: args.id });
	}
	const done = slice.end >= slice.totalBytes;
	const head = `[peek ${args.id} · bytes ${slice.start}-${slice.end} of ${slice.totalBytes} · sha256 ${fold.sourceSha256.slice(0, 16)}… verified · one JSON line per entry]`;
	const tail = done ? "[end of source]" : `[more: ${askFor(input, "peek", args.id, slice.end)}]`;
	return {
		text: `${head}\n${slice.text}\n${tail}`,
		details: {
			action: "peek",
			id: args.id,
			start: slice.start,
			end: slice.end,
			totalBytes: slice.totalBytes,
			nextOffset: done ? null : slice.end,
		},
	};
}
