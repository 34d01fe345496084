import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256sumLine } from "../../src/cli/commands/hash.ts";
import { bytes, tempDir } from "../verify/helpers.ts";
import { CLI, cli, expectOneErrorLine } from "./run.ts";

const hasSha256sum = spawnSync("sha256sum", ["--version"]).status === 0;
const hasBash = spawnSync("bash", ["-c", "true"]).status === 0;
const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;

function sha256sum(args: string[], input?: string): string {
	return spawnSync("sha256sum", args, { encoding: "utf8", ...(input !== undefined ? { input } : {}) }).stdout;
}

/** Runs a bash script in which `PIFOLD` runs the bin with this test's Node; returns its output. */
function bash(script: string): { code: number; stdout: string; stderr: string } {
	const r = spawnSync("bash", ["-c", `PIFOLD() { "$NODE_BIN" "$PIFOLD_CLI" "$@"; }\n${script}`], {
		encoding: "utf8",
		env: { ...process.env, NODE_BIN: process.execPath, PIFOLD_CLI: CLI },
		timeout: 60_000,
	});
	return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("pi-fold hash, like sha256sum", () => {
	it("escapes names with a backslash, CR or LF the way sha256sum does", () => {
		expect(sha256sumLine("ab", "plain")).toBe("ab  plain\n");
		expect(sha256sumLine("ab", "a\\b\nc\rd")).toBe("\\ab  a\\\\b\\nc\\rd\n");
	});

	it.skipIf(!hasSha256sum)("prints exactly what sha256sum prints, escaped names included", () => {
		const dir = tempDir();
		const names = ["plain.txt", "with space.bin", "back\\slash", "new\nline", "empty", "large.bin"];
		const sizes = [3, 1003, 2003, 3003, 0, 5 * 1024 * 1024 + 7]; // the last one above HASH_SYNC_MAX
		names.forEach((name, i) => {
			writeFileSync(join(dir, name), bytes(sizes[i] as number, i + 1));
		});
		const files = names.map((n) => join(dir, n));
		const ours = cli(["hash", ...files]);
		expect(ours).toEqual({ code: 0, stdout: sha256sum(files), stderr: "" });
	});

	it.skipIf(!hasSha256sum)("reads standard input with no FILE and for -, like sha256sum", () => {
		const input = "from stdin\n";
		for (const args of [["hash"], ["hash", "-"]]) {
			const ours = cli(args, { input });
			expect(ours.code).toBe(0);
			expect(ours.stdout).toBe(sha256sum(["-"], input));
		}
	});

	it.skipIf(!hasSha256sum || !hasBash)("reads process substitution, <(cmd), as a stream", () => {
		const r = bash('PIFOLD hash <(printf "hi\\n") <(head -c 3000000 /dev/zero)');
		const theirs = bash('sha256sum <(printf "hi\\n") <(head -c 3000000 /dev/zero)');
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		// Same digests; the /dev/fd numbers may differ between the two shells.
		const digests = (out: string) => out.split("\n").map((l) => l.slice(0, 64));
		expect(digests(r.stdout)).toEqual(digests(theirs.stdout));
		expect(r.stdout).toMatch(/^[0-9a-f]{64} {2}\/dev\/fd\/\d+\n[0-9a-f]{64} {2}\/dev\/fd\/\d+\n$/);
	});

	it.skipIf(!hasMkfifo)("reads a FIFO while a writer fills it", async () => {
		const dir = tempDir();
		const fifo = join(dir, "pipe");
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		const data = Buffer.from(bytes(1024 * 1024 + 11, 5));
		const reader = spawn(process.execPath, [CLI, "hash", fifo], { stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		reader.stdout.on("data", (c: Buffer) => {
			stdout += c.toString();
		});
		reader.stderr.on("data", (c: Buffer) => {
			stderr += c.toString();
		});
		const exited = new Promise<number>((resolve) => reader.on("close", (code) => resolve(code ?? -1)));
		const writer = spawn("sh", ["-c", 'cat > "$1"', "sh", fifo], { stdio: ["pipe", "ignore", "inherit"] });
		writer.stdin.end(data);
		expect(await exited).toBe(0);
		expect(stderr).toBe("");
		expect(stdout).toBe(`${createHash("sha256").update(data).digest("hex")}  ${fifo}\n`);
	});

	it("reports a missing file and a directory on one line each, hashes the rest, and exits 1", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "ok"), "ok");
		const r = cli(["hash", join(dir, "absent"), join(dir, "ok"), dir]);
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/^[0-9a-f]{64} {2}.*\/ok\n$/);
		expect(r.stderr).toBe(
			`pi-fold: hash: ${join(dir, "absent")}: No such file or directory\npi-fold: hash: ${dir}: Is a directory\n`,
		);
	});

	it("exits 2 with one line for an unknown option, and takes names after --", () => {
		const r = cli(["hash", "--fast", "x"]);
		expect(r.code).toBe(2);
		expectOneErrorLine(r, "hash", /unknown option --fast; see 'pi-fold hash --help'/);
		const dir = tempDir();
		writeFileSync(join(dir, "--fast"), "x");
		const named = spawnSync(process.execPath, [CLI, "hash", "--", "--fast"], { cwd: dir, encoding: "utf8" });
		expect(named.status).toBe(0);
		expect(named.stdout).toMatch(/^[0-9a-f]{64} {2}--fast\n$/);
	});
});
