// The per-arm part of report.json as zod schemas: one provider request, the ledger totals, pi-fold's
// fold measures and one arm's report. session-report.ts builds the whole report from them; targets.ts
// judges arm reports. Pure.

import { z } from "zod";
import type { FoldMetrics } from "./arm-types.ts";
import type { LedgerTotals } from "./ledger.ts";
import { reuseTallySchema } from "./reuse-tally.ts";

const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

export const requestSchema = z.object({
	seq: count,
	kind: z.enum(["agent", "summary", "brief"]),
	stage: count,
	messages: count,
	chars: count,
	context: count,
	input: count,
	cacheRead: count,
	cacheWrite: count,
	output: count,
	pureAppend: z.boolean().nullable(),
	rejected: z.boolean(),
	stopReason: z.string(),
	ms: amount,
});

export const totalsSchema = z.object({
	requests: count,
	billedCalls: count,
	rejectedCalls: count,
	summaryCalls: count,
	briefCalls: count,
	totalTokens: count,
	freshInput: count,
	cacheRead: count,
	output: count,
	cacheShare: z.number().min(0).max(1),
	peakContext: count,
	meanContext: amount,
	projectionRewrites: count,
	cost: amount,
	flatCost: amount,
	surcharge: amount,
	surchargeRequests: count,
}) satisfies z.ZodType<LedgerTotals>;

const tally = z.object({ correct: count, total: count });

export const foldMetricsSchema = z.object({
	commits: count,
	unseenCommits: count,
	folds: count,
	agentFolds: count,
	ladderFolds: count,
	modelBriefs: count,
	pendingMarks: count,
	agentMarks: count,
	topUpMarks: count,
	foldCalls: count,
	refusedCalls: count,
	peeks: count,
	peekBytes: count,
	expands: count,
	rewrites: count,
	unattributedRewrites: count,
	fencedAborts: count,
	commitChecks: z.array(z.object({ seq: count, predicted: count, actual: count })),
	/** The `providerTotalWindow` the arm set (null: none, pi-fold as installed budgets against the model's window). */
	providerTotalWindow: count.nullable().optional(),
	recall: z
		.object({
			searches: count,
			searchBytes: count,
			expandBytes: count,
			treePages: count,
			recoveryCalls: count,
			sourceBytes: count,
			maxDepth: count,
			leafFolds: count,
		})
		.optional(),
}) satisfies z.ZodType<FoldMetrics>;

export const armReportSchema = z.object({
	name: z.string(),
	description: z.string(),
	status: z.enum(["complete", "overflow", "stalled", "error"]),
	error: z.string().optional(),
	wallMs: amount,
	stageCount: count,
	stagesCompleted: count,
	totals: totalsSchema,
	compactions: count,
	foldEvents: count,
	fileReads: z.object({ count, chars: count }),
	rereads: z.object({ count, chars: count }),
	probes: tally,
	/** Receipt probes alone: codes that existed only in a stage result, never on disk. */
	receiptProbes: tally,
	revisits: tally,
	/** Facts later stages reused from files read many stages earlier: in view, recalled, blind (reuse-report.ts). */
	reuse: reuseTallySchema.optional(),
	/** Peak request context from the first rewrite (first commit, or first compaction) on; null without one. */
	peakAfterFirstRewrite: count.nullable(),
	/** pi-fold arms: what pi-fold did. */
	pifold: foldMetricsSchema.optional(),
	notes: z.object({ accepted: count, total: count }),
	/** Answers per source: "window", "summary", "reread", arm routes, "none". */
	answersBy: z.record(z.string(), count),
	reissues: count,
	wrongKeys: count,
	requests: z.array(requestSchema),
});

export type ArmReport = z.infer<typeof armReportSchema>;
