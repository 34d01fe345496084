// The verifier's worker pool, one job: run verification tasks (tasks.ts) on the generic worker pool
// (worker-pool.ts) with the calling thread helping, and say where its workers come from. Workers load
// a minimal bundle (build/verify-worker.js) or verify-worker.ts from sources; see workerEntry. A
// worker that fails ends the others and the calling thread finishes the work (what broke one would
// break the next). The process-wide pools (sharedPool) stay warm between calls; their workers exit
// after DEFAULT_POOL_IDLE_MS without work and come back on demand. No file I/O here (tasks.ts reads).

import { existsSync } from "node:fs";
import { runTask, Scratch, type Task, type TaskResult, taskFailure } from "./tasks.ts";
import { DEFAULT_WORKERS } from "./verify-options.ts";
import { WORKER_ARGV, WORKER_MARK } from "./verify-worker.ts";
import { type PoolBatchOptions, type PoolOptions, type WorkerEntry, WorkerPool } from "./worker-pool.ts";

export type { WorkerEntry } from "./worker-pool.ts";

/** PI_FOLD_POOL_HELP=0 stops the calling thread from running tasks (diagnostics, tests). */
const CALLER_HELPS = process.env.PI_FOLD_POOL_HELP !== "0";

/**
 * V8 heap limits of a worker: its JS objects are a task list and small results (read buffers live
 * outside the heap), so a small young generation keeps each worker's resident memory down; a worker
 * that ever outgrew them would die, and the pool would finish on the calling thread.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 96 };

/** A shared pool's workers exit after this long without work (30 s). */
export const DEFAULT_POOL_IDLE_MS = 30_000;

/** What a batch produced, and where its tasks ran. */
export interface BatchOutcome {
	results: TaskResult[];
	callerTasks: number;
	workerTasks: number;
}

/** Options of runBatch: `callerHelps` (default true unless PI_FOLD_POOL_HELP=0); `onResult` per finished task. */
export interface BatchOptions {
	callerHelps?: boolean;
	onResult?: (index: number, result: TaskResult) => void;
}

/**
 * Where a worker comes from: verify-worker.ts next to this file (sources); in a bundle, the minimal
 * verify-worker.js beside it (or one folder up, for bundles kept in a sub-folder); failing that, the
 * sibling verify.js when this is another bundle, else the bundle file itself (marked by workerData).
 */
export function workerEntry(): WorkerEntry {
	const here = import.meta.url;
	if (here.endsWith(".ts")) return { url: new URL("./verify-worker.ts", here), argv: [] };
	for (const candidate of ["./verify-worker.js", "../verify-worker.js"]) {
		const url = new URL(candidate, here);
		if (existsSync(url)) return { url, argv: [] };
	}
	const self = new URL(here);
	const name = self.pathname.slice(self.pathname.lastIndexOf("/") + 1);
	const sibling = new URL("./verify.js", self);
	if (name !== "verify.js" && name !== "cli.js" && existsSync(sibling)) return { url: sibling, argv: [] };
	return { url: self, argv: WORKER_ARGV };
}

/** Runs verification tasks on `size` worker threads plus the calling thread. Close it when done. */
export class VerifyPool extends WorkerPool<Task, TaskResult> {
	/**
	 * `idleCloseMs`: end the workers after this long without work (default: never; the next batch
	 * starts new ones). `entry`: the worker module (default workerEntry(); tests substitute a failing one).
	 */
	constructor(size: number = DEFAULT_WORKERS, options: PoolOptions = {}) {
		const scratch = new Scratch();
		super(
			size,
			{
				name: "verification worker",
				mark: WORKER_MARK,
				entry: workerEntry,
				run: (task) => runTask(task, scratch),
				failed: (_task, message) => taskFailure(message),
				resourceLimits: WORKER_LIMITS,
				onFailure: "all",
			},
			options,
		);
	}

	/** Tasks the calling thread ran. */
	get inThreadTasks(): number {
		return this.callerTasks;
	}

	/** Runs `tasks` on the workers and (by default) the calling thread; resolves with every result, in order. */
	override runBatch(tasks: readonly Task[], options: BatchOptions & PoolBatchOptions<TaskResult> = {}) {
		const run = super.runBatch(tasks, { callerHelps: CALLER_HELPS, ...options });
		return run as Promise<BatchOutcome & { stopped: string | null }>;
	}

	/** Queues one task; resolves with its result (a batch of one). */
	async run(task: Task): Promise<TaskResult> {
		const { results } = await this.runBatch([task], { callerHelps: !this.anyReady && CALLER_HELPS });
		return results[0] as TaskResult;
	}
}

const shared = new Map<number, VerifyPool>();

/**
 * The process-wide pool of `size` workers, started on first use and kept warm between calls
 * (its workers exit after DEFAULT_POOL_IDLE_MS idle and start again on demand).
 */
export function sharedPool(size: number = DEFAULT_WORKERS): VerifyPool {
	let pool = shared.get(size);
	if (!pool || pool.isClosed) {
		pool = new VerifyPool(size, { idleCloseMs: DEFAULT_POOL_IDLE_MS });
		shared.set(size, pool);
	}
	return pool;
}

/** Shuts down every shared pool now (tests, or a host that wants its threads back). */
export async function closeSharedPools(): Promise<void> {
	const pools = [...shared.values()];
	shared.clear();
	await Promise.all(pools.map((p) => p.close()));
}
