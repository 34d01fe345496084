// What each bundle is made of, read from esbuild's metafile (build/meta.json, written by the build):
// the bin loads nothing but itself and `hash` nothing but itself and the hashing API, the verifier
// carries no Pi, benchmark or hash-wasm code, hash-wasm lives only in the benchmark bundle, and the
// verifier's worker threads run their own small bundle (build/verify-worker.js), whether spawned
// from pi-fold/verify or from `pi-fold verify`. Assertions on inputs and on which file a worker
// runs, never on timings (bench/cli-start.ts measures the cold start).

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { writeBlob } from "../../src/verify/index.ts";
import { bytes, SMALL_TREE, tempDir } from "../verify/helpers.ts";
import { cli, ROOT } from "./run.ts";

interface MetaOutput {
	bytes: number;
	inputs: Record<string, { bytesInOutput: number }>;
	imports: { path: string; kind: string; external?: boolean }[];
}

const metaPath = join(ROOT, "build", "meta.json");

function meta(): Record<string, MetaOutput> {
	expect(existsSync(metaPath), "build/meta.json is missing: run npm run build").toBe(true);
	return (JSON.parse(readFileSync(metaPath, "utf8")) as { outputs: Record<string, MetaOutput> }).outputs;
}

function output(name: string): MetaOutput {
	const out = meta()[name];
	expect(out, `${name} in build/meta.json`).toBeDefined();
	return out as MetaOutput;
}

/** Every input of `name` and of the chunks it imports statically, and every external it imports statically. */
function staticClosure(name: string): { inputs: string[]; externals: string[] } {
	const seen = new Set<string>();
	const inputs: string[] = [];
	const externals: string[] = [];
	const visit = (file: string) => {
		if (seen.has(file)) return;
		seen.add(file);
		const out = output(file);
		inputs.push(...Object.keys(out.inputs));
		for (const imp of out.imports) {
			if (imp.kind !== "import-statement") continue;
			if (imp.path.startsWith("build/")) visit(imp.path);
			else externals.push(imp.path);
		}
	};
	visit(name);
	return { inputs, externals };
}

const PI = /@earendil-works|typebox|^src\/pi\//;
const BENCH = /^bench\//;
const HASH_WASM = /node_modules\/hash-wasm\//;

describe("the bin (build/cli.js)", () => {
	it("answers --help and --version from its own few KB: no command, benchmark, hash-wasm, Pi or zod code", () => {
		expect(cli(["--help"]).code).toBe(0);
		expect(cli(["--version"]).code).toBe(0);
		const bin = output("build/cli.js");
		expect(Object.keys(bin.inputs).sort()).toEqual(["src/cli/main.ts", "src/cli/node-version.ts"]);
		expect(bin.imports).toEqual([]);
		expect(bin.bytes).toBeLessThan(16 * 1024);
	});
});

describe("the command bundles", () => {
	it("hash loads only its command, the flag parser and the hashing API: no verifier, Wasm core, zod, benchmark or Pi", () => {
		const { inputs, externals } = staticClosure("build/cli-hash.js");
		expect(inputs.sort()).toEqual(["src/args/index.ts", "src/cli/commands/hash.ts", "src/wasm/hash-api.ts"]);
		expect(externals.every((e) => e.startsWith("node:"))).toBe(true);
	});

	it("verify carries the verifier but no Pi, benchmark or hash-wasm code", () => {
		const { inputs, externals } = staticClosure("build/cli-verify.js");
		expect(inputs).toContain("src/verify/store.ts");
		expect(inputs.filter((i) => PI.test(i) || BENCH.test(i) || HASH_WASM.test(i))).toEqual([]);
		expect(externals.filter((e) => PI.test(e))).toEqual([]);
	});

	it("demo answers --help without Pi: the session benchmark is a dynamically imported chunk", () => {
		const { inputs, externals } = staticClosure("build/cli-demo.js");
		expect(inputs).toContain("bench/demo.ts");
		expect(inputs.filter((i) => /^bench\/session\/(?!demo-options|ledger)/.test(i) || PI.test(i))).toEqual([]);
		expect(externals.filter((e) => PI.test(e))).toEqual([]);
		expect(output("build/cli-demo.js").imports.some((i) => i.kind === "dynamic-import")).toBe(true);
	});

	it("replay carries the replay and the simulator but no Pi, benchmark or hash-wasm code", () => {
		const { inputs, externals } = staticClosure("build/cli-replay.js");
		expect(inputs).toContain("src/replay/replay-session.ts");
		expect(inputs.filter((i) => PI.test(i) || BENCH.test(i) || HASH_WASM.test(i))).toEqual([]);
		expect(externals.filter((e) => PI.test(e))).toEqual([]);
	});

	it("unfold carries the unfold plan but no Pi, simulator, benchmark or hash-wasm code", () => {
		const { inputs, externals } = staticClosure("build/cli-unfold.js");
		expect(inputs).toContain("src/replay/unfold-plan.ts");
		expect(
			inputs.filter((i) => PI.test(i) || BENCH.test(i) || HASH_WASM.test(i) || i.startsWith("src/simulate/")),
		).toEqual([]);
		expect(externals.filter((e) => PI.test(e))).toEqual([]);
	});

	it("keeps hash-wasm (a dev dependency, a benchmark peer) in the bench bundle only", () => {
		const withHashWasm = Object.entries(meta())
			.filter(([, out]) => Object.keys(out.inputs).some((i) => HASH_WASM.test(i)))
			.map(([name]) => name);
		expect(withHashWasm).toEqual(["build/cli-bench.js"]);
	});
});

