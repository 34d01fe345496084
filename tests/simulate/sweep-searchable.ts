// Test helper: the sweep's check that folds outlive Pi's native compaction. After a session in which
// a compaction ran, every fold in force whose source is in the store is found by the agent's
// `search` over the whole branch (no `fold` scope): a search for its first entry's id (which its
// source's first line carries) has a hit in that entry, placed in the fold or in a fold nested in it
// that starts there. Through the runtime's own tool dispatcher, as the agent calls it. No Pi.

import { callTool, type FoldRuntime, type Host, sourcePresence } from "../../src/runtime/index.ts";

/** Folds searched per session at most (the oldest first: a compaction summarizes those). */
const SEARCHED_MAX = 40;

interface HitDetail {
	readonly fold: string;
	readonly entry: string | null;
}

/** Folds a search over the branch no longer finds after a compaction (none when no compaction ran). */
export async function searchableProblems(
	runtime: FoldRuntime,
	host: Host,
	compactions: readonly { readonly decision: string }[],
): Promise<string[]> {
	if (!compactions.some((c) => c.decision === "passed")) return [];
	const state = runtime.snapshot(host).state;
	const present = sourcePresence(runtime.store(host));
	const folds = [...state.folds.values()].filter((f) => present(f.sourceSha256));
	const problems: string[] = [];
	for (const fold of folds.slice(0, SEARCHED_MAX)) {
		const first = fold.leafIds[0] as string;
		const out = await callTool(runtime, host, { action: "search", pattern: first, limit: 10 }, "agent");
		const hits = ((out.details as { hits?: HitDetail[] }).hits ?? []).filter((h) => h.entry === first);
		const holds = (id: string) => {
			const at = state.folds.get(id);
			if (!at) return false;
			return at.leafIds.includes(first) && at.leafIds.length <= fold.leafIds.length;
		};
		if (out.isError || !hits.some((h) => holds(h.fold)))
			problems.push(
				`after a native compaction, search does not find fold ${fold.id} (${first}): ${out.text.slice(0, 200)}`,
			);
	}
	return problems;
}
