import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
	appendFileSync,
	chmodSync,
	cpSync,
	mkdirSync,
	readdirSync,
	rmSync,
	statSync,
	truncateSync,
	unlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FoldStore, SourceVerificationError } from "../../src/store/index.ts";
import { blobPath, blobRelPath, treePath } from "../../src/verify/index.ts";
import { bundleForNobody, canDropPrivileges, runAsNobody } from "../verify/unprivileged.ts";
import { mixedText, tempDir } from "./helpers.ts";

const LABEL = "fold f-hostile";
const CHILD_LABEL = "fold f-child";
const CHILD = join(import.meta.dirname, "children", "read-source.ts");
const WRITER = join(import.meta.dirname, "children", "slow-writer.ts");
const SMALL = { chunkSize: 4096, treeMinBytes: 16 * 1024, durable: false } as const;
const source = mixedText(3000);

interface Attempt {
	ok: boolean;
	reason?: string;
	message?: string;
	length?: number;
}

/** Runs read / readSlice (and verifyStore) in a child that must exit by itself. */
function inChild(dir: string, sha: string, expected: number | undefined, verify = false) {
	const args = [CHILD, dir, sha, expected === undefined ? "-" : String(expected), ...(verify ? ["verify"] : [])];
	const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 30_000 });
	expect(r.signal, `the child hung: ${r.stderr}`).toBeNull();
	expect(r.status, r.stderr).toBe(0);
	return JSON.parse(r.stdout) as {
		read: Attempt;
		slice: Attempt;
		issues?: { kind: string; path: string; detail: string }[];
	};
}

async function refusal(promise: Promise<unknown>): Promise<SourceVerificationError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(SourceVerificationError);
	expect((error as Error).message).toContain(LABEL);
	return error as SourceVerificationError;
}

async function stored(options = {}) {
	const dir = tempDir();
	const { sha256, bytes } = await new FoldStore(dir, { durable: false, ...options }).put(source);
	return { dir, sha256, bytes, path: blobPath(dir, sha256), rel: blobRelPath(sha256) };
}

