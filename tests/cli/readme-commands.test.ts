// README's "Set up, test, run" commands, run exactly as written in a fresh clone: the working tree
// (HEAD plus its uncommitted and untracked files) cloned once into a private (0700) temp folder,
// `npm ci` there with the machine's own Node first on PATH (this test's node_modules/.bin removed,
// as in a newcomer's shell), then each line of that section's second block (the project's tools) through
// bash, with an empty npm cache so `npx` installs this checkout as on a first run. The commands are
// read from README's fenced blocks, so the test runs what README says; what `npm ci` prints is
// compared with README's description of it (seven lines, no warnings).

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./run.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The commands of the first ```bash block after `marker` in README, comments dropped. */
function readmeCommands(readme: string, marker: string): string[] {
	const at = readme.indexOf(marker);
	if (at < 0) throw new Error(`README has no "${marker}"`);
	const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(at));
	if (!block?.[1]) throw new Error(`README has no bash block after "${marker}"`);
	return block[1]
		.split("\n")
		.map((line) => line.replace(/\s+#.*$/, "").trim())
		.filter((line) => line !== "");
}

/** PATH without any node_modules/.bin: the shell a newcomer has (the machine's Node, often 20). */
function userPath(): string {
	return (process.env.PATH ?? "")
		.split(delimiter)
		.filter((dir) => !dir.includes("node_modules"))
		.join(delimiter);
}

let parent = "";
let clone = "";
let npmCache = "";
let ci: { code: number; output: string } = { code: -1, output: "" };

function bash(command: string, env: Record<string, string> = {}) {
	const r = spawnSync("bash", ["-c", command], {
		cwd: clone,
		encoding: "utf8",
		env: { ...process.env, PATH: userPath(), ...env },
		timeout: 240_000,
	});
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
	parent = mkdtempSync(join(tmpdir(), "pi-fold-readme-"));
	chmodSync(parent, 0o700);
	clone = join(parent, "pi-fold");
	npmCache = join(parent, "npm-cache");
	execFileSync("git", ["clone", "--quiet", ROOT, clone]);
	// The working tree's changes, so the test checks what is about to be committed.
	const changed = execFileSync("git", ["ls-files", "--modified", "--others", "--exclude-standard", "-z"], {
		cwd: ROOT,
		encoding: "utf8",
	})
		.split("\0")
		.filter((f) => f !== "");
	for (const file of changed) {
		try {
			mkdirSync(dirname(join(clone, file)), { recursive: true });
			copyFileSync(join(ROOT, file), join(clone, file));
		} catch {
			rmSync(join(clone, file), { force: true }); // deleted in the working tree
		}
	}
	const [install] = readmeCommands(README, "Two commands, each complete on a fresh clone");
	const npmCi = install?.split(" && ")[0] ?? "";
	expect(npmCi).toBe("npm ci");
	const r = bash(`${npmCi} 2>&1`);
	ci = { code: r.code, output: r.stdout };
}, 300_000);

afterAll(() => {
	if (parent !== "") rmSync(parent, { recursive: true, force: true });
});

describe("README's commands in a fresh clone", () => {
	it("npm ci succeeds and prints what README says: seven lines, the prepare banner, the build, the count", () => {
		expect(ci.code, ci.output).toBe(0);
		const lines = ci.output.replace(/\n$/, "").split("\n");
		expect(README).toMatch(/What `npm ci` prints on a fresh clone is seven lines/);
		expect(lines, ci.output).toHaveLength(7);
		expect(lines[1]).toBe("> pi-fold@0.1.0 prepare");
		expect(lines[4]).toMatch(/^built build\/ in [\d.]+ s: Wasm core/);
		expect(lines[6]).toMatch(/^added \d+ packages in /);
		expect(ci.output).not.toMatch(/npm (?:warn|error)/i);
	});

	it("runs each line of README's tools block as written, first npx run included", () => {
		const commands = readmeCommands(README, "Run the project's tools without a global install");
		expect(commands).toEqual(["npm exec -- pi --version", "npx pi-fold hash README.md"]);
		const readmeHash = createHash("sha256")
			.update(readFileSync(join(clone, "README.md")))
			.digest("hex");
		const expected: Record<string, RegExp> = {
			"npm exec -- pi --version": /^\d+\.\d+\.\d+\n$/,
			"npx pi-fold hash README.md": new RegExp(`^${readmeHash}  README\\.md\\n$`),
		};
		for (const command of commands) {
			const r = bash(command, { npm_config_cache: npmCache });
			expect(r.stderr, `${command}: ${r.stderr}`).toBe("");
			expect(r.code, command).toBe(0);
			expect(r.stdout, command).toMatch(expected[command] as RegExp);
		}
	});

	it("npx pi-fold --help and npm exec -- pi-fold --version work too, and none of them rebuilds build/", () => {
		const built = execFileSync("stat", ["-c", "%Y.%y", join(clone, "build", "cli.js")], { encoding: "utf8" });
		const help = bash("npx pi-fold --help", { npm_config_cache: npmCache });
		expect(help.code, help.stderr).toBe(0);
		expect(help.stdout).toMatch(/^usage: pi-fold <command>/);
		const version = bash("npm exec -- pi-fold --version", { npm_config_cache: `${npmCache}-2` });
		expect(version.code, version.stderr).toBe(0);
		expect(version.stdout).toBe("pi-fold 0.1.0\n");
		expect(execFileSync("stat", ["-c", "%Y.%y", join(clone, "build", "cli.js")], { encoding: "utf8" })).toBe(built);
	});
});
