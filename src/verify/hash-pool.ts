// A small pool of verification worker threads. Work is handed out as a batch: the task list goes to
// every worker once, with a SharedArrayBuffer whose first slot is the index of the next unclaimed
// task; each thread claims the next index with one atomic add, runs it and posts its result. The
// calling thread claims from the same counter (yielding to the event loop between tasks), so hashing
// starts at once while workers boot, no task waits for a message round trip, and the slowest thread
// determines the end only by one task. Size 0 runs everything on the calling thread with the same
// code. Workers load a minimal bundle (build/verify-worker.js) or verify-worker.ts from sources; see
// workerEntry. A worker keeps the process alive only while a batch is running; a shared pool shuts
// down after DEFAULT_POOL_IDLE_MS without work. No file I/O here (tasks.ts reads).

import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { runTask, Scratch, type Task, type TaskResult } from "./tasks.ts";
import { DEFAULT_WORKERS } from "./verify-options.ts";
import { WORKER_ARGV, WORKER_MARK } from "./verify-worker.ts";

/** PI_FOLD_POOL_HELP=0 stops the calling thread from running tasks (diagnostics, tests). */
const CALLER_HELPS = process.env.PI_FOLD_POOL_HELP !== "0";

/**
 * V8 heap limits of a worker: its JS objects are a task list and small results (read buffers live
 * outside the heap), so a small young generation keeps each worker's resident memory down; a worker
 * that ever outgrew them would die, and the pool would finish on the calling thread.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 96 };

/** A shared pool terminates its workers after this long without work (30 s). */
export const DEFAULT_POOL_IDLE_MS = 30_000;

/** A worker thread's entry module and the argv it is started with. */
export interface WorkerEntry {
	url: URL;
	argv: string[];
}

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

interface Slot {
	id: number;
	worker: Worker;
	ready: boolean;
}

interface Batch {
	id: number;
	tasks: readonly Task[];
	/** [0] = next unclaimed index; [1 + i] = who claimed task i (1 = caller, slot id + 2 = a worker). */
	shared: Int32Array;
	results: (TaskResult | undefined)[];
	remaining: number;
	callerHelps: boolean;
	helping: boolean;
	/** Tasks claimed by a worker that died before answering: the caller reruns them. */
	orphans: number[];
	outcome: BatchOutcome;
	onResult: BatchOptions["onResult"];
	resolve(outcome: BatchOutcome): void;
	reject(error: Error): void;
}

const CALLER = 1;

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
export class VerifyPool {
	readonly size: number;
	private readonly slots: Slot[] = [];
	private readonly batches = new Map<number, Batch>();
	private readonly scratch = new Scratch();
	private readonly idleCloseMs: number | undefined;
	private idleTimer: NodeJS.Timeout | undefined;
	private degraded: string | undefined;
	private closed = false;
	private nextBatch = 1;
	/** Tasks the calling thread ran. */
	inThreadTasks = 0;
	/** Tasks the worker threads ran. */
	workerTasks = 0;

	/**
	 * `idleCloseMs`: close automatically after this long without work (default: never).
	 * `entry`: the worker module (default workerEntry(); tests substitute a failing one).
	 * Workers start booting at once, in parallel with whatever the caller does next.
	 */
	constructor(size: number = DEFAULT_WORKERS, options: { idleCloseMs?: number; entry?: WorkerEntry } = {}) {
		if (!Number.isInteger(size) || size < 0)
			throw new TypeError(`VerifyPool: size must be an integer >= 0, got ${size}`);
		this.size = size;
		this.idleCloseMs = options.idleCloseMs;
		const entry = size > 0 ? (options.entry ?? workerEntry()) : undefined;
		for (let i = 0; i < size && entry; i++) this.slots.push(this.spawn(i, entry));
		this.armIdleTimer();
	}

	/** Why the pool fell back to the calling thread (a worker failed to start or died), if it did. */
	get degradedReason(): string | undefined {
		return this.degraded;
	}

	/** True once close() ran (or an idle shared pool shut itself down). */
	get isClosed(): boolean {
		return this.closed;
	}

	private spawn(id: number, entry: WorkerEntry): Slot {
		// Inherit the parent's Node flags except those a worker rejects (--input-type of `node -e`).
		const execArgv = process.execArgv.filter((flag) => !flag.startsWith("--input-type"));
		const worker = new Worker(entry.url, {
			workerData: { [WORKER_MARK]: true },
			argv: entry.argv,
			execArgv,
			resourceLimits: WORKER_LIMITS,
		});
		const slot: Slot = { id, worker, ready: false };
		worker.on("message", (m: { ready?: true; batch?: number; index?: number; result?: TaskResult }) => {
			if (m.ready) slot.ready = true;
			else if (m.batch !== undefined && m.index !== undefined && m.result)
				this.record(this.batches.get(m.batch), m.index, m.result, false);
		});
		worker.on("error", (error) => this.fail(error instanceof Error ? error : new Error(String(error))));
		worker.on("exit", (code) => {
			if (!this.closed) this.fail(new Error(`verification worker exited unexpectedly (code ${code})`));
		});
		if (this.batches.size === 0) worker.unref(); // after the listeners: a "message" listener refs the port
		return slot;
	}

