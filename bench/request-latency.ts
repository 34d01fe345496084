// The request-latency benchmark: the time pi-fold adds to every request, over the session's length.
// One real in-process Pi session of N requests (small ranged reads through Pi's `read` tool, a 64k
// window, the faux provider; bench/request-latency-session.ts) runs three times in the same process:
// Pi alone as users run it (its native compaction on, Pi's default thresholds), Pi alone with its
// compaction off (the same history as pi-fold's, none of it summarized), then with pi-fold
// registered (Pi's compaction on, as users run it; pi-fold cancels it when its own commit fits). A
// step is the gap between two of the agent's provider requests (Pi's work, the tool, and every
// hook). Reported: the median step near each session length asked for (the steps ending within the
// last STEPS_NEAR requests before it), pi-fold's less Pi alone's with its compaction on, and how
// much of pi-fold's step its own hooks took (timed around each handler); the median of the first and
// last `edge` steps of the `length`-request session, pi-fold's own hooks over the same two stretches,
// and the targets as ratios measured in the same run, MISSED where missed. Then a shorter pi-fold
// session under the sampling profiler: the extension's share of the CPU time and its functions with
// the most self time. Not a timed test: `npm run bench:request-latency` (about 2 minutes at the
// default lengths on a 2-core machine; `--requests 100,1000,5000` runs a 5,000-request session,
// much longer).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandSpec } from "../src/args/index.ts";
import { UsageError } from "../src/args/index.ts";
import { numberList, scriptArgs } from "./command-line.ts";
import { type ProfileSummary, profiled, summarize } from "./cpu-profile.ts";
import { collectGarbage, machineInfo, median } from "./data.ts";
import { hookTimesOf, runSession, stepsOf } from "./request-latency-session.ts";

/** pi-fold's median step over the last `edge` steps may be at most this many times Pi alone's. */
export const TARGET_VS_PI = 2;
/** ... and at most this many times its own over the first `edge` steps. */
export const TARGET_VS_FIRST = 1.5;
/** Steps whose median stands for the time per request at a session length. */
const STEPS_NEAR = 50;

export interface RequestLatencyArgs {
	requests: number[];
	length: number;
	edge: number;
	window: number;
	profile: number;
	json: boolean;
}

const REQUEST_LATENCY_COMMAND = {
	name: "bench:request-latency",
	program: "npm run bench:request-latency --",
	description:
		"Runs one real Pi session of small ranged reads twice, Pi alone and with pi-fold, and prints the time\n" +
		"per request pi-fold adds as the session grows, its targets, and a CPU profile of the extension.",
	flags: {
		requests: {
			kind: "string",
			value: "a,b",
			default: "100,1000",
			help: "session lengths (requests) to report the time per request at",
		},
		length: {
			kind: "integer",
			value: "N",
			default: 1_500,
			min: 2,
			help: "the session the targets are read on (requests)",
		},
		edge: { kind: "integer", value: "N", default: 200, min: 1, help: "steps in the first and last medians" },
		window: { kind: "integer", value: "N", default: 65_536, min: 1_000, help: "the model's context window in tokens" },
		profile: {
			kind: "integer",
			value: "N",
			default: 500,
			min: 0,
			help: "requests of the profiled pi-fold session (0: no profile)",
		},
		json: { kind: "boolean", help: "print the results as JSON" },
	},
} satisfies CommandSpec;

/** One arm's run: its steps (ms) and what its session ended with. */
export interface ArmRun {
	readonly steps: readonly number[];
	/** pi-fold's own hooks in each step (ms; zeros for Pi alone). */
	readonly hooks: readonly number[];
	/** CPU time of the whole session (s). */
	readonly cpuSeconds: number;
	readonly lastMessages: number;
	readonly contextEdits: number;
	/** Pi's compactions on the branch at the end. */
	readonly compactions: number;
	readonly seconds: number;
}

/** The time per request at one session length. */
export interface LengthRow {
	readonly requests: number;
	/** Pi alone with its compaction on. */
	readonly piCompactingMs: number;
	readonly piMs: number;
	readonly piFoldMs: number;
	readonly addedMs: number;
	/** Of the step with pi-fold, its own hooks' median (ms). */
	readonly hooksMs: number;
}

/** A target: the ratio measured and its bound. */
export interface Target {
	readonly name: string;
	readonly ratio: number;
	readonly bound: number;
	readonly met: boolean;
}

export interface RequestLatencyResult {
	readonly args: RequestLatencyArgs;
	/** Pi alone with its compaction on, as users run it. */
	readonly piCompacting: ArmRun;
	/** Pi alone with its compaction off: the same history as pi-fold's. */
	readonly pi: ArmRun;
	readonly piFold: ArmRun;
	readonly rows: readonly LengthRow[];
	readonly edges: {
		readonly piCompactingFirst: number;
		readonly piCompactingLast: number;
		readonly piFirst: number;
		readonly piLast: number;
		readonly first: number;
		readonly last: number;
		readonly hooksFirst: number;
		readonly hooksLast: number;
	};
	readonly targets: readonly Target[];
	readonly profile: (ProfileSummary & { readonly requests: number }) | null;
}