describe("a fold store's reads cannot hurt the process", () => {
	it("refuses a FIFO at the blob path at once, naming the fold, the path and what it is; the process still exits", async () => {
		const { dir, sha256, bytes, path, rel } = await stored();
		unlinkSync(path);
		execFileSync("mkfifo", [path]);
		for (const expected of [bytes, undefined]) {
			const r = inChild(dir, sha256, expected, true);
			for (const attempt of [r.read, r.slice]) {
				expect(attempt).toMatchObject({ ok: false, reason: "refused" });
				expect(attempt.message).toContain(`${CHILD_LABEL}: stored source failed verification`);
				expect(attempt.message).toContain(`${rel} is a FIFO, not a regular file (not opened)`);
			}
			expect(r.issues).toEqual([{ kind: "stray", path: rel, detail: "not a regular file" }]);
		}
	});

	it("ignores a FIFO named <sha>.tree beside a blob (never opened): reads go by the name, verify names it", async () => {
		const big = mixedText(64 * 1024);
		const dir = tempDir();
		const { sha256, bytes } = await new FoldStore(dir, SMALL).put(big);
		const sidecar = treePath(dir, sha256);
		unlinkSync(sidecar);
		execFileSync("mkfifo", [sidecar]);
		const r = inChild(dir, sha256, bytes, true);
		expect(r.read).toMatchObject({ ok: true, length: big.length });
		expect(r.slice.ok).toBe(true);
		expect(r.issues).toEqual([{ kind: "stray", path: `${blobRelPath(sha256)}.tree`, detail: "not a regular file" }]);
	});

	it("refuses a 64 GiB sparse file at the blob path before opening it, and streams a 2.2 GiB one in bounded reads", async () => {
		const { dir, sha256, bytes, path, rel } = await stored();
		chmodSync(path, 0o644);
		truncateSync(path, 64 * 2 ** 30); // sparse: costs no disk
		const store = new FoldStore(dir);
		const sized = await refusal(store.read(sha256, LABEL, bytes));
		expect(sized.reason).toBe("refused");
		expect(sized.message).toContain(`${rel} is ${64 * 2 ** 30} bytes, expected ${bytes} (not read)`);
		expect((await refusal(store.readSlice(sha256, 0, 100, LABEL, bytes))).reason).toBe("refused");
		expect((await refusal(store.read(sha256, LABEL))).message).toMatch(/more than the \d+ allowed \(not read\)/);
		truncateSync(path, 2 ** 31 + 2 ** 27); // past 2^31: one read call of this size aborted Node
		const streamed = await refusal(store.readSlice(sha256, 0, 100, LABEL));
		expect(streamed).toMatchObject({ reason: "mismatch" });
		expect(streamed.actual).toMatch(/^[0-9a-f]{64}$/);
	});

	it("refuses a symlink, a directory and a blob of another size than the fold recorded, by name", async () => {
		const { dir, sha256, bytes, path, rel } = await stored();
		const store = new FoldStore(dir);
		chmodSync(path, 0o644);
		appendFileSync(path, "x");
		const longer = await refusal(store.read(sha256, LABEL, bytes));
		expect(longer.message).toContain(`${rel} is ${bytes + 1} bytes, expected ${bytes} (not read)`);
		expect((await refusal(store.read(sha256, LABEL))).reason).toBe("mismatch"); // without the size: by its name
		unlinkSync(path);
		mkdirSync(path);
		const folder = await refusal(store.readSlice(sha256, 0, 10, LABEL, bytes));
		expect(folder.message).toContain(`${rel} is a directory, not a regular file (not opened)`);
		rmSync(path, { recursive: true });
		const missing = await refusal(store.read(sha256, LABEL, bytes));
		expect(missing).toMatchObject({ reason: "missing", actual: null });
	});

	it.skipIf(!canDropPrivileges)(
		"names a blob the user cannot read (as uid 65534, its code in a 0755 folder)",
		async () => {
			const { dir, sha256, bytes, rel } = await stored();
			const { dir: folder, entry } = await bundleForNobody(CHILD);
			try {
				const store = join(folder, "store");
				cpSync(dir, store, { recursive: true });
				for (const d of [store, join(store, "sha256"), join(store, "sha256", sha256.slice(0, 2))]) chmodSync(d, 0o755);
				chmodSync(blobPath(store, sha256), 0o000);
				const run = runAsNobody(folder, entry, [store, sha256, String(bytes)]);
				const r = JSON.parse(run.stdout) as { read: Attempt; slice: Attempt };
				for (const attempt of [r.read, r.slice]) {
					expect(attempt).toMatchObject({ ok: false, reason: "unreadable" });
					expect(attempt.message).toContain(`${rel} cannot be read (EACCES)`);
				}
			} finally {
				rmSync(folder, { recursive: true, force: true });
			}
		},
	);
});

describe("crash leftovers", () => {
	it("removes a killed writer's temporary file at the next open once it is a minute old, and nothing else", async () => {
		const dir = tempDir();
		const child = spawn(process.execPath, [WRITER, dir], { stdio: ["ignore", "pipe", "inherit"] });
		await new Promise<void>((resolve, reject) => {
			child.stdout.once("data", () => resolve());
			child.once("exit", (code) => reject(new Error(`writer exited early (${code})`)));
		});
		child.kill("SIGKILL");
		await new Promise((resolve) => child.once("exit", resolve));
		const tmp = join(dir, "tmp");
		const [left] = readdirSync(tmp);
		expect(left).toMatch(new RegExp(`^${child.pid}-[0-9a-f]{16}\\.tmp$`));
		expect(statSync(join(tmp, left as string)).size).toBeGreaterThan(0);
		const live = `${process.pid}-${"0".repeat(16)}.tmp`; // a live writer's file: never swept
		const other = "notes.txt";
		for (const name of [live, other]) writeFileSync(join(tmp, name), "x");
		expect(new FoldStore(dir).swept).toEqual({ removed: [], kept: 3 }); // all younger than a minute
		const old = new Date(Date.now() - 2 * 60_000);
		for (const name of [left as string, live, other]) utimesSync(join(tmp, name), old, old);
		expect(new FoldStore(dir).swept).toEqual({ removed: [left], kept: 2 });
		expect(readdirSync(tmp).sort()).toEqual([live, other].sort());
		expect(new FoldStore(dir, { sweepTemp: false }).swept).toBeUndefined();
	});
});
