import { execFileSync } from "node:child_process";
import {
	appendFileSync,
	chmodSync,
	closeSync,
	lstatSync,
	openSync,
	symlinkSync,
	truncateSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import {
	blobPath,
	blobRelPath,
	checkedOpen,
	FileRefusedError,
	loadTree,
	MAX_SIDECAR_BYTES,
	readAt,
	readVerifiedRange,
	treePath,
	verifyStore,
	writeBlob,
} from "../../src/verify/index.ts";
import { checkSame } from "../../src/verify/safe-open.ts";
import { bytes, SMALL_TREE, tempDir } from "./helpers.ts";

/** A store with one chunk-tree blob (20 KiB) and one small blob. */
async function store() {
	const dir = tempDir();
	const large = await writeBlob(dir, bytes(20 * 1024, 3), SMALL_TREE);
	const small = await writeBlob(dir, bytes(500, 4), SMALL_TREE);
	return { dir, large: large.digest, small: small.digest };
}

function replace(path: string, make: (path: string) => void): void {
	unlinkSync(path);
	make(path);
}

describe("store files that are not what they claim", () => {
	it("names FIFOs at a blob path and at a sidecar path as not regular files, never opening them", async () => {
		const { dir, large, small } = await store();
		replace(blobPath(dir, small), (p) => execFileSync("mkfifo", [p]));
		replace(treePath(dir, large), (p) => execFileSync("mkfifo", [p]));
		const result = await verifyStore(dir, { workers: 0, mode: "full" });
		expect(result.issues.map((i) => [i.kind, i.path, i.detail])).toEqual([
			["stray", `${blobRelPath(large)}.tree`, "not a regular file"],
			["stray", blobRelPath(small), "not a regular file"],
		]);
		expect(() => loadTree(dir, large)).toThrow(/\.tree is a FIFO, not a regular file \(not opened\)/);
		expect(() => readVerifiedRange(dir, small, 0, 10)).toThrow(FileRefusedError);
		// a range read trusts nothing it cannot open (the fold store then decides by the blob's name)
		expect(() => readVerifiedRange(dir, large, 100, 10)).toThrow(/\.tree is a FIFO/);
	});

	it("refuses an oversized or symlinked sidecar unread and verifies its blob whole instead", async () => {
		const { dir, large, small } = await store();
		const sidecar = treePath(dir, large);
		chmodSync(sidecar, 0o644);
		truncateSync(sidecar, MAX_SIDECAR_BYTES + 1); // sparse
		let result = await verifyStore(dir, { workers: 0, mode: "tree" });
		expect(result.issues).toEqual([
			expect.objectContaining({
				kind: "corrupt",
				detail: `sidecar is ${MAX_SIDECAR_BYTES + 1} bytes, more than the ${MAX_SIDECAR_BYTES} allowed (not read); blob verified whole instead`,
			}),
		]);
		replace(sidecar, (p) => symlinkSync(blobPath(dir, small), p));
		result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([
			{ kind: "refused", path: `${blobRelPath(large)}.tree`, detail: "symlink (not followed)" },
		]);
	});

	it("refuses a 3 GiB sparse file at a chunk-tree blob's path by its size, before reading it", async () => {
		const { dir, large } = await store();
		const path = blobPath(dir, large);
		chmodSync(path, 0o644);
		truncateSync(path, 3 * 2 ** 30);
		const result = await verifyStore(dir, { workers: 0, mode: "tree" });
		expect(result.issues).toEqual([
			expect.objectContaining({ kind: "corrupt", detail: `too long: ${3 * 2 ** 30} bytes, sidecar records 20480` }),
		]);
		expect(() => readVerifiedRange(dir, large, 0, 10, { expectedSize: 20 * 1024 })).toThrow(
			`${path} is ${3 * 2 ** 30} bytes, expected 20480 (not read)`,
		);
		await closeSharedPools();
	});

	it("reads past 2 GiB in bounded calls", () => {
		const path = join(tempDir(), "sparse");
		writeFileSync(path, "");
		truncateSync(path, 2 ** 31 + 4096);
		const { fd, size } = checkedOpen(path, { expectedSize: 2 ** 31 + 4096 });
		try {
			const buf = new Uint8Array(16 * 1024 * 1024);
			expect(readAt(fd, buf, buf.length, 2 ** 31 - 8 * 1024 * 1024)).toBe(8 * 1024 * 1024 + 4096);
			expect(size).toBe(2 ** 31 + 4096);
		} finally {
			closeSync(fd);
		}
		expect(() => checkedOpen(path, { expectedSize: 1 })).toThrow(FileRefusedError);
		const dir = tempDir();
		expect(() => checkedOpen(dir)).toThrow(`${dir} is a directory, not a regular file (not opened)`);
		expect(() => openSync(join(dir, "absent"), "r")).toThrow();
		expect(() => checkedOpen(join(dir, "absent"))).toThrow(/does not exist/);
	});

	it("lets an append-only file (the evidence ledger) grow between its check and its open, and nothing else", () => {
		const path = join(tempDir(), "ledger");
		writeFileSync(path, "R 1\n");
		const checked = lstatSync(path);
		appendFileSync(path, "R 2\n"); // another process appends in between
		const grown = lstatSync(path);
		expect(() => checkSame(path, checked, grown)).toThrow(/changed between its check and its open/);
		expect(() => checkSame(path, checked, grown, true)).not.toThrow();
		const { size } = checkedOpen(path, { appendOnly: true, maxSize: 64 });
		expect(size).toBe(8);
		truncateSync(path, 2); // shrunk: not an append
		expect(() => checkSame(path, checked, lstatSync(path), true)).toThrow(FileRefusedError);
		expect(() => checkedOpen(path, { appendOnly: true, maxSize: 1 })).toThrow(/more than the 1 allowed/);
	});
});