/** The median step among those ending at requests (k - STEPS_NEAR, k] (step i ends at request i + 2). */
export function stepAt(steps: readonly number[], requests: number): number {
	const end = Math.min(steps.length, requests - 1);
	const start = Math.max(0, end - Math.min(STEPS_NEAR, Math.ceil(end / 2)));
	return median(steps.slice(start, end));
}

/** The medians of the first and the last `edge` steps of the first `length` requests. */
export function edgesOf(steps: readonly number[], length: number, edge: number): { first: number; last: number } {
	const within = steps.slice(0, length - 1);
	return { first: median(within.slice(0, edge)), last: median(within.slice(-edge)) };
}

async function runArm(
	arm: { piFold: boolean; compaction: boolean },
	args: RequestLatencyArgs,
	requests: number,
	root: string,
): Promise<ArmRun> {
	collectGarbage();
	const started = performance.now();
	const run = await runSession({ requests, window: args.window, ...arm, root });
	if (run.errors.length > 0) throw new Error(`extension errors: ${run.errors.slice(0, 3).join("; ")}`);
	if (run.requestTimes.length !== requests)
		throw new Error(`the session made ${run.requestTimes.length} requests, not ${requests}`);
	return {
		steps: stepsOf(run.requestTimes),
		hooks: hookTimesOf(run.requestTimes, run.spans),
		cpuSeconds: run.cpuMs / 1000,
		lastMessages: run.lastMessages,
		contextEdits: run.contextEdits,
		compactions: run.compactions,
		seconds: (performance.now() - started) / 1000,
	};
}

