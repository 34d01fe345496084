// The report: a zod schema for report.json, the builder that turns arm runs into it, and the Markdown table
// printed to stdout and written as report.md. Numbers come only from the ledger and the run records. Pure functions.

import { z } from "zod";
import { type LedgerTotals, ledgerTotals, PRICES, type RequestRecord } from "./ledger.ts";
import type { Plan } from "./plan.ts";
import { stagesCompleted } from "./record.ts";
import type { ArmRun } from "./session.ts";

const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

export const requestSchema = z.object({
	seq: count,
	kind: z.enum(["agent", "summary"]),
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
	revisits: tally,
	notes: z.object({ accepted: count, total: count }),
	/** Answers per source: "window", "summary", "reread", arm routes, "none". */
	answersBy: z.record(z.string(), count),
	reissues: count,
	wrongKeys: count,
	requests: z.array(requestSchema),
});

export const reportSchema = z.object({
	version: z.literal(1),
	generatedAt: z.string(),
	command: z.string(),
	environment: z.object({ node: z.string(), pi: z.string(), platform: z.string() }),
	settings: z.object({
		window: count,
		maxTokens: count,
		reserveTokens: count,
		keepRecentTokens: count,
		summaryMaxChars: count,
	}),
	prices: z.object({
		base: z.object({ input: amount, cacheRead: amount, output: amount }),
		long: z.object({ input: amount, cacheRead: amount, output: amount }),
		longContextThreshold: count,
	}),
	plan: z.object({
		hash: z.string().regex(/^[0-9a-f]{64}$/),
		seed: z.string(),
		stageCount: count,
		stageChars: count,
		cadence: count,
		corpusRule: z.string(),
		corpusSha256: z.string().regex(/^[0-9a-f]{64}$/),
		files: z.array(z.object({ path: z.string(), bytes: count, chars: count, lines: count, sha256: z.string() })),
		stages: z.array(
			z.object({
				stage: count,
				files: z.array(z.string()),
				revisitOf: count.optional(),
				questions: z.array(
					z.object({ id: z.string(), kind: z.string(), role: z.string(), aboutStage: count, answer: z.string() }),
				),
				note: z.boolean(),
			}),
		),
	}),
	/** Present when an arm stopped early: every arm cut at the last stage all arms completed. */
	cut: z.object({ stage: count, arms: z.array(z.object({ name: z.string(), totals: totalsSchema })) }).optional(),
	arms: z.array(armReportSchema),
});

export type Report = z.infer<typeof reportSchema>;
export type ArmReport = z.infer<typeof armReportSchema>;

export interface ReportContext {
	command: string;
	piVersion: string;
	window: number;
	maxTokens: number;
	summaryMaxChars: number;
	descriptions: Record<string, string>;
}

export function armReport(run: ArmRun, plan: Plan, description: string): ArmReport {
	const { record } = run;
	const reads = record.reads;
	const rereads = reads.filter((r) => r.reread);
	const tallyOf = (role: "probe" | "revisit") => {
		const answers = record.answers.filter((a) => a.role === role);
		return { correct: answers.filter((a) => a.correct).length, total: answers.length };
	};
	return {
		name: run.arm,
		description,
		status: run.status,
		...(run.error ? { error: run.error } : {}),
		wallMs: run.wallMs,
		stageCount: plan.stageCount,
		stagesCompleted: stagesCompleted(record, plan.stageCount),
		totals: ledgerTotals(run.ledger),
		compactions: record.compactions.length,
		foldEvents: run.foldEvents,
		fileReads: { count: reads.length, chars: reads.reduce((n, r) => n + r.chars, 0) },
		rereads: { count: rereads.length, chars: rereads.reduce((n, r) => n + r.chars, 0) },
		probes: tallyOf("probe"),
		revisits: tallyOf("revisit"),
		notes: { accepted: record.notes.filter((n) => n.accepted).length, total: record.notes.length },
		answersBy: run.routes,
		reissues: record.reissues,
		wrongKeys: record.wrongKeys,
		requests: run.ledger.map((r) => ({ ...r })),
	};
}

/** Totals over the requests sent while stage <= `stage` was open: the work through handing in that stage. */
export function cutTotals(requests: readonly RequestRecord[], stage: number): LedgerTotals {
	return ledgerTotals(requests.filter((r) => r.stage <= stage));
}

export function buildReport(runs: ArmRun[], plan: Plan, context: ReportContext): Report {
	const arms = runs.map((run) => armReport(run, plan, context.descriptions[run.arm] ?? ""));
	const shortest = Math.min(...arms.map((a) => a.stagesCompleted));
	const report: Report = {
		version: 1,
		generatedAt: new Date().toISOString(),
		command: context.command,
		environment: { node: process.version, pi: context.piVersion, platform: `${process.platform}-${process.arch}` },
		settings: {
			window: context.window,
			maxTokens: context.maxTokens,
			reserveTokens: 16_384,
			keepRecentTokens: 20_000,
			summaryMaxChars: context.summaryMaxChars,
		},
		prices: { base: { ...PRICES.base }, long: { ...PRICES.long }, longContextThreshold: PRICES.longContextThreshold },
		plan: {
			hash: plan.hash,
			seed: plan.seed,
			stageCount: plan.stageCount,
			stageChars: plan.stageChars,
			cadence: plan.cadence,
			corpusRule: plan.corpusRule,
			corpusSha256: plan.corpusSha256,
			files: plan.files,
			stages: plan.stages.map((s) => ({
				stage: s.stage,
				files: s.files,
				...(s.revisitOf === undefined ? {} : { revisitOf: s.revisitOf }),
				questions: s.questions.map((q) => ({
					id: q.id,
					kind: q.kind,
					role: q.role,
					aboutStage: q.aboutStage,
					answer: q.answer,
				})),
				note: s.note,
			})),
		},
		...(arms.length > 1 && shortest < plan.stageCount && shortest > 0
			? { cut: { stage: shortest, arms: arms.map((a) => ({ name: a.name, totals: cutTotals(a.requests, shortest) })) } }
			: {}),
		arms,
	};
	return reportSchema.parse(report);
}
