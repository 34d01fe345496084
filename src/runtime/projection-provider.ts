// The projection candidates of a session now: one record per fold (src/projection `projectionCandidates`
// does the arithmetic), with which folds are visible and collapsed read from a snapshot. Pure over
// the snapshot.

import { type ProjectionCandidate, projectionCandidates, renderPlaceholder } from "../projection/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import type { Host } from "./ports.ts";
import type { RuntimePort } from "./runtime-port.ts";

/** The candidates of every visible collapsed fold on the host's branch. */
export function candidatesFor(runtime: RuntimePort, host: Pick<Host, "readBranch" | "model">): ProjectionCandidate[] {
	const snap = runtime.snapshot(host);
	const visible = new Set(snap.lattice.visible(snap.state.expanded).flatMap((i) => (i.type === "fold" ? [i.id] : [])));
	return projectionCandidates({
		folds: snap.lattice.inOrder().map((f) => ({ record: f.record, collapsedVisible: visible.has(f.record.id) })),
		toolName: runtime.options.toolName,
		estimateTokens,
		placeholderText: (id) => {
			const record = snap.lattice.get(id)?.record;
			return record ? renderPlaceholder(record, runtime.options) : "";
		},
	});
}
