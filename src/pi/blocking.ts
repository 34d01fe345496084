// `blockingTools` (default ["Agent"]): before a call to one of them (a long, blocking call such as
// a subagent), one opportunistic stale-tool fold: the stalest completed foldable tool batch outside
// the fresh tail, under every rule the ladder obeys. It is a decision, not a rewrite: under epoch
// scheduling a free `mark` (actor ladder) that the next commit lands; under immediate scheduling a
// `fold` that the next boundary commits, and only at or above QUIET_OCCUPANCY, because below it
// nothing automatic rewrites in either mode. Occupancy here is Pi's context usage (no boundary
// preview exists inside a batch).

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { deterministicBrief } from "../briefs/index.ts";
import { foldId, foldSource } from "../lattice/index.ts";
import { QUIET_OCCUPANCY, toolProposals } from "../policy/index.ts";
import { spanProblem } from "./actions/fold.ts";
import { ladderInput, windowTokens } from "./ladder-input.ts";
import { type FoldRuntime, requestTokens } from "./runtime.ts";

/** Records at most one opportunistic stale-tool fold before a blocking tool call; returns its id. */
export async function beforeBlockingCall(
	runtime: FoldRuntime,
	ctx: ExtensionContext,
	toolName: string,
): Promise<string | null> {
	if (!runtime.options.blockingTools.includes(toolName) || runtime.pauseReason() !== null) return null;
	return runtime.exclusive(async () => {
		const snap = runtime.snapshot(ctx);
		const tokens = windowTokens(snap);
		const occupancy = requestTokens(ctx, undefined).tokens / snap.budget.budgetTokens;
		const epoch = runtime.options.foldScheduling === "epoch";
		if (!epoch && occupancy < QUIET_OCCUPANCY) return null;
		const input = ladderInput(snap, runtime.options, tokens, occupancy);
		for (const p of toolProposals(input)) {
			if (spanProblem(snap, p.start, p.end)) continue;
			const leaves = snap.view.transcript.slice(p.start, p.end);
			const id = foldId(leaves);
			if (snap.state.folds.has(id) || snap.state.pendingMarks.has(id)) continue;
			const { sha256, bytes } = await runtime.store(ctx).put(foldSource(leaves));
			const fold = {
				id,
				kind: "tools" as const,
				origin: "ladder" as const,
				leafIds: leaves.map((l) => l.id),
				sourceSha256: sha256,
				sourceBytes: bytes,
				brief: deterministicBrief(leaves),
				briefSource: "deterministic" as const,
			};
			runtime.decide(
				ctx,
				epoch ? { kind: "mark", actor: "ladder", topUp: false, fold } : { kind: "fold", actor: "ladder", fold },
			);
			return id;
		}
		return null;
	});
}
