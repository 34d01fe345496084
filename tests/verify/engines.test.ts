import { spawnSync } from "node:child_process";
import { hash } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import {
	createSha256,
	engineCalibration,
	hashFile,
	setEngineCalibration,
	sha256,
	sha256Hex,
	sha256Many,
	VerifyPool,
	writeBlob,
} from "../../src/verify/index.ts";
import { manyEngine, sha256Chunks } from "../../src/wasm/index.ts";
import { bytes, SMALL_TREE, tempDir } from "./helpers.ts";

afterAll(() => closeSharedPools());

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reference = (b: Uint8Array | string) => hash("sha256", typeof b === "string" ? Buffer.from(b) : b, "hex");

describe("the Wasm and node:crypto engines", () => {
	it("agree on random single messages, including the 55/56/64-byte block edges", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
				const want = reference(data);
				expect(hex(sha256(data, { engine: "node" }))).toBe(want);
				expect(hex(sha256(data, { engine: "wasm" }))).toBe(want);
				expect(hex(sha256(data))).toBe(want);
			}),
			{ numRuns: 300 },
		);
	});

	it("agree on random batches of mixed lengths, including empty inputs", () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 80 })), { maxLength: 40 }),
				(inputs) => {
					const want = inputs.map(reference);
					expect(sha256Many(inputs, { engine: "node" }).map(hex)).toEqual(want);
					expect(sha256Many(inputs, { engine: "wasm" }).map(hex)).toEqual(want);
					expect(sha256Many(inputs).map(hex)).toEqual(want);
				},
			),
			{ numRuns: 100 },
		);
	});

	it("agree on chunk digests for random data and chunk sizes", () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 1, maxLength: 5000 }), fc.integer({ min: 1, max: 1500 }), (data, size) => {
				const node = sha256Chunks(data, size, { engine: "node" });
				expect(node.length).toBe(Math.ceil(data.length / size) * 32);
				expect(hex(sha256Chunks(data, size, { engine: "wasm" }))).toBe(hex(node));
				expect(hex(sha256Chunks(data, size))).toBe(hex(node));
				expect(hex(node.subarray(0, 32))).toBe(reference(data.subarray(0, size)));
			}),
			{ numRuns: 100 },
		);
	});

	it("agree on streams fed in random pieces", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(2000), { maxLength: 6 }), (data, cuts) => {
				const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
				for (const engine of ["node", "wasm"] as const) {
					const h = createSha256({ engine });
					let at = 0;
					for (const p of [...points, data.length]) {
						h.update(data.subarray(at, p));
						at = p;
					}
					expect(h.digestHex()).toBe(reference(data));
				}
			}),
			{ numRuns: 100 },
		);
	});

	it("calibration picks an engine per shape, and a batch follows its cost model", () => {
		const c = engineCalibration();
		expect(["node", "wasm"]).toContain(c.stream);
		expect(["node", "wasm"]).toContain(c.chunks);
		setEngineCalibration({
			...c,
			many: { node: { perCall: 0.001, perByte: 0 }, wasm: { perCall: 0, perByte: 0.000001 } },
		});
		try {
			expect(manyEngine("auto", 1000, 64 * 1000)).toBe("wasm");
			expect(manyEngine("auto", 10, 10 * 65536)).toBe("node");
			expect(manyEngine("node", 1000, 64)).toBe("node");
		} finally {
			setEngineCalibration(c);
		}
	});
});

describe("hashing bytes, strings and files", () => {
	it("sha256 / sha256Hex / createSha256 / hashFile agree with node:crypto", async () => {
		const data = bytes(3 * 1024 * 1024 + 17, 5);
		const want = reference(data);
		expect(hex(sha256(data))).toBe(want);
		expect(sha256Hex(data)).toBe(want);
		expect(sha256Hex("héllo")).toBe(reference("héllo"));
		expect(createSha256().update(data.subarray(0, 5)).update(data.subarray(5)).digestHex()).toBe(want);
		const path = join(tempDir(), "file.bin");
		writeFileSync(path, data);
		const seen: number[] = [];
		expect(await hashFile(path, { readSize: 1 << 20, onProgress: (done) => seen.push(done) })).toBe(want);
		expect(seen.at(-1)).toBe(data.length);
		expect(seen.length).toBe(4);
	});

	it("a finished hasher refuses more input", () => {
		const h = createSha256();
		h.digest();
		expect(() => h.update("x")).toThrow(/after digest/);
	});
});

