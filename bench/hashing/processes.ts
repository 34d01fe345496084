// Running a contender of `pi-fold bench --cli` as a user does: a fresh process, output discarded,
// timed from spawn to exit. Peak memory is measured in separate runs, preloading a module that
// writes the process's maxRSS (the whole process, every thread) when it exits. Does its own I/O.

import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** One command line to time. `node` marks a Node process (its peak memory can be measured). */
export interface Contender {
	label: string;
	command: string;
	args: string[];
	cwd?: string;
	node?: boolean;
}

/** Runs `c` once with `env` added; wall time in ms, and stdout when `capture` is set. */
export function runOnce(
	c: Contender,
	env: Record<string, string>,
	capture = false,
): { ms: number; status: number | null; stdout: string; stderr: string } {
	const started = performance.now();
	const r = spawnSync(c.command, c.args, {
		cwd: c.cwd,
		env: { ...process.env, ...env },
		stdio: capture ? ["ignore", "pipe", "pipe"] : "ignore",
		encoding: "utf8",
		maxBuffer: 64 * 1024 * 1024,
	});
	const ms = performance.now() - started;
	if (r.error) throw new Error(`${c.label}: cannot run ${c.command} (${r.error.message})`);
	return { ms, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Peak resident memory (bytes) of one run of a Node contender, via the preload at `preload`. */
export function peakRss(c: Contender, env: Record<string, string>, preload: string, scratch: string): number {
	const file = join(scratch, `rss-${process.pid}-${Date.now()}.txt`);
	const withPreload: Contender = { ...c, args: ["--import", preload, ...c.args] };
	const r = runOnce(withPreload, { ...env, PI_FOLD_BENCH_RSS_FILE: file });
	if (r.status !== 0) throw new Error(`${c.label}: exited ${r.status} while measuring memory`);
	try {
		return Number(readFileSync(file, "utf8")) * 1024;
	} finally {
		rmSync(file, { force: true });
	}
}

/** True when `command` exists on PATH (it runs with `args`, by default --version). */
export function available(command: string, args: string[] = ["--version"]): boolean {
	const r = spawnSync(command, args, { stdio: "ignore" });
	return !r.error && r.status === 0;
}
