// The offline session benchmark (`pi-fold demo`, `npm run demo`): real Pi sessions on the faux provider, one per
// arm, over a staged plan drawn from the installed Pi packages. Imports Pi; load it lazily from the CLI.

export { type ArmDefinition, type ArmEnv, getArm, listArms, registerArm } from "./arms.ts";
export { renderChart } from "./chart.ts";
export { DEFAULT_SUMMARY_MAX_CHARS, summarize } from "./compaction-summarizer.ts";
export * from "./demo-options.ts";
export { type LedgerTotals, ledgerTotals, PRICES, type RequestRecord } from "./ledger.ts";
export { buildPlan, type Plan, type PlanStage, type Question } from "./plan.ts";
export { createPolicyFactory, decide, type PolicyOptions } from "./policy.ts";
export {
	answerFromFileText,
	type RecoveryRoute,
	type RouteOutcome,
	rereadRoute,
	type ToolCallSpec,
	visibleRoute,
} from "./routes.ts";
export { type DemoResult, defaultResultsDir, runDemo } from "./run-demo.ts";
export { type ArmRun, runArm } from "./session.ts";
export { CORPUS_RULE, type Corpus, loadCorpus } from "./session-corpus.ts";
export { type ArmReport, buildReport, type Report, reportSchema } from "./session-report.ts";
export { runSweep, SWEEP_WINDOWS, type SweepResult } from "./sweep.ts";
export { DEFAULT_PIFOLD_ARMS, evaluateSweep, type SweepVerdict } from "./sweep-targets.ts";
export { renderTable } from "./table.ts";
export {
	buildView,
	callsSince,
	type QuestionView,
	type StageView,
	type VisibleResult,
	visibleTexts,
	type WindowView,
} from "./window-view.ts";
