// What a planned commit becomes at the boundary (runtime.ts `boundary`): its edits, the commit
// record chained onto the branch's last digest, and, for a commit the runtime timed itself (epoch
// and cost scheduling, or any commit with ladder folds), the bounded receipt the model reads next;
// the commit is noted in the telemetry with its receipt. Pure apart from the telemetry note.

import type { ResolvedOptions } from "../options/index.ts";
import type { DecisionBody, DecisionRecord } from "../state/index.ts";
import { type CommitOutcome, RECEIPT_MAX_CHARS, receiptText } from "./commit/index.ts";
import type { BoundaryDraft } from "./ports.ts";
import type { Telemetry } from "./telemetry.ts";
import { messagesBeforeFirst } from "./window-position.ts";

interface CommitDraftContext {
	readonly options: Pick<ResolvedOptions, "foldScheduling" | "brandNoun">;
	/** Chains the commit body onto the branch's last digest (the decision log's `chain`). */
	readonly chain: (body: DecisionBody, lastDigest: string | null) => DecisionRecord;
	readonly decisionEntryType: string;
	readonly receiptType: string;
	readonly telemetry: Telemetry;
	/** Neither the model nor the settings give prices: the receipt speaks in tokens. */
	readonly assumedPrices: boolean;
}

/** The commit's drafts: the edits, the chained commit record and (automatic commits) the receipt. */
export function commitDrafts(planned: CommitOutcome, ctx: CommitDraftContext): BoundaryDraft[] {
	const { body, snap } = planned;
	const record = ctx.chain(body, snap.state.lastDigest);
	const automatic = ctx.options.foldScheduling !== "immediate" || planned.ladder.length > 0;
	const originOf = (id: string) =>
		planned.ladder.includes(id) || (snap.known.get(id) ?? snap.state.pendingMarks.get(id)?.fold)?.origin !== "agent"
			? ("ladder" as const)
			: ("agent" as const);
	const text = automatic ? receiptText(body, ctx.options.brandNoun, originOf, planned.freed, ctx.assumedPrices) : null;
	const receipt = text === null ? null : text.slice(0, RECEIPT_MAX_CHARS);
	ctx.telemetry.recordCommit(
		{
			seq: body.seq,
			reason: body.reason,
			edits: planned.drafts.length,
			applied: body.applied,
			freedTokens: planned.freed,
			prediction: planned.prediction ?? undefined,
			force: body.force,
			firstEdit: messagesBeforeFirst(
				snap.view,
				planned.drafts.flatMap((d) => (d.type === "context_edit" ? [d.targetId] : [])),
			),
		},
		receipt,
	);
	const out: BoundaryDraft[] = [...planned.drafts, { type: "custom", customType: ctx.decisionEntryType, data: record }];
	if (receipt !== null)
		out.push({ type: "custom_message", customType: ctx.receiptType, content: receipt, display: false });
	return out;
}