describe("pi-fold/verify (build/verify.js)", () => {
	it("contains no Pi, demo, benchmark or hash-wasm code", () => {
		const { inputs, externals } = staticClosure("build/verify.js");
		expect(inputs.filter((i) => i.startsWith("src/")).every((i) => /^src\/(verify|wasm)\//.test(i))).toBe(true);
		expect(inputs.filter((i) => PI.test(i) || BENCH.test(i) || HASH_WASM.test(i))).toEqual([]);
		expect(externals.every((e) => e.startsWith("node:"))).toBe(true);
		expect(output("build/verify.js").imports.filter((i) => i.kind === "dynamic-import")).toEqual([]);
	});
});

describe("the verifier's worker threads (build/verify-worker.js)", () => {
	it("load only the worker side of the verifier: node:crypto, node:fs and node:worker_threads, no zod, no require shim", () => {
		const { inputs, externals } = staticClosure("build/verify-worker.js");
		expect(inputs).toContain("src/verify/verify-worker.ts");
		expect(inputs.filter((i) => i.startsWith("src/")).every((i) => /^src\/(verify|wasm)\//.test(i))).toBe(true);
		expect(inputs.filter((i) => /node_modules|^bench\/|src\/verify\/(store|pool|options|index)\.ts/.test(i))).toEqual(
			[],
		);
		expect([...new Set(externals)].sort()).toEqual(["node:crypto", "node:fs", "node:worker_threads"]);
		expect(output("build/verify-worker.js").imports.filter((i) => i.kind !== "import-statement")).toEqual([]);
	});

	it("are what both pi-fold/verify (build/verify.js) and `pi-fold verify` (build/cli-verify.js) spawn", async () => {
		const dir = tempDir();
		for (let i = 0; i < 12; i++) await writeBlob(dir, bytes(2000 + i * 300, i + 1), SMALL_TREE);
		// Records the file of every Worker the bundle starts (the builtin's ESM export is re-synced).
		const script = (run: string) => `
			import { createRequire, syncBuiltinESMExports } from "node:module";
			const wt = createRequire(import.meta.url)("node:worker_threads");
			const seen = [];
			const Original = wt.Worker;
			wt.Worker = class extends Original { constructor(url, options) { seen.push(String(url)); super(url, options); } };
			syncBuiltinESMExports();
			${run}
			process.stderr.write("WORKERS " + JSON.stringify(seen) + "\\n");`;
		const runs = {
			"build/verify.js": `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, "build", "verify.js")).href)});
				const r = await m.verifyStore(${JSON.stringify(dir)}, { workers: 2, minParallelBytes: 0 });
				if (!r.ok) process.exitCode = 1;`,
			"build/cli-verify.js": `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, "build", "cli-verify.js")).href)});
				process.exitCode = await m.main(["--quiet", "--workers", "2", ${JSON.stringify(dir)}]);`,
		};
		for (const [bundle, run] of Object.entries(runs)) {
			expect(existsSync(join(ROOT, bundle)), `${bundle} is missing: run npm run build`).toBe(true);
			const child = spawnSync(process.execPath, ["--input-type=module", "-e", script(run)], {
				encoding: "utf8",
				env: { ...process.env, PI_FOLD_POOL_HELP: "0", PI_FOLD_MIN_PARALLEL_BYTES: "0" },
			});
			expect(child.status, `${bundle}: ${child.stderr}`).toBe(0);
			const line = /^WORKERS (.*)$/m.exec(child.stderr)?.[1];
			const workers = JSON.parse(line ?? "[]") as string[];
			expect(workers.length, bundle).toBe(2);
			for (const url of workers) expect(url, bundle).toBe(pathToFileURL(join(ROOT, "build", "verify-worker.js")).href);
		}
	});
});
