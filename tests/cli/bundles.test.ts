// What each bundle is made of, read from esbuild's metafile (build/meta.json, written by the build):
// the bin and `hash` load nothing but themselves, the verifier carries no Pi, benchmark or hash-wasm
// code, and hash-wasm lives only in the benchmark bundle. Assertions on inputs, never on timings
// (bench/cli-start.ts measures the cold start).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
	it("hash loads only its command and the flag parser: no verifier, Wasm core, zod, benchmark or Pi", () => {
		const { inputs, externals } = staticClosure("build/cli-hash.js");
		expect(inputs.sort()).toEqual(["src/args/index.ts", "src/cli/commands/hash.ts"]);
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
		expect(inputs.filter((i) => /^bench\/session\/(?!options|ledger)/.test(i) || PI.test(i))).toEqual([]);
		expect(externals.filter((e) => PI.test(e))).toEqual([]);
		expect(output("build/cli-demo.js").imports.some((i) => i.kind === "dynamic-import")).toBe(true);
	});

	it("replay carries the replay and the simulator but no Pi, benchmark or hash-wasm code", () => {
		const { inputs, externals } = staticClosure("build/cli-replay.js");
		expect(inputs).toContain("src/replay/replay.ts");
		expect(inputs.filter((i) => PI.test(i) || BENCH.test(i) || HASH_WASM.test(i))).toEqual([]);
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