describe("the worker pool", () => {
	it("gives the same results on worker threads as on the calling thread", async () => {
		const dir = tempDir();
		const paths: string[] = [];
		for (let i = 0; i < 20; i++) paths.push((await writeBlob(dir, bytes(i * 300 + 1, i + 3), SMALL_TREE)).path);
		const batch = { kind: "batch", paths, maxBuffered: 4000, streamEngine: "node", readSize: 1000 } as const;
		const last = paths[19] as string;
		const tasks = [
			{ ...batch, engine: "wasm" },
			{ ...batch, engine: "node" },
			{ kind: "chunks", path: last, offset: 1024, length: 3000, chunkSize: 1024, blobSize: 5701, engine: "wasm" },
			{ kind: "file", path: paths[10] as string, readSize: 100, engine: "node" },
		] as const;
		const inThread = new VerifyPool(0);
		const threads = new VerifyPool(2);
		try {
			await threads.whenReady();
			const a = await Promise.all(tasks.map((t) => inThread.run(t)));
			const b = await Promise.all(tasks.map((t) => threads.run(t)));
			expect(b).toEqual(a);
			expect(threads.workerTasks).toBe(tasks.length);
			expect(threads.inThreadTasks).toBe(0);
			expect(hex(a[0]?.digests as Uint8Array)).toBe(hex(a[1]?.digests as Uint8Array));
		} finally {
			await Promise.all([inThread.close(), threads.close()]);
		}
	});

	it("falls back to the calling thread when a worker cannot start, and still returns results", async () => {
		const dir = tempDir();
		const path = (await writeBlob(dir, bytes(5000, 4))).path;
		const broken = join(tempDir(), "broken-worker.mjs");
		writeFileSync(broken, "throw new Error('cannot load Pi here');\n");
		const pool = new VerifyPool(2, { entry: { url: pathToFileURL(broken), argv: [] } });
		try {
			const task = { kind: "file", path, readSize: 1024, engine: "node" } as const;
			const results = await Promise.all([pool.run(task), pool.run(task), pool.run(task)]);
			for (const r of results) expect(hex(r.digests)).toBe(reference(bytes(5000, 4)));
			await new Promise((resolve) => setTimeout(resolve, 300)); // let the workers fail
			expect((await pool.run(task)).bytesRead).toBe(5000);
			expect(pool.degradedReason).toMatch(/cannot load Pi here.*calling thread/);
			expect(pool.workerTasks).toBe(0);
		} finally {
			await pool.close();
		}
	});

	it("runs its worker threads from the bundled build/verify.js (workers load build/verify-worker.js)", async () => {
		const bundle = join(process.cwd(), "build", "verify.js");
		expect(existsSync(bundle), "build/verify.js is missing: run npm run build").toBe(true);
		const dir = tempDir();
		await writeBlob(dir, bytes(64 * 1024, 9), SMALL_TREE);
		for (let i = 0; i < 30; i++) await writeBlob(dir, bytes(i * 50, i + 1), SMALL_TREE);
		const script = `
			const m = await import(${JSON.stringify(bundle)});
			const r = await m.verifyStore(${JSON.stringify(dir)}, { workers: 2, minParallelBytes: 0, mode: "full", chunksPerTask: 4, batchBlobs: 5 });
			console.log(JSON.stringify({ ok: r.ok, blobs: r.blobs, tasks: r.tasks }));`;
		const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
			encoding: "utf8",
			env: { ...process.env, PI_FOLD_POOL_HELP: "0" },
		});
		expect(child.stderr).toBe("");
		const out = JSON.parse(child.stdout) as { ok: boolean; blobs: number; tasks: { worker: number; caller: number } };
		expect(out).toMatchObject({ ok: true, blobs: 31, tasks: { caller: 0 } });
		expect(out.tasks.worker).toBeGreaterThan(10);
	});
});
