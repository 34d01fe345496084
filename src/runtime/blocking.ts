// `blockingTools` (default ["Agent"]): before a call to one of them (a long, blocking call such as
// a subagent), one opportunistic stale-tool fold: the stalest completed foldable tool batch outside
// the fresh tail, under every rule the ladder obeys. It is a decision, not a rewrite: under epoch
// scheduling a free `mark` (actor ladder) that the next commit lands; under immediate scheduling a
// `fold` that the next boundary commits, and only at or above QUIET_OCCUPANCY, because below it
// nothing automatic rewrites in either mode. Occupancy here is the host's own context estimate (no
// boundary preview exists inside a batch). Writes the source to the fold store; the runtime
// records the decision.

import { deterministicBrief } from "../briefs/index.ts";
import { foldId, foldSource, readsField } from "../lattice/index.ts";
import {
	type FoldScheduling,
	type LadderOptions,
	ladderInput,
	QUIET_OCCUPANCY,
	type Snapshot,
	spanProblem,
	toolProposals,
	windowTokens,
} from "../policy/index.ts";
import type { DecisionBody } from "../state/index.ts";
import type { SourceStore } from "./ports.ts";

/** The one opportunistic stale-tool fold before a blocking call, as a decision body, or null. */
export async function blockingFold(
	snap: Snapshot,
	store: SourceStore,
	options: LadderOptions & { readonly foldScheduling: FoldScheduling },
	occupancyTokens: number,
): Promise<Extract<DecisionBody, { kind: "fold" | "mark" }> | null> {
	const tokens = windowTokens(snap);
	const occupancy = occupancyTokens / snap.budget.budgetTokens;
	const epoch = options.foldScheduling !== "immediate";
	if (!epoch && occupancy < QUIET_OCCUPANCY) return null;
	for (const p of toolProposals(ladderInput(snap, options, tokens, occupancy))) {
		if (spanProblem(snap, p.start, p.end)) continue;
		const leaves = snap.view.transcript.slice(p.start, p.end);
		const id = foldId(leaves);
		if (snap.state.folds.has(id) || snap.state.pendingMarks.has(id)) continue;
		const { sha256, bytes } = await store.put(foldSource(leaves));
		const fold = {
			id,
			kind: "tools" as const,
			origin: "ladder" as const,
			leafIds: leaves.map((l) => l.id),
			sourceSha256: sha256,
			sourceBytes: bytes,
			brief: deterministicBrief(leaves),
			briefSource: "deterministic" as const,
			...readsField(leaves, "tools"),
		};
		return epoch ? { kind: "mark", actor: "ladder", topUp: false, fold } : { kind: "fold", actor: "ladder", fold };
	}
	return null;
}
