// Stale reads: a fold records each file read it holds (path and SHA-256 of the text the tool
// returned, the lines a ranged read showed), and status, search and peek say when the file on disk
// no longer holds that text or is gone. Checks are lazy and cached by the file's stat: asking again
// about an unchanged file reads nothing. Old fold records without reads stay valid. The bounds: 256
// reads a record, 512 files a call, no file over 16 MiB read.

import { mkdtempSync, rmSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileReadsOf } from "../../src/lattice/index.ts";
import { checkerFor, staleOf } from "../../src/runtime/stale.ts";
import { chainKeyOf, chainRecord, parseDecisionRecord } from "../../src/state/index.ts";
import { FileChecker } from "../../src/store/index.ts";
import { readBatch, reply, toolResult, toolUse, user } from "../helpers/entries.ts";
import { simFixture } from "./actions/sim-helpers.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-stale-"));
	dirs.push(dir);
	for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
	return dir;
}

const A = "export const a = 1;\n";
const B = "line 1\nline 2\nline 3\nline 4\n";

async function foldedReads(cwd: string) {
	const f = simFixture(cwd);
	f.append([
		user("u1", "look at a and part of b"),
		...readBatch("r1", ["a.ts"], () => A),
		toolUse("r2-use", [{ id: "r2-call", name: "read", args: { path: "b.ts", offset: 2, limit: 2 } }]),
		toolResult("r2-res", "r2-call", "read", "line 2\nline 3\n\n[1 more lines in file. Use offset=4 to continue.]"),
		reply("a1", "done"),
	]);
	f.pad();
	const id = await f.fold("u1", "a1", "a.ts exports a; lines 2-3 of b.ts are plain.");
	return { f, id };
}

describe("file reads on a fold record", () => {
	it("records the path and digest of each read, and the lines a ranged read showed", async () => {
		const cwd = workspace({ "a.ts": A, "b.ts": B });
		const { f, id } = await foldedReads(cwd);
		const reads = f.runtime.snapshot(f.host).state.folds.get(id)?.reads;
		expect(reads?.map((r) => [r.entry, r.path, r.lines ?? null])).toEqual([
			["r1-r0", "a.ts", null],
			["r2-res", "b.ts", [2, 2]],
		]);
	});

	it("skips images, errors and reads that returned no content", () => {
		const entries = [
			toolUse("u", [
				{ id: "c1", name: "read", args: { path: "pic.png" } },
				{ id: "c2", name: "read", args: { path: "huge.txt" } },
				{ id: "c3", name: "grep", args: { path: "src" } },
			]),
			toolResult("r1", "c1", "read", "Read image file [image/png]"),
			toolResult(
				"r2",
				"c2",
				"read",
				"[Line 1 is 90KB, exceeds 50KB limit. Use bash: sed -n '1p' huge.txt | head -c 51200]",
			),
			toolResult("r3", "c3", "grep", "src/a.ts:1: match"),
		];
		expect(fileReadsOf(entries)).toEqual([]);
	});

	it("keeps fold records written before reads were recorded valid", () => {
		const fold = {
			id: "f0123456789abcdef",
			kind: "tools",
			origin: "ladder",
			leafIds: ["e1"],
			sourceSha256: "a".repeat(64),
			sourceBytes: 10,
			brief: "A brief long enough to pass.",
			briefSource: "deterministic",
		} as const;
		const key = chainKeyOf(new Uint8Array(32).fill(3));
		const old = chainRecord({ kind: "fold", actor: "ladder", fold }, null, key);
		expect(parseDecisionRecord(JSON.parse(JSON.stringify(old))).kind).toBe("fold");
		const withReads = chainRecord(
			{
				kind: "fold",
				actor: "ladder",
				fold: { ...fold, reads: [{ entry: "e1", path: "a.ts", sha256: "b".repeat(64) }] },
			},
			null,
			key,
		);
		expect(parseDecisionRecord(JSON.parse(JSON.stringify(withReads))).kind).toBe("fold");
	});
});

