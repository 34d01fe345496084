import {
	chmodSync,
	cpSync,
	mkdirSync,
	readdirSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import {
	blobPath,
	blobRelPath,
	chunkDigestsOf,
	encodeTree,
	makeTree,
	NotAStoreError,
	sha256Hex,
	treePath,
	type VerifyProgress,
	type VerifyStoreResult,
	verifyStore,
	writeBlob,
} from "../../src/verify/index.ts";
import { bytes, flipByte, SMALL_TREE, tempDir, truncateTo } from "./helpers.ts";
import { bundleForNobody, canDropPrivileges, runAsNobody } from "./unprivileged.ts";

afterAll(() => closeSharedPools());

/** A store with 12 small blobs and 2 chunk-tree blobs (20 and 9.5 chunks of 1 KiB). */
async function sampleStore(): Promise<{ dir: string; small: string[]; large: string[] }> {
	const dir = tempDir();
	const small: string[] = [];
	for (let i = 0; i < 12; i++) small.push((await writeBlob(dir, bytes(i * 37, i + 1), SMALL_TREE)).digest);
	const large = [
		(await writeBlob(dir, bytes(20 * 1024, 99), SMALL_TREE)).digest,
		(await writeBlob(dir, bytes(9 * 1024 + 512, 98), SMALL_TREE)).digest,
	];
	return { dir, small, large };
}

describe("verifyStore", () => {
	it("passes a clean store, hashing every blob against its name by default", async () => {
		const { dir } = await sampleStore();
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([]);
		expect(result).toMatchObject({ ok: true, mode: "name", blobs: 14, treeBlobs: 0, workers: 0 });
		expect(result.notCheckedByName).toEqual({ blobs: 0, bytes: 0 });
		const tree = await verifyStore(dir, { workers: 0, mode: "tree" });
		expect(tree).toMatchObject({ ok: true, mode: "tree", treeBlobs: 2, bytes: result.bytes });
		expect(tree.notCheckedByName).toEqual({ blobs: 2, bytes: 20 * 1024 + 9 * 1024 + 512 });
	});

	it("catches a blob rewritten together with a recomputed sidecar by default; tree mode says it did not look", async () => {
		const { dir, large } = await sampleStore();
		const digest = large[0] as string;
		const forged = bytes(20 * 1024, 1234);
		const tree = makeTree(digest, 1024, forged.length, chunkDigestsOf(forged, 1024));
		for (const [path, data] of [
			[blobPath(dir, digest), forged],
			[treePath(dir, digest), encodeTree(tree)],
		] as const) {
			chmodSync(path, 0o644);
			writeFileSync(path, data);
			chmodSync(path, 0o444);
		}
		const byName = await verifyStore(dir, { workers: 0 });
		expect(byName.issues).toEqual([
			expect.objectContaining({
				kind: "corrupt",
				digest,
				detail: expect.stringMatching(/does not match its name.*sidecar matches the altered content/),
			}),
		]);
		const bySidecar = await verifyStore(dir, { workers: 0, mode: "tree" });
		expect(bySidecar.ok).toBe(true);
		expect(bySidecar.notCheckedByName.blobs).toBe(2);
		expect((await verifyStore(dir, { workers: 0, mode: "full" })).ok).toBe(false);
	});

	it("names a small blob with a flipped byte as corrupt", async () => {
		const { dir, small } = await sampleStore();
		const digest = small[5] as string;
		flipByte(blobPath(dir, digest), 17);
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.ok).toBe(false);
		expect(result.issues).toEqual([expect.objectContaining({ kind: "corrupt", path: blobRelPath(digest), digest })]);
	});

	it("names the chunk of a tree blob that has a flipped byte", async () => {
		const { dir, large } = await sampleStore();
		const digest = large[0] as string;
		flipByte(blobPath(dir, digest), 7 * 1024 + 3);
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([expect.objectContaining({ kind: "corrupt", digest, badChunks: [7] })]);
	});

	it("names truncated blobs, with and without a chunk tree", async () => {
		const { dir, small, large } = await sampleStore();
		truncateTo(blobPath(dir, small[9] as string), 10);
		truncateTo(blobPath(dir, large[1] as string), 4000);
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.counts.corrupt).toBe(2);
		const tree = result.issues.find((i) => i.digest === large[1]);
		expect(tree?.detail).toMatch(/^truncated: 4000 bytes, sidecar records 9728/);
		expect(result.issues.find((i) => i.digest === small[9])?.detail).toMatch(/SHA-256 mismatch/);
	});

	it("names content stored under the wrong digest as corrupt", async () => {
		const { dir, small } = await sampleStore();
		const wrong = sha256Hex("something else");
		mkdirSync(join(dir, "sha256", wrong.slice(0, 2)), { recursive: true });
		renameSync(blobPath(dir, small[3] as string), blobPath(dir, wrong));
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([expect.objectContaining({ kind: "corrupt", digest: wrong })]);
	});

	it("names misnamed files: not a digest, or in the wrong fan-out folder", async () => {
		const { dir, small } = await sampleStore();
		const digest = small[2] as string;
		const other = digest.slice(0, 2) === "00" ? "01" : "00";
		mkdirSync(join(dir, "sha256", other), { recursive: true });
		renameSync(blobPath(dir, digest), join(dir, "sha256", other, digest));
		writeFileSync(join(dir, "sha256", other, "notes.txt"), "hi");
		writeFileSync(join(dir, "sha256", other, digest.toUpperCase()), "HI");
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.counts.misnamed).toBe(3);
		expect(result.issues.find((i) => i.digest === digest)?.detail).toBe(`belongs in sha256/${digest.slice(0, 2)}/`);
	});

	it("names a missing blob: a sidecar whose blob is gone, and an expected digest that is absent", async () => {
		const { dir, large } = await sampleStore();
		const gone = large[0] as string;
		rmSync(blobPath(dir, gone));
		const referenced = sha256Hex("referenced by a fold record");
		const result = await verifyStore(dir, { workers: 0, expected: [referenced, large[1] as string] });
		expect(result.counts.missing).toBe(2);
		expect(result.issues.map((i) => [i.kind, i.digest])).toEqual(
			expect.arrayContaining([
				["missing", gone],
				["missing", referenced],
			]),
		);
	});

	it("names stray files and folders", async () => {
		const { dir } = await sampleStore();
		writeFileSync(join(dir, "sha256", "README"), "x");
		mkdirSync(join(dir, "sha256", "zz"));
		mkdirSync(join(dir, "sha256", "ab", "nested"), { recursive: true });
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues.filter((i) => i.kind === "stray").map((i) => i.path)).toEqual([
			"sha256/README",
			"sha256/ab/nested",
			"sha256/zz",
		]);
	});

	it("refuses to follow a file symlink or a directory symlink out of the store", async () => {
		const { dir, small } = await sampleStore();
		const outside = tempDir();
		const secret = join(outside, "secret");
		writeFileSync(secret, "outside the store");
		const named = sha256Hex("outside the store");
		mkdirSync(join(dir, "sha256", named.slice(0, 2)), { recursive: true });
		symlinkSync(secret, blobPath(dir, named));
		mkdirSync(join(outside, "ff"));
		writeFileSync(join(outside, "ff", `ff${"0".repeat(62)}`), "x");
		rmSync(join(dir, "sha256", "ff"), { recursive: true, force: true });
		symlinkSync(join(outside, "ff"), join(dir, "sha256", "ff"));
		const result = await verifyStore(dir, { workers: 0, expected: [small[0] as string] });
		expect(result.issues.filter((i) => i.kind === "refused").map((i) => i.path)).toEqual(
			[blobRelPath(named), "sha256/ff"].sort(),
		);
		expect(result.issues.every((i) => i.kind === "refused")).toBe(true);
	});

	it("refuses a sha256/ folder that is itself a symlink", async () => {
		const { dir } = await sampleStore();
		const elsewhere = tempDir();
		renameSync(join(dir, "sha256"), join(elsewhere, "sha256"));
		symlinkSync(join(elsewhere, "sha256"), join(dir, "sha256"));
		const result = await verifyStore(dir, { workers: 0 });
		expect(result.issues).toEqual([{ kind: "refused", path: "sha256", detail: "symlink (not followed)" }]);
		expect(result.blobs).toBe(0);
	});

	it("reports progress that reaches the totals", async () => {
		const { dir } = await sampleStore();
		const seen: VerifyProgress[] = [];
		const result = await verifyStore(dir, { workers: 0, batchBlobs: 3, onProgress: (p) => seen.push(p) });
		const last = seen.at(-1);
		expect(seen.length).toBeGreaterThan(3);
		expect(last).toEqual({ bytesDone: result.bytes, bytesTotal: result.bytes, blobsDone: 14, blobsTotal: 14 });
		for (let i = 1; i < seen.length; i++)
			expect(seen[i]?.bytesDone).toBeGreaterThanOrEqual(seen[i - 1]?.bytesDone ?? 0);
	});

	it("finds the same problems on worker threads as on the calling thread, with either engine", async () => {
		const { dir, small, large } = await sampleStore();
		flipByte(blobPath(dir, small[4] as string), 0);
		flipByte(blobPath(dir, large[0] as string), 19 * 1024 + 5);
		flipByte(blobPath(dir, large[1] as string), 100);
		rmSync(treePath(dir, large[1] as string)); // now verified whole against its name
		const runs = await Promise.all([
			verifyStore(dir, { workers: 0 }),
			verifyStore(dir, { workers: 2, chunksPerTask: 2, batchBlobs: 2 }),
			verifyStore(dir, { workers: 2, engine: "wasm" }),
			verifyStore(dir, { workers: 1, engine: "node", mode: "full" }),
		]);
		const [base, ...others] = runs.map((r) => r.issues.map((i) => [i.kind, i.path, i.badChunks ?? []]));
		expect(base).toHaveLength(3);
		for (const other of others) expect(other).toEqual(base);
	});

	it("passes an empty store", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sha256"));
		expect(await verifyStore(dir)).toMatchObject({ ok: true, blobs: 0, issues: [] });
	});

	it("names an unreadable blob (as an unprivileged user when the tests run as root)", async () => {
		const { dir, small } = await sampleStore();
		const target = blobPath(dir, small[1] as string);
		chmodSync(target, 0o000);
		const expected = [
			expect.objectContaining({ kind: "unreadable", digest: small[1], detail: "cannot read (EACCES)" }),
		];
		if (!canDropPrivileges) {
			expect((await verifyStore(dir, { workers: 0 })).issues).toEqual(expected);
			return;
		}
		// Root reads any file: run the verifier as uid 65534 over a copy of the store in a 0755 folder,
		// its own code bundled there too, with the one blob at mode 0000.
		const { dir: folder, entry } = await bundleForNobody(join(import.meta.dirname, "children", "verify-store.ts"));
		try {
			const store = join(folder, "store");
			cpSync(dir, store, { recursive: true });
			for (const d of [
				store,
				join(store, "sha256"),
				...readdirSync(join(store, "sha256")).map((f) => join(store, "sha256", f)),
			])
				if (statSync(d).isDirectory()) chmodSync(d, 0o755);
			chmodSync(blobPath(store, small[1] as string), 0o000);
			const run = runAsNobody(folder, entry, [store]);
			expect(run.stderr).toBe("");
			const report = JSON.parse(run.stdout) as VerifyStoreResult;
			expect(report.issues).toEqual(expected);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});

	it("rejects a directory that is not a store, and unknown options", async () => {
		await expect(verifyStore(tempDir())).rejects.toBeInstanceOf(NotAStoreError);
		await expect(verifyStore(join(tempDir(), "absent"))).rejects.toThrow(/no such directory/);
		await expect(verifyStore(tempDir(), { wokers: 2 } as never)).rejects.toThrow(/unknown option.*wokers/);
	});
});
