import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedPools } from "../../src/verify/hash-pool.ts";
import { type Task, VerifyPool, verifyStore, writeBlob } from "../../src/verify/index.ts";
import { type PoolSpec, WorkerPool } from "../../src/verify/worker-pool.ts";
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

	describe("the generic pool (src/verify/worker-pool.ts) when a worker dies", () => {
		const entry = { url: pathToFileURL(join(import.meta.dirname, "children", "half-dying-worker.mjs")), argv: [] };
		const spec: PoolSpec<number, number> = {
			name: "test worker",
			mark: "piFoldTestWorker",
			entry: () => entry,
			run: (n) => 2 * n,
			failed: () => -1,
			onFailure: "one",
		};
		const tasks = Array.from({ length: 20 }, (_, i) => i);

		it("hands the tasks a dead worker claimed to the surviving one (onFailure one)", async () => {
			const pool = new WorkerPool(2, spec);
			try {
				await pool.whenReady();
				const outcome = await pool.runBatch(tasks, { callerHelps: false, callerMayFinish: false });
				expect(outcome).toMatchObject({ stopped: null, callerTasks: 0, workerTasks: 20 });
				expect(outcome.results).toEqual(tasks.map((n) => 2 * n));
				expect(pool.liveWorkers).toBe(1);
				expect(pool.degradedReason).toMatch(/^test worker failed \(exited unexpectedly \(code 3\)\)$/);
			} finally {
				await pool.close();
			}
		});

		it("stops a batch the calling thread may not finish when no worker is left, saying why", async () => {
			const pool = new WorkerPool(1, spec);
			try {
				await pool.whenReady();
				// A single worker may have an even thread id and serve: then the batch simply finishes.
				const outcome = await pool.runBatch(tasks, { callerHelps: false, callerMayFinish: false });
				if (pool.liveWorkers === 1) expect(outcome.stopped).toBeNull();
				else {
					expect(outcome.stopped).toMatch(/^no test worker left \(test worker failed \(exited unexpectedly/);
					expect(outcome.callerTasks).toBe(0);
					const finished = await pool.runBatch(tasks, { callerMayFinish: true, callerHelps: false });
					expect(finished.results).toEqual(tasks.map((n) => 2 * n));
					expect(finished.callerTasks).toBe(20);
				}
			} finally {
				await pool.close();
			}
		});
	});
});
