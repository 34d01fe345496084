// The key that signs decision records, in the agent directory: created on first use with mode 0600
// in a 0700 folder, one key when two processes create it at once, and not used (an in-memory key
// instead, the problem named) when the file is a symlink, a FIFO, open to other users, someone
// else's, or not a key. Runs as root and, where ownership matters, as an unprivileged user.

import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chainKeyPath, forgetChainKeys, loadChainKey, processChainKey } from "../../src/runtime/index.ts";
import { cleanupTempDirs, tempDir } from "../helpers/pi-session.ts";
import { bundleForNobody, canDropPrivileges, NOBODY, runAsNobody } from "../verify/unprivileged.ts";

afterAll(cleanupTempDirs);

const fresh = () => {
	forgetChainKeys();
	return tempDir("pi-fold-key-");
};

describe("the chain key file", () => {
	it("is created on first use: 64 hex characters, file 0600, folder 0700, the same key on the next load", () => {
		const agentDir = fresh();
		const first = loadChainKey(agentDir);
		expect(first.problem).toBeNull();
		const path = chainKeyPath(agentDir);
		expect(readFileSync(path, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(join(agentDir, "pi-fold")).mode & 0o777).toBe(0o700);
		forgetChainKeys();
		expect(loadChainKey(agentDir).key.id).toBe(first.key.id);
		expect(first.key.id).not.toBe(processChainKey().id);
	});

	it("is one key when several processes create it at the same moment", async () => {
		const agentDir = fresh();
		const script = `import { loadChainKey } from ${JSON.stringify(resolve("src/runtime/index.ts"))}; const r = loadChainKey(process.argv[1]); process.stdout.write(r.problem ?? r.key.id);`;
		const runs = Array.from(
			{ length: 4 },
			() =>
				new Promise<string>((done, fail) => {
					const child = spawn(process.execPath, ["--input-type=module", "-e", script, agentDir], {
						stdio: ["ignore", "pipe", "inherit"],
					});
					let out = "";
					child.stdout.on("data", (chunk) => {
						out += chunk;
					});
					child.on("error", fail);
					child.on("close", () => done(out));
				}),
		);
		const ids = await Promise.all(runs);
		expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
		expect(new Set(ids).size).toBe(1);
		forgetChainKeys();
		expect(loadChainKey(agentDir).key.id).toBe(ids[0]);
	});

	const refusals: [string, (path: string) => void, RegExp][] = [
		["a symbolic link", (path) => symlinkSync("/etc/hostname", path), /the key file is a symbolic link/],
		["a FIFO", (path) => execFileSync("mkfifo", ["-m", "600", path]), /not a regular file/],
		[
			"open to other users",
			(path) => writeFileSync(path, `${"a".repeat(64)}\n`, { mode: 0o644 }),
			/open to other users \(mode 0644\); chmod 600 it/,
		],
		["not a key", (path) => writeFileSync(path, "hello\n", { mode: 0o600 }), /does not hold a key/],
		["too large", (path) => writeFileSync(path, "a".repeat(4096), { mode: 0o600 }), /holds 4096 bytes, not a key/],
	];
	for (const [what, plant, reason] of refusals) {
		it(`is not used when it is ${what}: an in-memory key instead, the problem named with the path`, () => {
			const agentDir = fresh();
			const path = chainKeyPath(agentDir);
			mkdirSync(join(agentDir, "pi-fold"), { mode: 0o700 });
			plant(path);
			const loaded = loadChainKey(agentDir);
			expect(loaded.problem).toMatch(reason);
			expect(loaded.problem).toContain(path);
			expect(loaded.key.id).toBe(processChainKey().id);
		});
	}

	it.runIf(canDropPrivileges)(
		"is not used by another user: a key file owned by root is refused for uid 65534",
		async () => {
			const agentDir = fresh();
			chmodSync(agentDir, 0o755);
			loadChainKey(agentDir);
			chmodSync(join(agentDir, "pi-fold"), 0o755);
			chmodSync(chainKeyPath(agentDir), 0o644);
			chownSync(agentDir, NOBODY, NOBODY);
			// The child's code and, if need be, Node itself in a 0755 folder: the checkout may sit under a
			// parent uid 65534 cannot enter.
			const { dir: folder, entry } = await bundleForNobody(join(import.meta.dirname, "children", "load-chain-key.ts"));
			try {
				const out = runAsNobody(folder, entry, [agentDir]).stdout;
				expect(out).toMatch(/the key file belongs to uid 0, not to this user \(uid 65534\)/);
			} finally {
				rmSync(folder, { recursive: true, force: true });
			}
		},
	);
});
