// The install-script policy check (`npm run check`), read-only: every package in package-lock.json
// with an install script (`hasInstallScript`) must be reviewed in package.json's `allowScripts`,
// approved (true) or denied (false). npm runs an unreviewed dependency's script with a notice, so a
// new dependency that brings one fails here (and CI's `npm ci --strict-allow-scripts`, `.ci/run`)
// until someone reviews it. `strict-allow-scripts` is not in .npmrc: under it `npx pi-fold` in the
// checkout failed, since npx checks the checkout's own `prepare` against the policy of its cache.
// Exit 0 when every script is reviewed, 1 with one line per unreviewed package.
// Usage: node scripts/check-install-scripts.mjs [root] (default: the repository this script is in).

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const policy = pkg.allowScripts ?? {};

/** The package name of a lockfile key (`node_modules/a/node_modules/@s/b` is `@s/b`). */
function nameOf(key, entry) {
	if (entry.name) return entry.name;
	const at = key.lastIndexOf("node_modules/");
	return key.slice(at + "node_modules/".length);
}

/** Whether `allowScripts` has an entry for the package: its name, or name@version. */
function reviewed(name, version) {
	return Object.keys(policy).some((spec) => spec === name || spec === `${name}@${version}`);
}

const missing = [];
for (const [key, entry] of Object.entries(lock.packages ?? {})) {
	if (key === "" || !entry.hasInstallScript) continue;
	const name = nameOf(key, entry);
	if (!reviewed(name, entry.version)) missing.push(`${name}@${entry.version}`);
}
for (const id of missing) {
	console.error(
		`package-lock.json: ${id} has an install script that package.json's allowScripts does not review; ` +
			`read it, then add "${id.slice(0, id.lastIndexOf("@"))}": true (run it) or false (skip it)`,
	);
}
process.exit(missing.length === 0 ? 0 : 1);