/** The extension's own source folder (what the profile summary counts as pi-fold). */
const SOURCE_FOLDER = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** Runs both arms (and the profile); Pi's agent directory is the run's own temp folder. */
export async function measure(args: RequestLatencyArgs): Promise<RequestLatencyResult> {
	const requests = Math.max(args.length, ...args.requests);
	const root = mkdtempSync(join(tmpdir(), "pi-fold-request-latency-"));
	const agentDir = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = join(root, "agent");
	try {
		const piCompacting = await runArm({ piFold: false, compaction: true }, args, requests, join(root, "pi-compacting"));
		const pi = await runArm({ piFold: false, compaction: false }, args, requests, join(root, "pi"));
		const piFold = await runArm({ piFold: true, compaction: true }, args, requests, join(root, "pi-fold"));
		let profile: RequestLatencyResult["profile"] = null;
		if (args.profile > 0) {
			collectGarbage();
			const { profile: raw } = await profiled(() =>
				runSession({
					requests: args.profile,
					window: args.window,
					piFold: true,
					compaction: true,
					root: join(root, "profile"),
				}),
			);
			profile = { requests: args.profile, ...summarize(raw, SOURCE_FOLDER, 12) };
		}
		const rows = args.requests.map((k): LengthRow => {
			const piMs = stepAt(pi.steps, k);
			const piFoldMs = stepAt(piFold.steps, k);
			const piCompactingMs = stepAt(piCompacting.steps, k);
			return {
				requests: k,
				piCompactingMs,
				piMs,
				piFoldMs,
				addedMs: piFoldMs - piCompactingMs,
				hooksMs: stepAt(piFold.hooks, k),
			};
		});
		const compacting = edgesOf(piCompacting.steps, args.length, args.edge);
		const alone = edgesOf(pi.steps, args.length, args.edge);
		const own = edgesOf(piFold.steps, args.length, args.edge);
		const hooks = edgesOf(piFold.hooks, args.length, args.edge);
		const target = (name: string, ratio: number, bound: number): Target => ({
			name,
			ratio,
			bound,
			met: ratio <= bound,
		});
		return {
			args,
			piCompacting,
			pi,
			piFold,
			rows,
			edges: {
				piCompactingFirst: compacting.first,
				piCompactingLast: compacting.last,
				piFirst: alone.first,
				piLast: alone.last,
				first: own.first,
				last: own.last,
				hooksFirst: hooks.first,
				hooksLast: hooks.last,
			},
			targets: [
				target(
					"pi-fold's last steps ÷ Pi alone's last steps (its compaction on, as users run it)",
					own.last / compacting.last,
					TARGET_VS_PI,
				),
				target(
					"pi-fold's last steps ÷ Pi alone's last steps (its compaction off: the same history)",
					own.last / alone.last,
					TARGET_VS_PI,
				),
				target("pi-fold's last steps ÷ its own first steps", own.last / own.first, TARGET_VS_FIRST),
			],
			profile,
		};
	} finally {
		if (agentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = agentDir;
		rmSync(root, { recursive: true, force: true });
	}
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const count = (value: number) => value.toLocaleString("en-US");

/** The printed report. */
export function report(result: RequestLatencyResult): string {
	const { args, piCompacting, pi, piFold, edges } = result;
	const armLine = (name: string, arm: ArmRun, extra: string) =>
		`${name}: ${count(arm.steps.length + 1)} requests in ${arm.seconds.toFixed(1)} s (${arm.cpuSeconds.toFixed(1)} s of CPU), ${count(arm.lastMessages)} messages in the last, ${extra}.`;
	const lines = [
		`Request latency: one session of small ranged reads (${count(args.window)}-token window, faux provider), Pi alone and with pi-fold.`,
		armLine("Pi alone, its compaction on", piCompacting, `${count(piCompacting.compactions)} compactions`),
		armLine("Pi alone, its compaction off", pi, "no compaction"),
		armLine(
			"With pi-fold, Pi's compaction on",
			piFold,
			`${count(piFold.contextEdits)} context edits, ${count(piFold.compactions)} compactions`,
		),
		"",
		`Time per request (median of the ${STEPS_NEAR} steps before it):`,
		"| requests | Pi alone, compaction on | Pi alone, compaction off | with pi-fold | added by pi-fold | ratio | pi-fold's own hooks |",
		"| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
		...result.rows.map(
			(r) =>
				`| ${count(r.requests)} | ${ms(r.piCompactingMs)} | ${ms(r.piMs)} | ${ms(r.piFoldMs)} | ${ms(r.addedMs)} | ${(r.piFoldMs / r.piCompactingMs).toFixed(2)}x | ${ms(r.hooksMs)} |`,
		),
		'"Added by pi-fold" and the ratio are against Pi alone with its compaction on.',
		"",
		`Median step over the first and the last ${count(args.edge)} of ${count(args.length)} requests:`,
		`| arm | first ${count(args.edge)} | last ${count(args.edge)} |`,
		"| --- | ---: | ---: |",
		`| Pi alone, compaction on | ${ms(edges.piCompactingFirst)} | ${ms(edges.piCompactingLast)} |`,
		`| Pi alone, compaction off | ${ms(edges.piFirst)} | ${ms(edges.piLast)} |`,
		`| with pi-fold | ${ms(edges.first)} | ${ms(edges.last)} |`,
		`| of which pi-fold's own hooks | ${ms(edges.hooksFirst)} | ${ms(edges.hooksLast)} |`,
		"",
		`pi-fold's own hooks, last ${count(args.edge)} ÷ first ${count(args.edge)}: ${(edges.hooksLast / edges.hooksFirst).toFixed(2)}x (reported: the time pi-fold itself adds, apart from what Pi does on the longer branch).`,
		"",
		"Targets (this run):",
		...result.targets.map(
			(t) => `- ${t.name}: ${t.ratio.toFixed(2)}x, at most ${t.bound}x: ${t.met ? "met" : "MISSED"}`,
		),
	];
	const profile = result.profile;
	if (profile) {
		const share = profile.totalMs > 0 ? (100 * profile.folderMs) / profile.totalMs : 0;
		lines.push(
			"",
			`CPU profile of a ${count(profile.requests)}-request pi-fold session: ${(profile.totalMs / 1000).toFixed(1)} s sampled, ${(profile.folderMs / 1000).toFixed(1)} s (${share.toFixed(0)}%) in pi-fold's own code. Its functions by self time:`,
			...profile.top.map((f) => `- ${ms(f.selfMs)}  ${f.name}`),
		);
	}
	const info = machineInfo();
	lines.push("", `Node ${info.node}, ${info.cpu}.`);
	return lines.join("\n");
}

function shape(flags: {
	requests: string;
	length: number;
	edge: number;
	window: number;
	profile: number;
	json: boolean;
}): RequestLatencyArgs {
	const requests = numberList("requests", flags.requests, "100,1000,5000");
	if (requests.some((k) => k < 2)) throw new UsageError("--requests needs session lengths of 2 requests or more");
	if (flags.edge * 2 > flags.length - 1)
		throw new UsageError(`--edge ${flags.edge} needs a --length of at least ${flags.edge * 2 + 1} requests`);
	return { ...flags, requests };
}

async function main(): Promise<void> {
	const args = scriptArgs(REQUEST_LATENCY_COMMAND, shape);
	if (!args) return;
	const result = await measure(args);
	process.stdout.write(args.json ? `${JSON.stringify(omitSteps(result), null, "\t")}\n` : `${report(result)}\n`);
}

/** The result without the per-step arrays (thousands of numbers), for --json. */
function omitSteps(result: RequestLatencyResult) {
	const arm = ({ steps, hooks: _hooks, ...rest }: ArmRun) => ({ ...rest, requests: steps.length + 1 });
	return { ...result, piCompacting: arm(result.piCompacting), pi: arm(result.pi), piFold: arm(result.piFold) };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
