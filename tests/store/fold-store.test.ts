import { readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FoldStore, SourceVerificationError, type VerifyEvent } from "../../src/store/index.ts";
import { blobPath, chunkDigestsOf, encodeTree, makeTree, sha256Hex, treePath } from "../../src/verify/index.ts";
import { damage, dirsUnder, filesUnder, flipAt, mixedText, tempDir } from "./helpers.ts";

/** Small trees so "large" sources stay fast: 4 KiB chunks, trees above 16 KiB. */
const SMALL = { chunkSize: 4096, treeMinBytes: 16 * 1024, durable: false } as const;
const LABEL = "fold f0123456789abcdef";

function flipBit(data: Buffer, at: number): Buffer {
	data[at] = (data[at] ?? 0) ^ 0x20;
	return data;
}

async function expectRefused(promise: Promise<unknown>, expected: string, actual: string | null) {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(SourceVerificationError);
	const e = error as SourceVerificationError;
	expect(e.label).toBe(LABEL);
	expect(e.expected).toBe(expected);
	expect(e.actual).toBe(actual);
	expect(e.message).toContain(LABEL);
	expect(e.message).toContain(expected);
	if (actual) expect(e.message).toContain(actual);
	return e;
}

describe("FoldStore.put", () => {
	it("stores the exact source atomically under sha256/<2 hex>/<64 hex>, files 0444, folders 0700, no tmp left", async () => {
		const dir = join(tempDir(), "session", "pi-fold-store");
		const store = new FoldStore(dir);
		const source = '{"id":"e1","message":{"role":"user","content":"héllo"}}\n';
		const put = await store.put(source);
		expect(put).toEqual({ sha256: sha256Hex(source), bytes: Buffer.byteLength(source) });
		const path = blobPath(dir, put.sha256);
		expect(readFileSync(path, "utf8")).toBe(source);
		expect(statSync(path).mode & 0o777).toBe(0o444);
		for (const folder of dirsUnder(dir)) expect(statSync(folder).mode & 0o777).toBe(0o700);
		expect(filesUnder(dir)).toEqual([`sha256/${put.sha256.slice(0, 2)}/${put.sha256}`]);
		expect(store.has(put.sha256)).toBe(true);
		expect(store.has(sha256Hex("other"))).toBe(false);
		expect(store.has("not a digest")).toBe(false);
	});

	it("is idempotent: a second put (and 50 concurrent ones) keeps the verified blob (its time freshened, as git does)", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir, SMALL);
		const source = mixedText(40_000);
		const first = await store.put(source);
		const before = statSync(blobPath(dir, first.sha256));
		const again = await Promise.all(Array.from({ length: 50 }, () => store.put(source)));
		for (const r of again) expect(r).toEqual(first);
		const after = statSync(blobPath(dir, first.sha256));
		expect(after.ino).toBe(before.ino);
		expect(after.mtimeMs).toBeGreaterThanOrEqual(before.mtimeMs);
		expect(readFileSync(blobPath(dir, first.sha256), "utf8")).toBe(source);
		expect(await new FoldStore(dir, SMALL).put(source)).toEqual(first);
		expect(filesUnder(dir).filter((f) => !f.startsWith("sha256/"))).toEqual([]);
	});

	it("replaces a damaged existing blob (and a forged sidecar) with the exact bytes", async () => {
		const dir = tempDir();
		const source = mixedText(40_000);
		const { sha256 } = await new FoldStore(dir, SMALL).put(source);
		flipAt(blobPath(dir, sha256), 100);
		damage(treePath(dir, sha256), (d) => d.subarray(0, 50));
		const store = new FoldStore(dir, SMALL);
		await store.put(source);
		expect(await store.read(sha256, LABEL)).toBe(source);
		expect(statSync(blobPath(dir, sha256)).mode & 0o777).toBe(0o444);
		expect((await new FoldStore(dir, SMALL).readSlice(sha256, 30_000, 100, LABEL)).start).toBeLessThanOrEqual(30_000);
	});
});

