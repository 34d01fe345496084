import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobPath, DEFAULT_WORKERS, writeBlob } from "../../src/verify/index.ts";
import { bytes, flipByte, SMALL_TREE, tempDir } from "../verify/helpers.ts";
import { CLI, cli, expectOneErrorLine, ROOT } from "./run.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("pi-fold, at the top level", () => {
	it("prints its usage for --help, -h and help, exit 0, on stdout", () => {
		for (const args of [["--help"], ["-h"], ["help"]]) {
			const r = cli(args);
			expect(r.code, args.join(" ")).toBe(0);
			expect(r.stdout).toMatch(/^usage: pi-fold <command>/);
			for (const command of ["hash", "verify", "gc", "bench", "demo", "replay", "unfold"])
				expect(r.stdout).toContain(`\n  ${command} `);
			expect(r.stderr).toBe("");
		}
	});

	it("prints its version for --version and -v", () => {
		for (const args of [["--version"], ["-v"]])
			expect(cli(args)).toEqual({ code: 0, stdout: `pi-fold ${pkg.version}\n`, stderr: "" });
	});

	it("exits 2 with the usage on stderr when no command is given", () => {
		const r = cli([]);
		expect(r.code).toBe(2);
		expect(r.stdout).toBe("");
		expect(r.stderr).toMatch(/^usage: pi-fold <command>/);
	});

	it("exits 2 with one line for an unknown command or option", () => {
		for (const [args, message] of [
			[
				["frobnicate"],
				/^pi-fold: unknown command "frobnicate"; expected one of: hash, verify, gc, bench, demo, replay, unfold\n$/,
			],
			[["--frobnicate"], /^pi-fold: unknown option --frobnicate; see 'pi-fold --help'\n$/],
		] as const) {
			const r = cli(args);
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(message);
		}
	});
});

