// The report: a zod schema for report.json, the builder that turns arm runs into it, and the Markdown table
// printed to stdout and written as report.md. Numbers come only from the ledger and the run records. Pure functions.

import { z } from "zod";
import { defaultTargets } from "./default-targets.ts";
import { type LedgerTotals, ledgerTotals, PRICES, type RequestRecord } from "./ledger.ts";
import type { Plan } from "./plan.ts";
import { recallTargets } from "./recall-targets.ts";
import { stagesCompleted } from "./record.ts";
import { type ArmReport, armReportSchema, totalsSchema } from "./report-schema.ts";
import { reuseTargets } from "./reuse-report.ts";
import { reuseTally } from "./reuse-tally.ts";
import type { ArmRun } from "./session.ts";
import { evaluateTargets, targetSchema } from "./targets.ts";

export { type ArmReport, armReportSchema, foldMetricsSchema, requestSchema, totalsSchema } from "./report-schema.ts";

const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

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
		shape: z.string().optional(),
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
	/** The spec's targets for its epoch mode, checked on this report's arms (verdicts with the measured values). */
	targets: z.array(targetSchema),
	/** The recall targets (bench/session/recall-targets.ts). */
	recallTargets: z.array(targetSchema),
	/** The targets about pi-fold's default (bench/session/default-targets.ts). */
	defaultTargets: z.array(targetSchema).default([]),
	/** Reused facts' targets (bench/session/reuse-report.ts). */
	reuseTargets: z.array(targetSchema).optional(),
});

export type Report = z.infer<typeof reportSchema>;

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
	const tallyOf = (role: "probe" | "revisit", kind?: string) => {
		const answers = record.answers.filter((a) => a.role === role && (kind === undefined || a.kind === kind));
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
		receiptProbes: tallyOf("probe", "receipt"),
		revisits: tallyOf("revisit"),
		reuse: reuseTally(record, run.questions ?? {}),
		peakAfterFirstRewrite: peakAfterFirstRewrite(run.ledger),
		...(run.metrics ? { pifold: run.metrics } : {}),
		notes: { accepted: record.notes.filter((n) => n.accepted).length, total: record.notes.length },
		answersBy: run.routes,
		reissues: record.reissues,
		wrongKeys: record.wrongKeys,
		requests: run.ledger.map((r) => ({ ...r })),
	};
}

/** Peak context of billed requests from the first agent request that was not a pure append on; null if none was. */
export function peakAfterFirstRewrite(requests: readonly RequestRecord[]): number | null {
	const first = requests.findIndex((r) => r.kind === "agent" && r.pureAppend === false);
	if (first < 0) return null;
	return requests.slice(first).reduce((m, r) => (r.rejected ? m : Math.max(m, r.context)), 0);
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
			shape: plan.shape,
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
		targets: evaluateTargets(arms, { window: context.window, maxTokens: context.maxTokens }),
		recallTargets: recallTargets(arms),
		defaultTargets: defaultTargets(arms, { window: context.window, maxTokens: context.maxTokens }),
		reuseTargets: reuseTargets(arms, plan),
	};
	return reportSchema.parse(report);
}
