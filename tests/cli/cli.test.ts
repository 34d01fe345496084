import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobPath, writeBlob } from "../../src/verify/index.ts";
import { bytes, flipByte, SMALL_TREE, tempDir } from "../verify/helpers.ts";

const CLI = join(process.cwd(), "build", "cli.js");

/** Runs the bundled CLI with this test's Node (22) and returns its exit code and output. */
function cli(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
	expect(existsSync(CLI), "build/cli.js is missing: run npm run build").toBe(true);
	const r = spawnSync(process.execPath, [CLI, ...args], {
		encoding: "utf8",
		env: { ...process.env, ...env },
		timeout: 120_000,
	});
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function noStackTrace(stderr: string): void {
	expect(stderr).not.toMatch(/\n\s+at /);
	expect(stderr.trim().split("\n").length).toBeLessThanOrEqual(4);
}

const hasSha256sum = spawnSync("sha256sum", ["--version"]).status === 0;

describe("pi-fold hash", () => {
	it.skipIf(!hasSha256sum)("prints exactly what sha256sum prints, escaped names included", () => {
		const dir = tempDir();
		const names = ["plain.txt", "with space.bin", "back\\slash", "new\nline", "empty"];
		names.forEach((name, i) => {
			writeFileSync(join(dir, name), i === 4 ? "" : bytes(i * 1000 + 3, i + 1));
		});
		const files = names.map((n) => join(dir, n));
		const ours = cli(["hash", ...files]);
		const theirs = spawnSync("sha256sum", files, { encoding: "utf8" });
		expect(ours.code).toBe(0);
		expect(ours.stdout).toBe(theirs.stdout);
		expect(ours.stderr).toBe("");
	});

	it.skipIf(!hasSha256sum)("reads standard input for -, like sha256sum", () => {
		const input = "from stdin\n";
		const ours = spawnSync(process.execPath, [CLI, "hash", "-"], { input, encoding: "utf8" });
		const theirs = spawnSync("sha256sum", ["-"], { input, encoding: "utf8" });
		expect(ours.status).toBe(0);
		expect(ours.stdout).toBe(theirs.stdout);
	});

	it("reports a missing file and a directory on one line each, hashes the rest, and exits 1", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "ok"), "ok");
		const r = cli(["hash", join(dir, "absent"), join(dir, "ok"), dir]);
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/^[0-9a-f]{64} {2}.*\/ok\n$/);
		expect(r.stderr).toBe(
			`pi-fold: ${join(dir, "absent")}: No such file or directory\npi-fold: ${dir}: Is a directory\n`,
		);
	});

	it("exits 2 with one line when given no file or an unknown option", () => {
		for (const args of [["hash"], ["hash", "--fast", "x"]]) {
			const r = cli(args);
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(/^pi-fold: hash: .+\n$/);
		}
	});
});

