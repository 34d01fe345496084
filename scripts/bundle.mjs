// Bundles the package's entry points into build/ as prebuilt ESM files with the Wasm core embedded,
// and writes esbuild's metafile of all of them to build/meta.json (tests check what each bundle is
// made of). Pi host packages stay external (peers the host provides); everything else is inlined,
// zod included: zod is a dependency because the published declarations name its types (the option
// types are zod-derived), but inlined it loads ~13 ms faster per process and per verify worker than
// resolving its modules from node_modules (measured on verify.js).
//
//   build/extension.js    src/index.ts               the Pi extension (package "pi.extensions")
//   build/verify.js       src/verify/index.ts        pi-fold/verify
//   build/cli.js          src/cli/main.ts            the bin: a few KB, Node 14 syntax, version gate
//   build/cli-hash.js     src/cli/commands/hash.ts   one bundle per command, loaded by the bin by path
//   build/cli-verify.js   src/cli/commands/verify.ts
//   build/cli-gc.js       src/cli/commands/gc.ts     `pi-fold gc` (src/store/gc.ts; zod for its options)
//   build/cli-replay.js   src/cli/commands/replay.ts `pi-fold replay` (src/replay on the simulator; no Pi)
//   build/cli-unfold.js   src/cli/commands/unfold.ts `pi-fold unfold` (src/replay's unfold plan; no Pi, no store)
//   build/pi-models.js    src/pi/model-catalog.ts    pi-ai's model catalog, loaded by path by cli-replay.js when
//                                                    pi-ai is installed (replay's default window and reserve)
//   build/cli-bench.js    bench/bench-main.ts              hash-wasm is a peer of the benchmark only
//   build/cli-demo.js     bench/demo.ts              + build/cli-demo-*.js chunks (the session benchmark,
//                                                    split off so `demo --help` loads no Pi)
//   build/search-worker.js src/store/search/search-worker.ts the search worker thread the other bundles spawn (no Pi, no Wasm)
//   build/verify-worker.js src/verify/verify-worker.ts       the verifier's worker threads (spawned by verify.js and
//                                                    cli-verify.js): node:crypto, node:fs, node:worker_threads only

import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const external = ["@earendil-works/*", "typebox", "node:*"];
const requireShim =
	"import { createRequire as __piFoldCreateRequire } from 'node:module'; const require = __piFoldCreateRequire(import.meta.url);";

export const BUNDLES = [
	{ in: "src/index.ts", out: "build/extension.js" },
	{ in: "src/verify/index.ts", out: "build/verify.js" },
	{ in: "src/cli/main.ts", out: "build/cli.js", bin: true },
	{ in: "src/cli/commands/hash.ts", out: "build/cli-hash.js" },
	{ in: "src/cli/commands/verify.ts", out: "build/cli-verify.js" },
	{ in: "src/cli/commands/gc.ts", out: "build/cli-gc.js" },
	{ in: "src/cli/commands/replay.ts", out: "build/cli-replay.js" },
	{ in: "src/cli/commands/unfold.ts", out: "build/cli-unfold.js" },
	{ in: "src/pi/model-catalog.ts", out: "build/pi-models.js" },
	{ in: "bench/bench-main.ts", out: "build/cli-bench.js" },
	{ in: "bench/demo.ts", out: "build/cli-demo.js", split: true },
	{ in: "src/store/search/search-worker.ts", out: "build/search-worker.js" },
	// The verification worker threads' own small bundle (no CLI, no zod, no require shim), found beside
	// build/verify.js and build/cli-verify.js by src/verify/hash-pool.ts workerEntry.
	{ in: "src/verify/verify-worker.ts", out: "build/verify-worker.js", worker: true },
];

/** package.json's version and the floor of engines.node (">=22.19.0" -> "22.19.0"). */
function packageFacts(root) {
	const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
	const floor = /(\d+\.\d+\.\d+)/.exec(pkg.engines?.node ?? "")?.[1];
	if (!floor) throw new Error("package.json engines.node must name a minimum version, e.g. >=22.19.0");
	return { version: pkg.version, nodeMin: floor };
}

function options(root, entry, facts) {
	const common = {
		absWorkingDir: root,
		bundle: true,
		platform: "node",
		format: "esm",
		sourcemap: false,
		legalComments: "none",
		logLevel: "warning",
		metafile: true,
		external,
		entryPoints: [join(root, entry.in)],
	};
	if (entry.bin) {
		// The bin must parse under old Node versions to print its one-line version message.
		return {
			...common,
			target: "node14",
			outfile: join(root, entry.out),
			banner: { js: "#!/usr/bin/env node" },
			define: { PI_FOLD_VERSION: JSON.stringify(facts.version), PI_FOLD_NODE_MIN: JSON.stringify(facts.nodeMin) },
		};
	}
	if (entry.worker) return { ...common, target: "node22", outfile: join(root, entry.out) };
	const node22 = { ...common, target: "node22", banner: { js: requireShim } };
	if (!entry.split) return { ...node22, outfile: join(root, entry.out) };
	const name = entry.out.slice("build/".length, -".js".length);
	return { ...node22, splitting: true, outdir: join(root, "build"), entryNames: name, chunkNames: `${name}-[hash]` };
}

/** Builds every bundle into root/build and writes build/meta.json; returns the output file names. */
export async function bundleAll(root) {
	const buildDir = join(root, "build");
	for (const name of readdirSync(buildDir)) if (/^cli-.*\.js$/.test(name)) rmSync(join(buildDir, name)); // stale chunks of earlier builds
	const facts = packageFacts(root);
	const meta = { inputs: {}, outputs: {} };
	for (const entry of BUNDLES) {
		const result = await build(options(root, entry, facts));
		Object.assign(meta.inputs, result.metafile.inputs);
		Object.assign(meta.outputs, result.metafile.outputs);
		if (entry.bin) chmodSync(join(root, entry.out), 0o755);
	}
	writeFileSync(join(buildDir, "meta.json"), `${JSON.stringify(meta, null, 1)}\n`);
	return Object.keys(meta.outputs);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const outputs = await bundleAll(join(dirname(fileURLToPath(import.meta.url)), ".."));
	console.log(`bundled ${outputs.join(", ")}; metafile build/meta.json`);
}
