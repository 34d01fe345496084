// What a brief request reads of a span: the span as the window shows it now, every fold in force
// inside it collapsed to its placeholder (its brief) and the raw entries between them as they are.
// A span or consolidation that absorbs earlier folds is then summarized from their briefs plus what
// is new, the way the agent sees it, instead of from the start of its raw source cut at the request's
// character cap (which would keep the oldest detail and drop the rest). Each collapsed fold stands
// as one entry with the id and role of its first leaf and the placeholder as its text. Pure.

import type { Snapshot } from "../../policy/index.ts";
import { type PlaceholderNames, renderPlaceholder } from "../../projection/index.ts";
import type { TranscriptEntry } from "../../transcript/index.ts";

/** Entries [start, end) of the transcript as the window shows them (collapsed folds as placeholders). */
export function shownSpan(snap: Snapshot, start: number, end: number, names: PlaceholderNames): TranscriptEntry[] {
	const out: TranscriptEntry[] = [];
	for (const item of snap.lattice.visible(snap.state.expanded)) {
		if (item.type === "entry") {
			if (item.index >= start && item.index < end) out.push(snap.view.transcript[item.index] as TranscriptEntry);
			continue;
		}
		if (item.start < start || item.end > end) continue;
		const fold = snap.lattice.get(item.id);
		const first = snap.view.transcript[item.start];
		if (!fold || !first) continue;
		out.push({ id: first.id, message: { role: first.message.role, content: renderPlaceholder(fold.record, names) } });
	}
	return out;
}