	/**
	 * A worker failed to start or died: terminate the others and finish every running batch on the
	 * calling thread (tasks a dead worker claimed but never answered are run again; tasks only read
	 * and hash, so that is safe). The caller gets results, not an error.
	 */
	private fail(error: Error): void {
		if (this.degraded !== undefined || this.closed) return;
		this.degraded = `verification worker failed (${error.message}); hashing on the calling thread`;
		for (const slot of this.slots.splice(0)) {
			slot.worker.removeAllListeners("message");
			slot.worker.removeAllListeners("exit");
			slot.worker.on("error", () => {});
			void slot.worker.terminate();
		}
		for (const batch of this.batches.values()) {
			// Between two caller steps every task the caller claimed has its result, so a claimed task
			// without one belongs to a worker that is now gone.
			const claimed = Math.min(Atomics.load(batch.shared, 0), batch.tasks.length);
			for (let i = 0; i < claimed; i++)
				if (batch.results[i] === undefined && !batch.orphans.includes(i)) batch.orphans.push(i);
			batch.callerHelps = true;
			this.help(batch);
		}
	}

	/** Runs `tasks` on the workers and (by default) the calling thread; resolves with every result, in order. */
	runBatch(tasks: readonly Task[], options: BatchOptions = {}): Promise<BatchOutcome> {
		if (this.closed) return Promise.reject(new Error("VerifyPool: runBatch() called after close()"));
		const outcome: BatchOutcome = { results: [], callerTasks: 0, workerTasks: 0 };
		if (tasks.length === 0) return Promise.resolve(outcome);
		return new Promise<BatchOutcome>((resolve, reject) => {
			const batch: Batch = {
				id: this.nextBatch++,
				tasks,
				shared: new Int32Array(new SharedArrayBuffer(4 * (tasks.length + 1))),
				results: new Array(tasks.length).fill(undefined),
				remaining: tasks.length,
				callerHelps: (options.callerHelps ?? CALLER_HELPS) || this.slots.length === 0,
				helping: false,
				orphans: [],
				outcome,
				onResult: options.onResult,
				resolve,
				reject,
			};
			this.batches.set(batch.id, batch);
			this.refWorkers(true);
			if (this.idleTimer) clearTimeout(this.idleTimer);
			for (const slot of this.slots)
				slot.worker.postMessage({ batch: batch.id, tasks, shared: batch.shared.buffer, claimant: slot.id + 2 });
			if (batch.callerHelps) this.help(batch);
		});
	}

	/** Queues one task; resolves with its result (a batch of one). */
	async run(task: Task): Promise<TaskResult> {
		const ready = this.slots.some((s) => s.ready);
		const { results } = await this.runBatch([task], { callerHelps: !ready && CALLER_HELPS });
		return results[0] as TaskResult;
	}

	/** The calling thread claims and runs tasks of `batch` (orphans first), yielding between tasks. */
	private help(batch: Batch): void {
		if (batch.helping) return;
		batch.helping = true;
		const step = (): void => {
			if (!this.batches.has(batch.id)) return;
			let index = batch.orphans.shift();
			if (index === undefined) {
				const claimed = Atomics.add(batch.shared, 0, 1);
				if (claimed < batch.tasks.length) {
					index = claimed;
					Atomics.store(batch.shared, 1 + claimed, CALLER);
				}
			}
			if (index === undefined) {
				batch.helping = false;
				return;
			}
			let result: TaskResult;
			try {
				result = runTask(batch.tasks[index] as Task, this.scratch);
			} catch (error) {
				this.finish(batch, error instanceof Error ? error : new Error(String(error)));
				return;
			}
			this.record(batch, index, result, true);
			setImmediate(step); // let worker messages, progress and timers run between tasks
		};
		step();
	}

	private record(batch: Batch | undefined, index: number, result: TaskResult, caller: boolean): void {
		if (!batch || batch.results[index] !== undefined) return;
		batch.results[index] = result;
		batch.remaining--;
		if (caller) {
			batch.outcome.callerTasks++;
			this.inThreadTasks++;
		} else {
			batch.outcome.workerTasks++;
			this.workerTasks++;
		}
		try {
			batch.onResult?.(index, result);
		} catch (error) {
			this.finish(batch, error instanceof Error ? error : new Error(String(error)));
			return;
		}
		if (batch.remaining === 0) this.finish(batch);
	}

	private finish(batch: Batch, error?: Error): void {
		if (!this.batches.delete(batch.id)) return;
		Atomics.store(batch.shared, 0, batch.tasks.length); // nobody claims more
		if (error) batch.reject(error);
		else {
			batch.outcome.results = batch.results as TaskResult[];
			batch.resolve(batch.outcome);
		}
		if (this.batches.size === 0) {
			this.refWorkers(false);
			this.armIdleTimer();
		}
	}

	/** Workers keep the process alive exactly while a batch is running. */
	private refWorkers(on: boolean): void {
		for (const slot of this.slots) {
			if (on) slot.worker.ref();
			else slot.worker.unref();
		}
	}

	private armIdleTimer(): void {
		if (this.idleCloseMs === undefined || this.closed || this.slots.length === 0) return;
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => void this.close(), this.idleCloseMs);
		this.idleTimer.unref();
	}

	/** Resolves once every worker is ready to take tasks (rejects if one fails to start). */
	whenReady(): Promise<void> {
		return new Promise((resolve, reject) => {
			const check = (): void => {
				if (this.degraded !== undefined) reject(new Error(this.degraded));
				else if (this.slots.every((s) => s.ready)) resolve();
				else setTimeout(check, 5);
			};
			check();
		});
	}

	/** Terminates the workers; a batch still running is rejected. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		if (this.idleTimer) clearTimeout(this.idleTimer);
		for (const batch of [...this.batches.values()]) this.finish(batch, new Error("VerifyPool closed during a batch"));
		await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
	}
}

const shared = new Map<number, VerifyPool>();

/**
 * The process-wide pool of `size` workers, started on first use and kept warm between calls
 * (it shuts down after DEFAULT_POOL_IDLE_MS idle and restarts on demand).
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
