// The benchmark runner: loads the corpus, builds the plan, runs each arm in turn and writes the results folder
// (report.json, report.md, context.svg, plan.json, one session JSONL per arm). Does the file I/O.

import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { getArm } from "./arms.ts";
import { renderChart } from "./chart.ts";
import { DEFAULT_SUMMARY_MAX_CHARS } from "./compaction-summarizer.ts";
import { type DemoOptionsInput, parseDemoOptions } from "./demo-options.ts";
import { loadPiHost } from "./pi-packages.ts";
import { buildPlan } from "./plan.ts";
import { type ArmRun, runArm } from "./session.ts";
import { loadCorpus } from "./session-corpus.ts";
import { buildReport, type Report } from "./session-report.ts";
import { renderTable } from "./table.ts";

export interface DemoResult {
	report: Report;
	/** Absolute path of the results folder. */
	dir: string;
	/** The Markdown table (also in report.md). */
	table: string;
}

export interface RunDemoContext {
	/** The command line recorded in the report. Default "pi-fold demo". */
	command?: string;
	/** Progress lines (default: none). */
	log?: (line: string) => void;
}

export function defaultResultsDir(now = new Date()): string {
	return join("results", `demo-${now.toISOString().replace(/[:.]/g, "-")}`);
}

export async function runDemo(input: DemoOptionsInput = {}, context: RunDemoContext = {}): Promise<DemoResult> {
	const options = parseDemoOptions(input);
	const arms = options.arms.map(getArm);
	const dir = resolve(options.out ?? defaultResultsDir());
	mkdirSync(dir, { recursive: true });
	const log = options.progress ? context.log : undefined;
	const corpus = loadCorpus();
	const plan = buildPlan(corpus, {
		seed: options.seed,
		stages: options.stages,
		stageChars: options.stageChars,
		reuse: options.reuse,
		shape: options.shape,
	});
	log?.(
		`plan ${plan.hash.slice(0, 12)}: ${plan.stageCount} stages over ${plan.files.length} files (corpus of ${corpus.files.length})`,
	);
	writeFileSync(join(dir, "plan.json"), `${JSON.stringify(plan, null, "\t")}\n`);
	const runs: ArmRun[] = [];
	for (const arm of arms) {
		log?.(`${arm.name}: running`);
		const run = await runArm(arm, plan, corpus, {
			window: options.window,
			maxTokens: options.maxTokens,
			keepSessionIn: dir,
			...(log ? { onProgress: log } : {}),
		});
		log?.(`${arm.name}: ${run.status} in ${(run.wallMs / 1000).toFixed(2)} s`);
		runs.push(run);
	}
	const report = buildReport(runs, plan, {
		command: context.command ?? "pi-fold demo",
		piVersion: (await loadPiHost()).agent.VERSION,
		window: options.window,
		maxTokens: options.maxTokens,
		summaryMaxChars: DEFAULT_SUMMARY_MAX_CHARS,
		descriptions: Object.fromEntries(arms.map((a) => [a.name, a.description])),
	});
	const table = renderTable(report);
	writeFileSync(join(dir, "report.json"), `${JSON.stringify(report, null, "\t")}\n`);
	writeFileSync(join(dir, "report.md"), `# pi-fold session benchmark\n\nCommand: \`${report.command}\`\n\n${table}`);
	writeFileSync(join(dir, "context.svg"), renderChart(report));
	return { report, dir, table };
}
