// Fails when src/wasm/generated/core-wasm.ts is stale: rebuilds assembly/ with asc (deterministic)
// and re-embeds it, then requires the result to equal the committed file (git) or, outside a git
// checkout, the file as it was before the rebuild.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const rel = "src/wasm/generated/core-wasm.ts";
let committed;
try {
	committed = execFileSync("git", ["show", `HEAD:${rel}`], {
		cwd: root,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "ignore"],
	});
} catch {
	committed = readFileSync(join(root, rel), "utf8");
}
execFileSync("npm", ["run", "--silent", "build:wasm"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
if (readFileSync(join(root, rel), "utf8") !== committed) {
	console.error(`${rel} is stale: run \`npm run build:wasm\` and commit the result.`);
	process.exit(1);
}
console.log("generated Wasm embed matches a fresh build of assembly/");
