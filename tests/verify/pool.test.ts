import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import { type Task, VerifyPool, verifyStore, writeBlob } from "../../src/verify/index.ts";
import { bytes, SMALL_TREE, tempDir } from "./helpers.ts";

afterAll(() => closeSharedPools());

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reference = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function files(count: number): Promise<{ paths: string[]; data: Uint8Array[] }> {
	const dir = tempDir();
	const data = Array.from({ length: count }, (_, i) => bytes(1000 + i * 97, i + 1));
	const paths: string[] = [];
	for (const d of data) paths.push((await writeBlob(dir, d)).path);
	return { paths, data };
}

const fileTask = (path: string): Task => ({ kind: "file", path, readSize: 512, engine: "node" });

describe("the batch pool", () => {
	it("returns every result in task order, the calling thread and the workers sharing the claims", async () => {
		const { paths, data } = await files(40);
		const pool = new VerifyPool(1);
		try {
			await pool.whenReady();
			const seen: number[] = [];
			const outcome = await pool.runBatch(paths.map(fileTask), { onResult: (i) => seen.push(i) });
			expect(outcome.results.map((r) => hex(r.digests))).toEqual(data.map(reference));
			expect(outcome.callerTasks + outcome.workerTasks).toBe(40);
			expect(seen.sort((a, b) => a - b)).toEqual(paths.map((_, i) => i));
			const workersOnly = await pool.runBatch(paths.map(fileTask), { callerHelps: false });
			expect(workersOnly).toMatchObject({ callerTasks: 0, workerTasks: 40 });
		} finally {
			await pool.close();
		}
	});

	it("reruns on the calling thread a task whose worker died after claiming it", async () => {
		const { paths, data } = await files(6);
		const entry = { url: pathToFileURL(join(import.meta.dirname, "children", "dying-worker.mjs")), argv: [] };
		const pool = new VerifyPool(2, { entry });
		try {
			await pool.whenReady();
			const outcome = await pool.runBatch(paths.map(fileTask), { callerHelps: false });
			expect(outcome.results.map((r) => hex(r.digests))).toEqual(data.map(reference));
			expect(outcome.callerTasks).toBe(6);
			expect(pool.degradedReason).toMatch(/exited unexpectedly \(code 3\).*calling thread/);
		} finally {
			await pool.close();
		}
	});

	it("starts no worker for a store below minParallelBytes, and workers once the scan's estimate reaches it", async () => {
		const dir = tempDir();
		await writeBlob(dir, bytes(20 * 1024, 5), SMALL_TREE);
		for (let i = 0; i < 20; i++) await writeBlob(dir, bytes(100 + i, i + 9), SMALL_TREE);
		const small = await verifyStore(dir, { workers: 2 });
		expect(small).toMatchObject({ ok: true, workers: 0, tasks: { worker: 0 } });
		const forced = await verifyStore(dir, { workers: 2, minParallelBytes: 1 });
		expect(forced).toMatchObject({ ok: true, workers: 2 });
		expect(forced.tasks.worker + forced.tasks.caller).toBeGreaterThan(0);
	});
});
