// Bundles the three public entry points into build/ as single prebuilt ESM files with the Wasm core
// embedded: the Pi extension (package "pi.extensions"), the `pi-fold` CLI, and `pi-fold/verify`;
// plus build/search-worker.js, the search worker thread the other bundles spawn (no Pi, no Wasm).
// Pi host packages stay external (they are peers the host provides); everything else is inlined.

import { chmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const external = ["@earendil-works/*", "typebox", "node:*"];
const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node22",
	sourcemap: false,
	legalComments: "none",
	logLevel: "warning",
	external,
	banner: {
		js: "import { createRequire as __piFoldCreateRequire } from 'node:module'; const require = __piFoldCreateRequire(import.meta.url);",
	},
};

const entries = [
	{ in: "src/index.ts", out: "build/extension.js" },
	{ in: "src/verify/index.ts", out: "build/verify.js" },
	{ in: "src/cli/main.ts", out: "build/cli.js", cli: true },
	{ in: "src/store/search/worker.ts", out: "build/search-worker.js" },
];

for (const entry of entries) {
	await build({
		...common,
		entryPoints: [join(root, entry.in)],
		outfile: join(root, entry.out),
		banner: entry.cli ? { js: `#!/usr/bin/env node\n${common.banner.js}` } : common.banner,
	});
	if (entry.cli) chmodSync(join(root, entry.out), 0o755);
}
console.log(`bundled ${entries.map((e) => e.out).join(", ")}`);