describe("stale reads", () => {
	it("status names reads whose file changed or is gone, and only those", async () => {
		const cwd = workspace({ "a.ts": A, "b.ts": B });
		const { f, id } = await foldedReads(cwd);
		const clean = await f.call({ action: "status" });
		expect(clean.text).not.toContain("Stale reads");
		expect(clean.details.staleReads).toEqual({ reads: 2, stale: [] });
		writeFileSync(join(cwd, "b.ts"), "line 1\nline 2\nline 3\nline 4 changed\n"); // outside the lines read
		expect((await f.call({ action: "status" })).text).not.toContain("Stale reads");
		writeFileSync(join(cwd, "a.ts"), "export const a = 2;\n");
		writeFileSync(join(cwd, "b.ts"), "line 1\nline TWO\nline 3\nline 4\n");
		const stale = await f.call({ action: "status" });
		expect(stale.text).toContain("Stale reads: 2 of 2 folded file reads no longer match the disk");
		expect(stale.text).toContain(`a.ts · changed · fold ${id} · entry r1-r0`);
		unlinkSync(join(cwd, "b.ts"));
		expect((await f.call({ action: "status" })).text).toContain(`b.ts · gone · fold ${id} · entry r2-res`);
	});

	it("search and peek say a read is stale", async () => {
		const cwd = workspace({ "a.ts": A, "b.ts": B });
		const { f, id } = await foldedReads(cwd);
		const before = await f.call({ action: "search", pattern: "export const a" });
		expect(before.text).not.toContain("stale");
		writeFileSync(join(cwd, "a.ts"), "export const a = 3;\n");
		const after = await f.call({ action: "search", pattern: "export const a" });
		expect(after.text).toContain("stale: changed on disk since this read");
		const peek = await f.call({ action: "peek", id });
		expect(peek.text.split("\n")[0]).toContain("a.ts (entry r1-r0) stale: changed on disk since this read");
	});

	it("checks lazily: an unchanged file is stat'ed again but not read again", async () => {
		const cwd = workspace({ "a.ts": A, "b.ts": B });
		const { f } = await foldedReads(cwd);
		const checker = checkerFor(f.runtime);
		await f.call({ action: "status" });
		const reads = checker.reads;
		expect(reads).toBe(2);
		await f.call({ action: "status" });
		await f.call({ action: "search", pattern: "line" });
		expect(checker.reads).toBe(reads);
		writeFileSync(join(cwd, "a.ts"), A); // same text, new mtime: read again, still current
		utimesSync(join(cwd, "a.ts"), new Date(), new Date(Date.now() + 5_000));
		expect((await f.call({ action: "status" })).text).not.toContain("Stale reads");
		expect(checker.reads).toBe(reads + 1);
	});
});

describe("the bounds on stale-read checks", () => {
	it("lists at most 256 reads on one fold record", () => {
		const leaves = Array.from({ length: 300 }, (_, i) => readBatch(`b${i}`, [`f${i}.ts`])).flat();
		const reads = fileReadsOf(leaves);
		expect(reads).toHaveLength(256);
		expect(reads.at(-1)?.path).toBe("f255.ts");
	});

	it("checks at most 512 distinct files in one call", () => {
		const cwd = workspace({});
		const reads = Array.from({ length: 600 }, (_, i) => ({
			read: { entry: `r${i}`, path: `gone${i}.ts`, sha256: "a".repeat(64) },
			fold: "f0000000000000001",
		}));
		const stale = staleOf({}, { cwd: () => cwd }, reads);
		expect(stale.size).toBe(512);
		expect(stale.get("r511")).toBe("gone");
		expect(stale.has("r512")).toBe(false);
	});

	it("does not read a file larger than 16 MiB to compare it: unchecked", () => {
		const cwd = workspace({});
		const checker = new FileChecker();
		const stamp = { sha256: "a".repeat(64) };
		for (const [name, bytes, state] of [
			["at-limit.bin", 16 * 1024 * 1024, "changed"],
			["over-limit.bin", 16 * 1024 * 1024 + 1, "unchecked"],
		] as const) {
			const path = join(cwd, name);
			writeFileSync(path, "");
			truncateSync(path, bytes); // sparse: no 16 MiB written
			expect(checker.check(path, stamp)).toBe(state);
		}
		expect(checker.reads).toBe(1);
	});
});
