import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BLOB_MODE, DIR_MODE, sha256Hex, treePath, writeBlob, writeBlobStream } from "../../src/verify/index.ts";
import { bytes, SMALL_TREE, tempDir } from "./helpers.ts";

/** The store folder of a blob path (sha256/<2 hex>/<64 hex> below it). */
const dirOf = (path: string) => dirname(dirname(dirname(path)));

describe("writeBlob", () => {
	it("stores a blob under sha256/<2 hex>/<64 hex> with mode 0444 in 0700 folders, leaving no tmp file", async () => {
		const dir = join(tempDir(), "store");
		const written = await writeBlob(dir, "hello, store");
		expect(written.digest).toBe(sha256Hex("hello, store"));
		expect(written.path).toBe(join(dir, "sha256", written.digest.slice(0, 2), written.digest));
		expect(readFileSync(written.path, "utf8")).toBe("hello, store");
		expect(statSync(written.path).mode & 0o777).toBe(BLOB_MODE);
		for (const folder of [dir, join(dir, "sha256"), join(dir, "sha256", written.digest.slice(0, 2)), join(dir, "tmp")])
			expect(statSync(folder).mode & 0o777).toBe(DIR_MODE);
		expect(readdirSync(join(dir, "tmp"))).toEqual([]);
		expect(written).toMatchObject({ created: true, tree: undefined, size: 12 });
	});

	it("dedupes identical content", async () => {
		const dir = tempDir();
		const first = await writeBlob(dir, bytes(100));
		const second = await writeBlob(dir, bytes(100));
		expect(second).toMatchObject({ digest: first.digest, created: false });
	});

	it("records a chunk tree only for blobs larger than the threshold, also 0444, atomically", async () => {
		const dir = tempDir();
		const small = await writeBlob(dir, bytes(4096), SMALL_TREE);
		expect(small.tree).toBeUndefined();
		expect(() => statSync(treePath(dir, small.digest))).toThrow();
		const large = await writeBlob(dir, bytes(4097, 2), SMALL_TREE);
		expect(large.tree).toMatchObject({ chunkCount: 5, chunkSize: 1024, blobSize: 4097 });
		expect(statSync(treePath(dir, large.digest)).mode & 0o777).toBe(BLOB_MODE);
		expect(readdirSync(join(dir, "tmp"))).toEqual([]);
	});

	it("writeBlobStream stores pieces of any size exactly as writeBlob stores the whole, chunk tree included", async () => {
		const data = bytes(10 * 1024 + 77, 8);
		const whole = await writeBlob(tempDir(), data, SMALL_TREE);
		const dir = tempDir();
		async function* pieces() {
			for (let at = 0; at < data.length; at += 999) yield data.subarray(at, at + 999);
		}
		const streamed = await writeBlobStream(dir, pieces(), SMALL_TREE);
		expect(streamed).toMatchObject({ digest: whole.digest, size: data.length, created: true });
		expect(streamed.tree).toEqual(whole.tree);
		expect(readFileSync(treePath(dir, whole.digest))).toEqual(readFileSync(treePath(dirOf(whole.path), whole.digest)));
		expect(readdirSync(join(dir, "tmp"))).toEqual([]);
		const again = await writeBlobStream(dir, [data], SMALL_TREE);
		expect(again).toMatchObject({ digest: whole.digest, created: false });
		expect(readdirSync(join(dir, "tmp"))).toEqual([]);
		expect((await writeBlobStream(dir, [])).digest).toBe(sha256Hex(""));
	});

	it("rejects unknown options by name", async () => {
		await expect(writeBlob(tempDir(), "x", { chunksize: 4 } as never)).rejects.toThrow(/unknown option.*chunksize/);
	});
});