describe("FoldStore.read / readSlice refuse what does not verify", () => {
	const source = `${"line of the original tool output\n".repeat(200)}naïve ✓\n`;

	for (const [name, edit] of [
		["one flipped byte", (d: Buffer) => flipBit(d, 17)],
		["a truncated blob", (d: Buffer) => d.subarray(0, d.length - 1)],
		["a replaced blob", () => Buffer.from("entirely different content\n")],
	] as const) {
		it(`refuses ${name} with the fold label and both digests, returning nothing`, async () => {
			const dir = tempDir();
			const store = new FoldStore(dir);
			const { sha256 } = await store.put(source);
			damage(blobPath(dir, sha256), edit);
			const actual = sha256Hex(readFileSync(blobPath(dir, sha256)));
			expect(actual).not.toBe(sha256);
			await expectRefused(store.read(sha256, LABEL), sha256, actual);
			const e = await expectRefused(store.readSlice(sha256, 0, 10, LABEL), sha256, actual);
			expect(e.reason).toBe("mismatch");
		});
	}

	it("refuses a missing blob, naming the fold and the expected digest (actual null)", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir);
		const { sha256 } = await store.put(source);
		unlinkSync(blobPath(dir, sha256));
		const e = await expectRefused(store.read(sha256, LABEL), sha256, null);
		expect(e.reason).toBe("missing");
		expect(e.message).toMatch(/missing/);
		await expectRefused(store.readSlice(sha256, 5, 5, LABEL), sha256, null);
		await expectRefused(new FoldStore(join(dir, "never-created")).read(sha256, LABEL), sha256, null);
	});

	it("never follows a symlink planted at a blob's address", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir);
		const { sha256 } = await store.put(source);
		const elsewhere = join(tempDir(), "copy");
		writeFileSync(elsewhere, source);
		unlinkSync(blobPath(dir, sha256));
		symlinkSync(elsewhere, blobPath(dir, sha256));
		const e = await expectRefused(store.read(sha256, LABEL), sha256, null);
		expect(e.reason).toBe("refused");
		expect(e.message).toContain(`sha256/${sha256.slice(0, 2)}/${sha256} is a symlink (not followed)`);
	});

	it("validates its arguments", async () => {
		const store = new FoldStore(tempDir());
		await expect(store.read("abc", LABEL)).rejects.toThrow(/SHA-256/);
		const { sha256 } = await store.put("x");
		await expect(store.readSlice(sha256, -1, 4, LABEL)).rejects.toThrow(RangeError);
		await expect(store.readSlice(sha256, 0, 1.5, LABEL)).rejects.toThrow(RangeError);
	});
});

