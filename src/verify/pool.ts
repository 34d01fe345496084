// A small pool of verification worker threads with a shared task queue (each worker pulls the next
// task when it finishes one, so uneven tasks balance). While no worker is ready yet (start-up takes
// ~50 ms, parsing the bundle), the calling thread runs queued tasks itself, so work starts at once.
// Size 0 runs every task on the calling thread with the same code. Works from TS sources (spawns
// worker.ts; Node 22 strips types) and from a bundle (the bundle re-spawns its own file, marked by
// workerData; see worker.ts). Idle workers are unref'd (they never keep a process alive) and a
// shared pool shuts down after DEFAULT_POOL_IDLE_MS without work. No file I/O here.

import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { DEFAULT_WORKERS } from "./options.ts";
import { runTask, Scratch, type Task, type TaskResult } from "./tasks.ts";
import { WORKER_ARGV, WORKER_MARK } from "./worker.ts";

/** PI_FOLD_POOL_HELP=0 stops the calling thread from running tasks while workers start (diagnostics, tests). */
const CALLER_HELPS = process.env.PI_FOLD_POOL_HELP !== "0";

/** A shared pool terminates its workers after this long without work (30 s). */
export const DEFAULT_POOL_IDLE_MS = 30_000;

interface Job {
	task: Task;
	resolve(result: TaskResult): void;
	reject(error: Error): void;
}

interface Slot {
	worker: Worker;
	ready: boolean;
	job: Job | undefined;
}

/** A worker thread's entry module and the argv it is started with. */
export interface WorkerEntry {
	url: URL;
	argv: string[];
}

/**
 * Where a worker comes from: worker.ts next to this file (sources); in a bundle, the sibling
 * verify.js when this is another bundle (the extension's imports Pi, which a worker neither needs
 * nor can always resolve), else the bundle file itself (marked by workerData; see worker.ts).
 */
export function workerEntry(): WorkerEntry {
	const here = import.meta.url;
	if (here.endsWith(".ts")) return { url: new URL("./worker.ts", here), argv: [] };
	const self = new URL(here);
	const name = self.pathname.slice(self.pathname.lastIndexOf("/") + 1);
	const sibling = new URL("./verify.js", self);
	if (name !== "verify.js" && name !== "cli.js" && existsSync(sibling)) return { url: sibling, argv: [] };
	return { url: self, argv: WORKER_ARGV };
}

/** Runs verification tasks on `size` worker threads (0 = the calling thread). Close it when done. */
export class VerifyPool {
	readonly size: number;
	private readonly slots: Slot[] = [];
	private readonly queue: Job[] = [];
	private readonly scratch = new Scratch();
	private readonly idleCloseMs: number | undefined;
	private idleTimer: NodeJS.Timeout | undefined;
	private degraded: string | undefined;
	private closed = false;
	private helping = false;
	/** Tasks the calling thread ran itself (start-up help or size 0). */
	inThreadTasks = 0;
	/** Tasks the worker threads ran. */
	workerTasks = 0;

	/**
	 * `idleCloseMs`: close automatically after this long without work (default: never).
	 * `entry`: the worker module (default workerEntry(); tests substitute a failing one).
	 */
	constructor(size: number = DEFAULT_WORKERS, options: { idleCloseMs?: number; entry?: WorkerEntry } = {}) {
		if (!Number.isInteger(size) || size < 0)
			throw new TypeError(`VerifyPool: size must be an integer >= 0, got ${size}`);
		this.size = size;
		this.idleCloseMs = options.idleCloseMs;
		const entry = size > 0 ? (options.entry ?? workerEntry()) : undefined;
		for (let i = 0; i < size && entry; i++) this.slots.push(this.spawn(entry));
	}

	/** Why the pool fell back to the calling thread (a worker failed to start or died), if it did. */
	get degradedReason(): string | undefined {
		return this.degraded;
	}

	/** True once close() ran (or an idle shared pool shut itself down). */
	get isClosed(): boolean {
		return this.closed;
	}

