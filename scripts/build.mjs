// `npm run build` (and `prepare`, so `npm ci` builds): compiles the Wasm core into build/, writes the
// embed src/wasm/core-wasm.generated.ts when it changed, bundles every entry point (scripts/bundle.mjs)
// and emits the declaration files (scripts/declarations.mjs). One summary line on success; compiler
// errors and warnings pass through.
//
// Skipped, with one line saying so, when build/ is up to date: its stamp build/.inputs.sha256
// (scripts/build-stamp.mjs) has the digest of every input as they are now, and every output it lists
// is there unchanged. So `npm ci` builds once and `npm test` or `npm run demo` after it does not build
// again. `npm run build -- --force` builds regardless.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildState, inputHashes, STAMP_FILE, writeStamp } from "./build-stamp.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const buildDir = join(root, "build");

const state = process.argv.includes("--force") ? { fresh: false } : buildState(root);
if (state.fresh) {
	const since = state.since.toISOString().replace("T", " ").slice(0, 19);
	console.log(`build/ is up to date (inputs unchanged since ${since} UTC); skipped (--force builds anyway)`);
	process.exit(0);
}
rmSync(join(root, STAMP_FILE), { force: true });
const inputs = inputHashes(root);
// Loaded only when building: the compilers take a moment to load, and a skipped build needs none.
const { compileCore, wasmFile } = await import("./build-wasm.mjs");
const { bundleAll } = await import("./bundle.mjs");
const { emitDeclarations } = await import("./declarations.mjs");
const { EMBED_FILE, renderEmbed } = await import("./embed-wasm.mjs");

await compileCore(root, buildDir);
const simd = readFileSync(wasmFile(buildDir, "simd"));
const scalar = readFileSync(wasmFile(buildDir, "scalar"));
const embed = renderEmbed(simd, scalar);
let before = "";
try {
	before = readFileSync(join(root, EMBED_FILE), "utf8");
} catch {}
if (embed !== before) writeFileSync(join(root, EMBED_FILE), embed);

const bundles = await bundleAll(root);
const declarations = emitDeclarations(root);
// The stamp holds the inputs as the build read them; the embed the build just wrote is an output of
// assembly/ and is taken as it is now. An input edited while the build ran leaves no stamp (the next
// build runs again).
const after = inputHashes(root);
const stable = Object.keys({ ...inputs, ...after }).every(
	(file) => file === EMBED_FILE || inputs[file] === after[file],
);
if (stable) writeStamp(root, after);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
	`built build/ in ${seconds} s: Wasm core (simd ${simd.length} B, scalar ${scalar.length} B)` +
		`${embed !== before ? `, ${EMBED_FILE} rewritten` : ""}, ${bundles.length} bundles, ${declarations} declaration files` +
		`${stable ? "" : `; an input changed during the build, so no ${STAMP_FILE} (the next build runs)`}`,
);
