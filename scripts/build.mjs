// `npm run build` (and `prepare`, so `npm ci` builds): compiles the Wasm core into build/, writes the
// embed src/wasm/core-wasm.generated.ts when it changed, bundles every entry point (scripts/bundle.mjs)
// and emits the declaration files (scripts/declarations.mjs). One summary line on success; compiler
// errors and warnings pass through.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileCore, wasmFile } from "./build-wasm.mjs";
import { bundleAll } from "./bundle.mjs";
import { emitDeclarations } from "./declarations.mjs";
import { EMBED_FILE, renderEmbed } from "./embed-wasm.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const buildDir = join(root, "build");

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
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
	`built build/ in ${seconds} s: Wasm core (simd ${simd.length} B, scalar ${scalar.length} B)` +
		`${embed !== before ? `, ${EMBED_FILE} rewritten` : ""}, ${bundles.length} bundles, ${declarations} declaration files`,
);
