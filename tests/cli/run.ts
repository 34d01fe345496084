// Runs the bundled `pi-fold` bin (build/cli.js) as a user does: a fresh process, this test's Node 22
// unless another is given, captured output and exit status. Shared by the tests in tests/cli/.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

export const ROOT = join(import.meta.dirname, "..", "..");
export const CLI = join(ROOT, "build", "cli.js");

export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

export interface CliOptions {
	input?: string;
	env?: Record<string, string>;
	/** The Node binary to run the bin with (default: this test's). */
	node?: string;
	cwd?: string;
}

export function cli(args: readonly string[], options: CliOptions = {}): CliRun {
	expect(existsSync(CLI), "build/cli.js is missing: run npm run build").toBe(true);
	const r = spawnSync(options.node ?? process.execPath, [CLI, ...args], {
		encoding: "utf8",
		env: { ...process.env, ...options.env },
		timeout: 120_000,
		...(options.input !== undefined ? { input: options.input } : {}),
		...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
	});
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** One line, `pi-fold: <command>: <message>`, and no stack trace. */
export function expectOneErrorLine(r: CliRun, command: string, message: RegExp): void {
	expect(r.stderr, r.stderr).toMatch(new RegExp(`^pi-fold: ${command}: .+\\n$`));
	expect(r.stderr).toMatch(message);
	expect(r.stderr).not.toMatch(/\n\s+at /);
}
