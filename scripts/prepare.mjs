// npm's `prepare`: builds build/ (scripts/build.mjs) after `npm ci` or `npm install` in the checkout.
// npm also runs it when `npx pi-fold` (or `npm exec -- pi-fold`) links this checkout into npx's cache
// (npm_command is then `exec`): there the checkout's own build/ is what runs, so it builds only when
// build/cli.js is missing, and a second build of a built checkout (15 s or more) is skipped.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = existsSync(join(root, "build", "cli.js"));
if (process.env.npm_command !== "exec" || !built) await import("./build.mjs");