describe("FoldStore.readSlice pages a large source", () => {
	it("pages contiguously (offset = previous end) on UTF-8 boundaries and rebuilds the source byte for byte", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir, SMALL);
		const source = mixedText(100_000, 3);
		const { sha256, bytes } = await store.put(source);
		expect(statSync(treePath(dir, sha256)).mode & 0o777).toBe(0o444);
		const parts: string[] = [];
		let offset = 0;
		let pages = 0;
		for (;;) {
			const page = await store.readSlice(sha256, offset, 3001, LABEL);
			expect(page.start).toBe(offset);
			expect(page.totalBytes).toBe(bytes);
			expect(Buffer.byteLength(page.text)).toBe(page.end - page.start);
			expect(page.text).not.toContain("\uFFFD");
			parts.push(page.text);
			pages++;
			if (page.end >= bytes) break;
			expect(page.end).toBeGreaterThan(offset);
			offset = page.end;
		}
		expect(pages).toBeGreaterThan(30);
		expect(Buffer.from(parts.join("")).equals(Buffer.from(source))).toBe(true);
		expect(await store.readSlice(sha256, bytes + 10, 5, LABEL)).toEqual({
			text: "",
			start: bytes,
			end: bytes,
			totalBytes: bytes,
		});
	});

	it("a snapped slice never splits a character: a 1-byte request inside 😀 returns the whole emoji", async () => {
		const store = new FoldStore(tempDir());
		const { sha256 } = await store.put("ab😀cd");
		expect(await store.readSlice(sha256, 3, 1, LABEL)).toEqual({ text: "😀", start: 2, end: 6, totalBytes: 8 });
	});

	it("verifies only the chunks a bounded slice touches: a corrupt far chunk does not block it, a slice over it is refused", async () => {
		const dir = tempDir();
		const events: VerifyEvent[] = [];
		const store = new FoldStore(dir, { ...SMALL, onVerify: (e) => events.push(e) });
		const source = "x".repeat(200 * 1024);
		const { sha256 } = await store.put(source);
		const slice = await store.readSlice(sha256, 10_000, 500, LABEL);
		expect(slice).toEqual({ text: "x".repeat(500), start: 10_000, end: 10_500, totalBytes: 200 * 1024 });
		expect(events).toEqual([{ sha256, method: "chunks", bytesHashed: 4096, chunks: [2, 3] }]);

		flipAt(blobPath(dir, sha256), 150_000); // chunk 36, far from the slice
		events.length = 0;
		expect((await store.readSlice(sha256, 10_000, 500, LABEL)).text).toBe("x".repeat(500));
		expect(events.map((e) => e.method)).toEqual(["chunks"]);
		const actual = sha256Hex(readFileSync(blobPath(dir, sha256)));
		await expectRefused(store.readSlice(sha256, 149_000, 2_000, LABEL), sha256, actual);
		await expectRefused(store.read(sha256, LABEL), sha256, actual);
	});

	it("after a restart the first slice of a large blob verifies it whole once, then only touched chunks", async () => {
		const dir = tempDir();
		const source = mixedText(60_000, 11);
		const { sha256 } = await new FoldStore(dir, SMALL).put(source);
		const events: VerifyEvent[] = [];
		const store = new FoldStore(dir, { ...SMALL, onVerify: (e) => events.push(e) });
		await store.readSlice(sha256, 0, 100, LABEL);
		await store.readSlice(sha256, 40_000, 100, LABEL);
		expect(events.map((e) => e.method)).toEqual(["whole", "chunks"]);
	});

	it("refuses a consistently forged blob + sidecar pair (the sidecar alone is never trusted)", async () => {
		const dir = tempDir();
		const source = "a".repeat(40_000);
		const { sha256 } = await new FoldStore(dir, SMALL).put(source);
		const forged = Buffer.from("b".repeat(40_000));
		const tree = makeTree(sha256, SMALL.chunkSize, forged.length, chunkDigestsOf(forged, SMALL.chunkSize));
		damage(blobPath(dir, sha256), () => forged);
		damage(treePath(dir, sha256), () => Buffer.from(encodeTree(tree)));
		await expectRefused(new FoldStore(dir, SMALL).readSlice(sha256, 0, 10, LABEL), sha256, sha256Hex(forged));
	});

	it("a damaged or missing sidecar falls back to whole verification and still serves exact slices", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir, SMALL);
		const source = mixedText(50_000, 5);
		const { sha256 } = await store.put(source);
		const expected = Buffer.from(source).subarray(0, 1000);
		damage(treePath(dir, sha256), (d) => flipBit(d, 200));
		const a = await store.readSlice(sha256, 0, 1000, LABEL);
		expect(Buffer.from(a.text).equals(expected.subarray(0, a.end))).toBe(true);
		rmSync(treePath(dir, sha256));
		const b = await new FoldStore(dir, SMALL).readSlice(sha256, 0, 1000, LABEL);
		expect(b).toEqual(a);
		renameSync(blobPath(dir, sha256), join(dir, "moved"));
		await expectRefused(store.readSlice(sha256, 0, 10, LABEL), sha256, null);
	});
});
