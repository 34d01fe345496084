// Running a test's child script as an unprivileged user (uid/gid 65534), for cases where permissions
// matter and the tests run as root (root reads any file). The child gets everything it runs in a
// fresh 0755 temp folder: its script bundled with esbuild (no path back into the checkout, whose
// parent folders may not be traversable), and, if the checkout's Node binary cannot be run by that
// user, a copy of it. A child that cannot be started is reported as such, never as a test result.

import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/** The uid and gid the child runs as. */
export const NOBODY = 65534;

/** True when this process may switch users (it runs as root). */
export const canDropPrivileges = process.getuid?.() === 0;

/** Bundles `script` (a .ts file) with everything it imports into a fresh 0755 folder; returns both paths. */
export async function bundleForNobody(script: string): Promise<{ dir: string; entry: string }> {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-nobody-"));
	chmodSync(dir, 0o755);
	const entry = join(dir, "child.mjs");
	await build({
		entryPoints: [script],
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node22",
		outfile: entry,
		logLevel: "silent",
		banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
	});
	chmodSync(entry, 0o644);
	return { dir, entry };
}

function startFailure(r: SpawnSyncReturns<string>): string | undefined {
	if (r.error) return r.error.message;
	if (r.status === 126 || r.status === 127) return `exit ${r.status}: ${r.stderr.trim()}`;
	return undefined;
}

/**
 * Runs `entry` (from bundleForNobody) with Node as uid/gid 65534. Throws, saying so, when the child
 * cannot be started at all (rather than letting a test misread a failed spawn as a result).
 */
export function runAsNobody(
	folder: string,
	entry: string,
	args: string[],
	options: { timeout?: number } = {},
): SpawnSyncReturns<string> {
	const run = (node: string) =>
		spawnSync(node, [entry, ...args], {
			uid: NOBODY,
			gid: NOBODY,
			cwd: folder,
			encoding: "utf8",
			timeout: options.timeout ?? 60_000,
			env: { PATH: process.env.PATH ?? "", PI_FOLD_CALIBRATION_CACHE: "0" },
		});
	let r = run(process.execPath);
	if (startFailure(r) !== undefined) {
		const copy = join(folder, "node");
		copyFileSync(process.execPath, copy);
		chmodSync(copy, 0o755);
		r = run(copy);
		rmSync(copy, { force: true });
	}
	const failed = startFailure(r);
	if (failed !== undefined) throw new Error(`could not start Node as uid ${NOBODY}: ${failed}`);
	return r;
}
