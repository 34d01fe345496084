// The window sweep (`pi-fold demo --sweep`, or `--windows a,b,...`): the same plan, seed and arms run
// at each window, each window's results in its own folder (window-<W>/), then one compact table of
// every arm at every window with its ratios to native, and the cost policy's targets judged on the
// whole sweep (sweep-targets.ts); then each window's native session replayed by `pi-fold replay` against the
// measured ladder arm (sweep-replay.ts); with `stagesSweep` (`--stages-sweep 8,16,32,64`, part of `--sweep`), every
// arm at 200k for plans of those lengths, each in plans-200000/stages-<N>/, with its table and target
// (sweep-plans.ts). Writes sweep.json and sweep.md into the results folder.

import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DemoOptionsInput } from "./demo-options.ts";
import { defaultResultsDir, type RunDemoContext, runDemo } from "./run-demo.ts";
import type { Report } from "./session-report.ts";
import { PLANS_WINDOW, plansVerdict, renderPlansTable } from "./sweep-plans.ts";
import { type ReplayAgreement, renderReplayAgreement, replayAgainstBenchmark, replayVerdict } from "./sweep-replay.ts";
import { reuseSweepVerdicts } from "./sweep-reuse.ts";
import { renderSweepTable } from "./sweep-table.ts";
import { evaluateSweep, type SweepVerdict, verdictRows } from "./sweep-targets.ts";

export { SWEEP_WINDOWS } from "./demo-options.ts";

export interface SweepResult {
	/** Each window's report, in window order. */
	readonly reports: readonly Report[];
	/** The short plans at PLANS_WINDOW (none without `stagesSweep`), in plan-length order. */
	readonly plans: readonly Report[];
	/** Every target's verdict: the windows', the short plans', realistic reuse's, the replay's last. */
	readonly verdicts: readonly SweepVerdict[];
	/** Each window's native session replayed against its measured ladder arm. */
	readonly replay: readonly ReplayAgreement[];
	readonly dir: string;
	readonly table: string;
}

export async function runSweep(
	input: DemoOptionsInput & { readonly windows: readonly number[]; readonly stagesSweep?: readonly number[] },
	context: RunDemoContext = {},
): Promise<SweepResult> {
	const { windows, stagesSweep = [], ...options } = input;
	const dir = resolve(options.out ?? defaultResultsDir());
	mkdirSync(dir, { recursive: true });
	const reports: Report[] = [];
	const replay: ReplayAgreement[] = [];
	for (const window of windows) {
		context.log?.(`window ${window.toLocaleString("en-US")}: running`);
		const result = await runDemo({ ...options, window, out: join(dir, `window-${window}`) }, context);
		reports.push(result.report);
		replay.push(await replayAgainstBenchmark(result.report, result.dir));
	}
	const plans = await runPlans(reports, stagesSweep, options, dir, context);
	const windowVerdicts = windows.length > 0 ? evaluateSweep(reports) : [];
	const plansVerdicts = plans.length > 0 ? [plansVerdict(plans)] : [];
	const replayVerdicts = windows.length > 0 ? [replayVerdict(replay)] : [];
	const reuseVerdicts = reuseSweepVerdicts(reports, plans);
	const sections = [
		...(windows.length > 0 ? [renderSweepTable(reports, windowVerdicts)] : []),
		...plansVerdicts.map((v) => renderPlansTable(plans, v)),
		["Realistic reuse, at every window and plan length:", "", ...verdictRows(reuseVerdicts), ""].join("\n"),
		...replayVerdicts.map((v) => renderReplayAgreement(replay, v)),
	];
	const verdicts = [...windowVerdicts, ...plansVerdicts, ...reuseVerdicts, ...replayVerdicts];
	const table = sections.join("\n");
	writeFileSync(join(dir, "sweep.json"), `${JSON.stringify({ reports, plans, verdicts, replay }, null, "\t")}\n`);
	writeFileSync(join(dir, "sweep.md"), `# pi-fold window sweep\n\n${table}`);
	return { reports, plans, verdicts, replay, dir, table };
}

/** Every arm at PLANS_WINDOW for each plan length; a window run already made with that plan length is reused. */
async function runPlans(
	reports: readonly Report[],
	stagesSweep: readonly number[],
	options: DemoOptionsInput,
	dir: string,
	context: RunDemoContext,
): Promise<Report[]> {
	const plans: Report[] = [];
	for (const stages of [...stagesSweep].sort((a, b) => a - b)) {
		const done = reports.find((r) => r.settings.window === PLANS_WINDOW && r.plan.stageCount === stages);
		if (done) {
			plans.push(done);
			continue;
		}
		context.log?.(`${stages} stages at ${PLANS_WINDOW.toLocaleString("en-US")}: running`);
		const out = join(dir, `plans-${PLANS_WINDOW}`, `stages-${stages}`);
		plans.push((await runDemo({ ...options, stages, window: PLANS_WINDOW, out }, context)).report);
	}
	return plans;
}
