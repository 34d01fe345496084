// The bin's Node version gate: under a Node older than package.json's engines it prints one line
// saying which Node it needs and how to get it, and exits 1, never a SyntaxError or stack trace. Run
// with a real older Node from the machine (the project brings its own Node 22 in node_modules/.bin;
// the system's, e.g. /usr/bin/node, is often 20), skipped only when none exists.

import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeSatisfies, nodeTooOldMessage, versionParts } from "../../src/cli/node-version.ts";
import { cli, ROOT } from "./run.ts";

const engines = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines
	.node;
const minimum = versionParts(engines).join(".");

/** An executable `node` outside any node_modules whose version is below the package's floor. */
function findOlderNode(): { path: string; version: string } | undefined {
	const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin", "/bin"];
	for (const dir of dirs) {
		if (dir === "" || dir.includes("node_modules")) continue;
		const path = join(dir, "node");
		try {
			accessSync(path, constants.X_OK);
			if (realpathSync(path).includes("node_modules")) continue;
		} catch {
			continue;
		}
		const version = spawnSync(path, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
		if (/^v\d+\./.test(version) && !nodeSatisfies(version, minimum)) return { path, version };
	}
	return undefined;
}

const older = findOlderNode();

describe("the Node version gate (pure)", () => {
	it("compares versions numerically", () => {
		expect(nodeSatisfies("22.19.0", ">=22.19.0")).toBe(true);
		expect(nodeSatisfies("v22.23.3", "22.19.0")).toBe(true);
		expect(nodeSatisfies("v23.0.0", "22.19.0")).toBe(true);
		expect(nodeSatisfies("v22.9.0", "22.19.0")).toBe(false);
		expect(nodeSatisfies("v20.20.2", "22.19.0")).toBe(false);
		expect(nodeSatisfies("v9.11.2", "22.19.0")).toBe(false);
	});

	it("words one line: the Node it needs, the one it found, and how to get a newer one", () => {
		const line = nodeTooOldMessage("v20.20.2", ">=22.19.0");
		expect(line).toBe(
			"pi-fold: needs Node.js 22.19.0 or later, this is Node.js v20.20.2; install Node.js 22.19+ " +
				"(https://nodejs.org), or, in a pi-fold checkout after npm ci, run npx pi-fold ... (the checkout brings its own Node 22)\n",
		);
	});
});

describe("build/cli.js under an older Node", () => {
	const title = older
		? `prints one line and exits 1 under ${older.path} (${older.version}), for every command`
		: `prints one line and exits 1 (skipped: no Node older than ${minimum} outside node_modules on this machine)`;

	it.skipIf(!older)(title, () => {
		const node = older?.path as string;
		for (const args of [["--help"], ["--version"], ["hash", "package.json"], ["verify", "."], []]) {
			const r = cli(args, { node });
			expect(r.code, args.join(" ")).toBe(1);
			expect(r.stdout).toBe("");
			expect(r.stderr).toBe(nodeTooOldMessage(older?.version as string, minimum));
			expect(r.stderr).not.toMatch(/SyntaxError|\n\s+at /);
		}
	});
});