	private spawn(entry: { url: URL; argv: string[] }): Slot {
		// Inherit the parent's Node flags except those a worker rejects (--input-type of `node -e`).
		const execArgv = process.execArgv.filter((flag) => !flag.startsWith("--input-type"));
		// No stdout capture: a piped worker stdout keeps the process alive even when unref'd. A bundled
		// CLI worker prints nothing (WORKER_ARGV routes it to `verify`, which idles).
		const worker = new Worker(entry.url, { workerData: { [WORKER_MARK]: true }, argv: entry.argv, execArgv });
		const slot: Slot = { worker, ready: false, job: undefined };
		worker.on("message", (message: { ready?: true; result?: TaskResult; error?: string }) => {
			if (message.ready) {
				slot.ready = true;
				this.pump();
				return;
			}
			const job = slot.job;
			slot.job = undefined;
			this.workerTasks++;
			if (job) {
				if (message.error !== undefined) job.reject(new Error(message.error));
				else job.resolve(message.result as TaskResult);
			}
			this.pump();
		});
		worker.on("error", (error) => this.fail(error instanceof Error ? error : new Error(String(error))));
		worker.on("exit", (code) => {
			if (!this.closed) this.fail(new Error(`verification worker exited unexpectedly (code ${code})`));
		});
		worker.unref(); // after the listeners: adding a "message" listener refs the port again
		return slot;
	}

	/**
	 * A worker failed to start or died: terminate the others, put their in-flight tasks back at the
	 * front of the queue, and run everything on the calling thread from now on. Tasks only read and
	 * hash, so running one again is safe; the caller gets results, not an error.
	 */
	private fail(error: Error): void {
		if (this.degraded !== undefined || this.closed) return;
		this.degraded = `verification worker failed (${error.message}); hashing on the calling thread`;
		const slots = this.slots.splice(0);
		for (const slot of slots) {
			if (slot.job) this.queue.unshift(slot.job);
			slot.job = undefined;
			slot.worker.removeAllListeners("message");
			slot.worker.removeAllListeners("exit");
			slot.worker.on("error", () => {});
			void slot.worker.terminate();
		}
		this.pump();
	}

	private pump(): void {
		for (const slot of this.slots) {
			if (!slot.ready || slot.job) continue;
			const job = this.queue.shift();
			if (!job) break;
			slot.job = job;
			slot.worker.postMessage({ task: job.task });
		}
		const inThreadOnly = this.size === 0 || this.degraded !== undefined;
		if (this.queue.length > 0 && !this.slots.some((s) => s.ready) && (inThreadOnly || CALLER_HELPS)) this.help();
		// A worker keeps the process alive only while it runs a task or work waits for it to start.
		for (const slot of this.slots) {
			if (slot.job || (!slot.ready && this.queue.length > 0)) slot.worker.ref();
			else slot.worker.unref();
		}
		this.armIdleTimer();
	}

	/** Runs queued tasks on this thread while no worker is ready (all of them when size is 0). */
	private help(): void {
		if (this.helping) return;
		this.helping = true;
		const step = (): void => {
			const job = this.slots.some((s) => s.ready) ? undefined : this.queue.shift();
			if (!job) {
				this.helping = false;
				this.pump();
				return;
			}
			this.inThreadTasks++;
			try {
				job.resolve(runTask(job.task, this.scratch));
			} catch (error) {
				job.reject(error instanceof Error ? error : new Error(String(error)));
			}
			setImmediate(step); // let worker messages, progress callbacks and timers run between tasks
		};
		setImmediate(step);
	}

	private armIdleTimer(): void {
		if (this.idleCloseMs === undefined || this.closed) return;
		const busy = this.queue.length > 0 || this.helping || this.slots.some((s) => s.job);
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
		if (busy) return;
		this.idleTimer = setTimeout(() => void this.close(), this.idleCloseMs);
		this.idleTimer.unref();
	}

	/** Queues a task; resolves with its result. */
	run(task: Task): Promise<TaskResult> {
		if (this.closed) return Promise.reject(new Error("VerifyPool: run() called after close()"));
		return new Promise<TaskResult>((resolve, reject) => {
			this.queue.push({ task, resolve, reject });
			this.pump();
		});
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

	/** Terminates the workers. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		if (this.idleTimer) clearTimeout(this.idleTimer);
		await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
	}
}

const shared = new Map<number, VerifyPool>();

/**
 * The process-wide pool of `size` workers, started on first use and kept warm between calls
 * (unref'd; it shuts down after DEFAULT_POOL_IDLE_MS idle and restarts on demand).
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