describe("pi-fold verify", () => {
	async function store(): Promise<{ dir: string; digests: string[] }> {
		const dir = tempDir();
		const digests: string[] = [];
		for (let i = 0; i < 10; i++) digests.push((await writeBlob(dir, bytes(i * 100, i + 1), SMALL_TREE)).digest);
		digests.push((await writeBlob(dir, bytes(40 * 1024, 77), SMALL_TREE)).digest);
		return { dir, digests };
	}

	it("passes a clean store with exit 0, plain progress lines off a terminal and a summary", async () => {
		const { dir } = await store();
		const r = cli(["verify", dir]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/^verified 11 blobs, 0\.0 MiB in [\d.]+ s on 1 thread\nresult: OK\n$/);
		expect(r.stderr).toMatch(
			/^verifying: 0% .*\n(verifying: \d+% .*\n)*verifying: 100% \(0\.0\/0\.0 MiB, 11\/11 blobs\)\n$/,
		);
	});

	it("names corrupt and missing blobs and exits 1", async () => {
		const { dir, digests } = await store();
		flipByte(blobPath(dir, digests[3] as string), 5);
		flipByte(blobPath(dir, digests[10] as string), 33 * 1024);
		const absent = "ab".repeat(32);
		const expectFile = join(tempDir(), "expected.txt");
		writeFileSync(expectFile, `# referenced blobs\n${absent}\n${digests[0]}\n`);
		const r = cli(["verify", "--quiet", "--expect", expectFile, dir]);
		expect(r.code).toBe(1);
		const lines = r.stdout.trim().split("\n");
		expect(lines).toContain(
			`CORRUPT    sha256/${(digests[3] as string).slice(0, 2)}/${digests[3]}  content does not match its name (SHA-256 mismatch)`,
		);
		expect(
			lines.some(
				(l) => l.startsWith("CORRUPT") && l.includes(digests[10] as string) && l.includes("chunk(s) 33 of 40"),
			),
		).toBe(true);
		expect(lines).toContain(`MISSING    sha256/ab/${absent}  referenced but absent`);
		expect(lines.at(-1)).toBe("result: 3 problems: 2 corrupt, 1 missing");
		expect(r.stderr).toBe("");
	});

	it("hashes on worker threads spawned from the bundled CLI itself", async () => {
		const { dir } = await store();
		const r = cli(["verify", "--json", "--workers", "2", dir], {
			PI_FOLD_POOL_HELP: "0",
			PI_FOLD_MIN_PARALLEL_BYTES: "0",
		});
		expect(r.code).toBe(0);
		const result = JSON.parse(r.stdout) as { ok: boolean; tasks: { worker: number; caller: number } };
		expect(result.ok).toBe(true);
		expect(result.tasks.caller).toBe(0);
		expect(result.tasks.worker).toBeGreaterThan(0);
	});

	it("exits 2 with one clear line for bad arguments", () => {
		const notStore = tempDir();
		mkdirSync(join(notStore, "other"));
		const cases: [string[], RegExp][] = [
			[["verify"], /no store directory given/],
			[["verify", notStore], /not a pi-fold store \(no sha256\/ folder\)/],
			[["verify", join(notStore, "absent")], /no such directory/],
			[["verify", "--workers", "many", notStore], /--workers must be an integer/],
			[["verify", "--engine", "gpu", notStore], /--engine must be auto, node or wasm/],
			[["verify", "--bogus", notStore], /unknown option --bogus/],
		];
		for (const [args, message] of cases) {
			const r = cli(args);
			expect(r.code, args.join(" ")).toBe(2);
			expect(r.stderr).toMatch(message);
			expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
			noStackTrace(r.stderr);
		}
	});
});

describe("pi-fold bench", () => {
	it("runs small hashing and estimator benchmarks and prints JSON with machine, engine choice and target ratios", () => {
		const args = ["--size", "2", "--stream", "1", "--messages", "200", "--repeats", "1", "--estimator-sample", "50"];
		const r = cli(["bench", "--json", ...args]);
		expect(r.code).toBe(0);
		const report = JSON.parse(r.stdout) as {
			hashing: {
				machine: { node: string; cpu: string; date: string };
				scenarios: { id: string; targets: unknown[] }[];
			};
			estimator: { targets: { mape: { met: boolean } } } | null;
		};
		expect(report.hashing.machine.node).toBe(process.version);
		expect(report.hashing.scenarios.map((s) => s.id)).toEqual([
			"store",
			"blob",
			"peek",
			"messages-2048",
			"messages-64",
			"stream",
		]);
		expect(report.hashing.scenarios[0]?.targets).toHaveLength(3);
		expect(report.estimator?.targets.mape).toBeDefined();
		const table = cli(["bench", "--no-estimator", ...args]);
		expect(table.code).toBe(0);
		expect(table.stdout).toMatch(/^Node v22\.\d+\.\d+ \(OpenSSL [^)]+\), .+ x\d+, .+, \d{4}-\d\d-\d\dT/);
		expect(table.stdout).toMatch(/\| verify one 2 MiB blob +\| pi-fold verifyBlob/);
	});

	it("exits 2 on a bad flag", () => {
		const r = cli(["bench", "--size", "0"]);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/^pi-fold: bench: --size must be an integer from 1 to 8192/);
	});
});
