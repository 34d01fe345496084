// The window sweep (`pi-fold demo --sweep`, or `--windows a,b,...`): the same plan, seed and arms run
// at each window, each window's results in its own folder (window-<W>/), then one compact table of
// every arm at every window with its ratios to native, and the cost policy's targets judged on the
// whole sweep (sweep-targets.ts); then each window's native session replayed by `pi-fold replay` against the
// measured ladder arm (sweep-replay.ts). Writes sweep.json and sweep.md into the results folder.

import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DemoOptionsInput } from "./demo-options.ts";
import { defaultResultsDir, type RunDemoContext, runDemo } from "./run-demo.ts";
import type { Report } from "./session-report.ts";
import { type ReplayAgreement, renderReplayAgreement, replayAgainstBenchmark, replayVerdict } from "./sweep-replay.ts";
import { renderSweepTable } from "./sweep-table.ts";
import { evaluateSweep, type SweepVerdict } from "./sweep-targets.ts";

export { SWEEP_WINDOWS } from "./demo-options.ts";

export interface SweepResult {
	/** Each window's report, in window order. */
	readonly reports: readonly Report[];
	/** Every target's verdict, the replay's last. */
	readonly verdicts: readonly SweepVerdict[];
	/** Each window's native session replayed against its measured ladder arm. */
	readonly replay: readonly ReplayAgreement[];
	readonly dir: string;
	readonly table: string;
}

export async function runSweep(
	input: DemoOptionsInput & { readonly windows: readonly number[] },
	context: RunDemoContext = {},
): Promise<SweepResult> {
	const { windows, ...options } = input;
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
	const replayed = replayVerdict(replay);
	const verdicts = [...evaluateSweep(reports), replayed];
	const table = `${renderSweepTable(reports, verdicts.slice(0, -1))}\n${renderReplayAgreement(replay, replayed)}`;
	writeFileSync(join(dir, "sweep.json"), `${JSON.stringify({ reports, verdicts, replay }, null, "\t")}\n`);
	writeFileSync(join(dir, "sweep.md"), `# pi-fold window sweep\n\n${table}`);
	return { reports, verdicts, replay, dir, table };
}