describe("every command's help", () => {
	// Each command's flags as its usage must list them (the bench line once omitted three).
	const flags: Record<string, string[]> = {
		hash: [],
		verify: ["--workers N", "--engine auto|node|wasm", "--tree", "--full", "--expect FILE", "--json", "--quiet"],
		bench: [
			"--cli",
			"--json",
			"--out FILE",
			"--size MiB",
			"--stream MiB",
			"--messages N",
			"--repeats N",
			"--workers N",
			"--no-estimator",
			"--no-store",
			"--store-history MiB",
			"--estimator-sample N",
			"--quiet",
		],
		demo: ["--stages N", "--arms a,b", "--window N", "--seed S", "--stage-chars N", "--out DIR", "--json", "--quiet"],
		unfold: ["--out OUT", "--in-place"],
	};

	it.each(Object.keys(flags))("pi-fold %s --help / -h / help: usage with every flag on stdout, exit 0", (command) => {
		const outputs = [
			[command, "--help"],
			[command, "-h"],
			["help", command],
		].map((args) => cli(args));
		for (const r of outputs) {
			expect(r.code).toBe(0);
			expect(r.stderr).toBe("");
			expect(r.stdout).toBe(outputs[0]?.stdout);
		}
		const usage = outputs[0]?.stdout ?? "";
		expect(usage).toMatch(new RegExp(`^usage: pi-fold ${command} `));
		const synopsis = usage.slice(0, usage.indexOf("\n\n"));
		for (const flag of flags[command] ?? []) {
			expect(synopsis, `${command} synopsis`).toContain(`[${flag}]`);
			expect(usage, `${command} options`).toMatch(new RegExp(`\\n {2}(-\\w, | {4})${flag.replace(/[|.]/g, "\\$&")} `));
		}
		for (const line of usage.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
	});

	it("prints each default it applies, from the same declaration the parser uses", () => {
		expect(cli(["verify", "--help"]).stdout).toMatch(new RegExp(`--workers N +[^]*\\(default ${DEFAULT_WORKERS}\\)`));
		expect(cli(["bench", "--help"]).stdout).toMatch(/--size MiB +.*\(default 512\)/);
		expect(cli(["demo", "--help"]).stdout).toMatch(/--stages N +.*\(default 64\)/);
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

	it("is silent with --quiet on a clean store", async () => {
		const { dir } = await store();
		for (const flag of ["--quiet", "-q"])
			expect(cli(["verify", flag, dir])).toEqual({ code: 0, stdout: "", stderr: "" });
	});

	it("names corrupt and missing blobs and exits 1; --quiet keeps only the problem lines", async () => {
		const { dir, digests } = await store();
		flipByte(blobPath(dir, digests[3] as string), 5);
		flipByte(blobPath(dir, digests[10] as string), 33 * 1024);
		const absent = "ab".repeat(32);
		const expectFile = join(tempDir(), "expected.txt");
		writeFileSync(expectFile, `# referenced blobs\n${absent}\n${digests[0]}\n`);
		const full = cli(["verify", "--expect", expectFile, dir]);
		const quiet = cli(["verify", "--quiet", "--expect", expectFile, dir]);
		expect(full.code).toBe(1);
		expect(quiet.code).toBe(1);
		const lines = quiet.stdout.trim().split("\n");
		expect(lines).toHaveLength(3);
		expect(lines).toContain(
			`CORRUPT    sha256/${(digests[3] as string).slice(0, 2)}/${digests[3]}  content does not match its name (SHA-256 mismatch)`,
		);
		expect(
			lines.some(
				(l) => l.startsWith("CORRUPT") && l.includes(digests[10] as string) && l.includes("chunk(s) 33 of 40"),
			),
		).toBe(true);
		expect(lines).toContain(`MISSING    sha256/ab/${absent}  referenced but absent`);
		expect(quiet.stderr).toBe("");
		expect(full.stdout.startsWith(quiet.stdout)).toBe(true);
		expect(full.stdout.trim().split("\n").at(-1)).toBe("result: 3 problems: 2 corrupt, 1 missing");
	});

	it("hashes on worker threads, which run the verifier's own bundle", async () => {
		const { dir } = await store();
		const r = cli(["verify", "--json", "--workers", "2", dir], {
			env: { PI_FOLD_POOL_HELP: "0", PI_FOLD_MIN_PARALLEL_BYTES: "0" },
		});
		expect(r.code).toBe(0);
		const result = JSON.parse(r.stdout) as { ok: boolean; tasks: { worker: number; caller: number } };
		expect(result.ok).toBe(true);
		expect(result.tasks.caller).toBe(0);
		expect(result.tasks.worker).toBeGreaterThan(0);
	});

	it("exits quietly with its own status when the reader of its output goes away (| head -0)", async () => {
		// The parent closes its ends of the pipes before the child writes: every write gets EPIPE.
		const closedReader = (args: string[], closeStderr: boolean) =>
			new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
				const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
				child.stdout.destroy();
				let stderr = "";
				if (closeStderr) child.stderr.destroy();
				else child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
				child.on("error", reject);
				child.on("close", (code) => resolve({ code, stderr }));
			});
		const { dir, digests } = await store();
		const clean = await closedReader(["verify", dir], false);
		expect(clean.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
		expect(clean.stderr).toMatch(/verifying: 100%/);
		expect(clean.code).toBe(0);
		expect((await closedReader(["verify", dir], true)).code).toBe(0);
		const files = digests.map((d) => blobPath(dir, d));
		const hashed = await closedReader(["hash", ...files], false);
		expect(hashed).toEqual({ code: 0, stderr: "" });
		flipByte(blobPath(dir, digests[2] as string), 1);
		const damaged = await closedReader(["verify", "--json", dir], false);
		expect(damaged).toEqual({ code: 1, stderr: "" });
	});

	it("says in plain words when DIR is not a store (exit 2, one line)", () => {
		const notStore = tempDir();
		mkdirSync(join(notStore, "other"));
		const file = join(notStore, "README.md");
		writeFileSync(file, "# not a store\n");
		const blobsFile = tempDir();
		writeFileSync(join(blobsFile, "sha256"), "");
		const cases: [string[], RegExp][] = [
			[["verify", file], /README\.md is a file, not a store directory/],
			[["verify", notStore], /is not a store directory \(it has no sha256\/ folder\)/],
			[["verify", blobsFile], /is not a store directory \(its sha256 is not a folder\)/],
			[["verify", join(notStore, "absent")], /absent: no such directory/],
		];
		for (const [args, message] of cases) {
			const r = cli(args);
			expect(r.code, args.join(" ")).toBe(2);
			expectOneErrorLine(r, "verify", message);
			expect(r.stderr).not.toMatch(/ENOTDIR|lstat|ENOENT/);
		}
	});

	it("exits 2 with one line for bad arguments", () => {
		const dir = tempDir();
		const cases: [string[], RegExp][] = [
			[["verify"], /no store directory given/],
			[["verify", "--workers", "many", dir], /--workers must be an integer from 0 to 64, got "many"/],
			[["verify", "--engine", "gpu", dir], /--engine must be auto, node or wasm, got "gpu"/],
			[["verify", "--bogus", dir], /unknown option --bogus; see 'pi-fold verify --help'/],
			[["verify", "--expect", join(dir, "absent"), dir], /cannot read --expect file/],
			[["verify", dir, dir], /one store directory expected/],
		];
		mkdirSync(join(dir, "sha256"));
		for (const [args, message] of cases) {
			const r = cli(args);
			expect(r.code, args.join(" ")).toBe(2);
			expectOneErrorLine(r, "verify", message);
		}
	});
});

describe("pi-fold bench", () => {
	it("runs small hashing and estimator benchmarks and prints JSON with machine, engine choice and target ratios", () => {
		const args = ["--size", "2", "--stream", "1", "--messages", "200", "--repeats", "1", "--estimator-sample", "50"];
		const r = cli(["bench", "--json", "--store-history", "2", ...args]);
		expect(r.code).toBe(0);
		expect(r.stderr).toMatch(/^bench: /);
		const report = JSON.parse(r.stdout) as {
			hashing: {
				machine: { node: string; cpu: string; date: string };
				scenarios: { id: string; targets: unknown[] }[];
			};
			estimator: { targets: { mape: { met: boolean } } } | null;
			store: { bytes: { window: number }[]; peek: { ratio: number } } | null;
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
		expect(report.store?.bytes.map((b) => b.window)).toEqual([64_000, 200_000]);
		expect(report.store?.peek.ratio).toBeGreaterThan(0);
		const table = cli(["bench", "--no-estimator", "--no-store", "--quiet", ...args]);
		expect(table.code).toBe(0);
		expect(table.stderr).toBe("");
		expect(table.stdout).toMatch(/^Node v22\.\d+\.\d+ \(OpenSSL [^)]+\), .+ x\d+, .+, \d{4}-\d\d-\d\dT/);
		expect(table.stdout).toMatch(/\| verify one 2 MiB blob +\| pi-fold verifyBlob/);
	});

	it("--cli: the process-level benchmark, with its own usage and flags", () => {
		const help = cli(["bench", "--cli", "--help"]);
		expect(help.code).toBe(0);
		expect(help.stderr).toBe("");
		expect(help.stdout).toMatch(/^usage: pi-fold bench --cli /);
		for (const flag of [
			"--size MiB",
			"--file-size MiB",
			"--repeats N",
			"--cli-bin FILE",
			"--no-masked",
			"--json",
			"--out FILE",
		])
			expect(help.stdout).toContain(`[${flag}]`);
		expect(cli(["bench", "--help"]).stdout).toContain("--cli");
		const bad = cli(["bench", "--cli", "--file-size", "0"]);
		expect(bad.code).toBe(2);
		expectOneErrorLine(
			bad,
			"bench",
			/--file-size must be an integer from 1 to 65536, got "0"; see 'pi-fold bench --cli --help'/,
		);
		const unknown = cli(["bench", "--cli", "--stream", "1"]);
		expect(unknown.code).toBe(2);
		expectOneErrorLine(unknown, "bench", /unknown option --stream; see 'pi-fold bench --cli --help'/);
	});

	it("exits 2 with one line on a bad flag", () => {
		for (const [args, message] of [
			[["bench", "--size", "0"], /--size must be an integer from 1 to 8192, got "0"/],
			[["bench", "--size"], /--size needs a value \(--size MiB\)/],
			[["bench", "extra"], /unexpected argument "extra"/],
		] as const) {
			const r = cli(args);
			expect(r.code).toBe(2);
			expectOneErrorLine(r, "bench", message);
		}
	});
});

describe("pi-fold demo", () => {
	it("exits 2 with one line on a bad flag, before loading the benchmark", () => {
		for (const [args, message] of [
			[["demo", "--stages", "many"], /--stages must be a whole number, got "many"/],
			[["demo", "--frobnicate"], /unknown option --frobnicate; see 'pi-fold demo --help'/],
			[["demo", "--stages", "1", "--out", tempDir()], /invalid options: --stages: /],
		] as const) {
			const r = cli(args);
			expect(r.code, args.join(" ")).toBe(2);
			expectOneErrorLine(r, "demo", message);
		}
	});
});

describe("a bad path, in one plain line", () => {
	it("names a missing folder, a file given for a folder, and a file that is not a session", () => {
		const dir = tempDir();
		const plan = join(dir, "plan.json");
		writeFileSync(plan, '{\n  "plan": 1\n}\n');
		const cases: [string[], string, string][] = [
			[["gc", join(dir, "nowhere")], "gc", `${join(dir, "nowhere")}: no such folder`],
			[["gc", plan], "gc", `${plan} is a file, not a sessions folder (gc takes the folder that holds pi-fold-store/)`],
			[
				["unfold", plan],
				"unfold",
				`${plan}: line 1: not a Pi session file: a session file is JSON lines, and this first line is not JSON; nothing was written`,
			],
			[["unfold", join(dir, "gone.jsonl")], "unfold", `${join(dir, "gone.jsonl")}: no such file`],
			[
				["replay", join(dir, "gone.jsonl"), "--window", "30000", "--no-chart"],
				"replay",
				`${join(dir, "gone.jsonl")}: no such file`,
			],
			[
				["replay", plan, "--window", "30000", "--no-chart"],
				"replay",
				`${plan}: line 1: not a Pi session file: a session file is JSON lines, and this first line is not JSON`,
			],
		];
		for (const [args, command, message] of cases) {
			const r = cli(args);
			expect(r.code, args.join(" ")).not.toBe(0);
			expectOneErrorLine(r, command, /./);
			expect(r.stderr).toBe(`pi-fold: ${command}: ${message}\n`);
			// No parser's words, no system call names.
			expect(r.stderr).not.toMatch(/position \d|ENOTDIR|ENOENT|lstat/);
		}
	});
});
