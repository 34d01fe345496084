// Builds a stand-in for per-command CLI bundles: build/bench-commands/cli.js holds only `verify` and
// `hash` (their command modules and pi-fold/verify), with build/verify-worker.js copied beside it,
// so `pi-fold bench --cli --cli-bin build/bench-commands/cli.js` measures what those two commands
// cost on their own while build/cli.js is still one bundle of every command (it loads the demo,
// the benchmarks and more before parsing its arguments). Run after `npm run build`:
//   node bench/hashing/command-bundle.mjs

import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "build", "bench-commands");
mkdirSync(out, { recursive: true });
const entry = `const [name, ...rest] = process.argv.slice(2);
const mod = name === "hash" ? await import("./src/cli/commands/hash.ts") : await import("./src/cli/commands/verify.ts");
mod.command.run(rest).then(
	(code) => { process.exitCode = code; },
	(error) => { process.stderr.write(\`pi-fold: \${error.message}\\n\`); process.exitCode = error.exitCode ?? 1; },
);
`;
await build({
	stdin: { contents: entry, resolveDir: root, sourcefile: "commands.ts", loader: "ts" },
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node22",
	outfile: join(out, "cli.js"),
	logLevel: "warning",
	external: ["node:*"],
	banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
copyFileSync(join(root, "build", "verify-worker.js"), join(out, "verify-worker.js"));
console.log(`built ${join("build", "bench-commands", "cli.js")} (verify and hash only)`);
