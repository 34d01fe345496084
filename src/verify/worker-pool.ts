// The worker pool, one job: run a list of tasks on a few worker threads (and on the calling thread
// when the caller allows it), every result delivered in task order. The verifier's hashing
// (hash-pool.ts) and the fold store's search (src/store/search/search-pool.ts) both run on it; what a
// task is, where a worker comes from and what a failed task answers is theirs (PoolSpec).
//
// A batch goes to every worker once, with a SharedArrayBuffer whose slot 0 is the next unclaimed
// index; each thread claims one index per atomic add, runs the task and posts its result
// (pool-worker.ts). A helping calling thread claims from the same counter, yielding between tasks, so
// work starts while workers boot, no task waits for a round trip, and threads end within one task of
// each other. A failed worker's claimed tasks go to a surviving worker or the calling thread (with
// onFailure "all" the others end too); with no worker left the calling thread finishes the batch if
// it may, else the batch stops and says why. Tasks only read, so one may run twice after a failure:
// the first result counts. A time limit ends the workers (a runaway regex stops with its thread) and
// returns what finished; the next batch starts new workers, as after idleCloseMs without work.
// Workers keep the process alive only while a batch runs. No file I/O here (tasks do theirs).

import { type ResourceLimits, Worker } from "node:worker_threads";
import { type AssignMessage, type BatchMessage, CALLER_CLAIMANT, runSafely, type WorkerReply } from "./pool-worker.ts";

/** A worker thread's entry module and the argv it is started with. */
export interface WorkerEntry {
	url: URL;
	argv: string[];
}

/** What a pool runs and how: the part that differs between the verifier and the search. */
export interface PoolSpec<T, R> {
	/** Names a worker in messages ("verification worker"). */
	readonly name: string;
	/** The workerData key under which a spawned thread serves (pool-worker.ts serveTasks). */
	readonly mark: string;
	/** Where a worker comes from (asked once per pool, unless the pool's options give one). */
	readonly entry: () => WorkerEntry;
	/** Runs one task on the calling thread: the code the workers run. */
	readonly run: (task: T) => R;
	/** The answer for a task whose run threw, from the error's message. */
	readonly failed: (task: T, message: string) => R;
	readonly resourceLimits?: ResourceLimits;
	/** A worker fails: "all" ends the others too (what broke one would break the next); "one" drops it only. */
	readonly onFailure: "all" | "one";
}

/** `idleCloseMs`: workers exit after this long without a batch (default never); `entry`: instead of the spec's (tests). */
export interface PoolOptions {
	idleCloseMs?: number;
	entry?: WorkerEntry;
}

/**
 * Options of runBatch: `callerHelps`, the calling thread claims tasks too (default true);
 * `callerMayFinish`, with no worker left it finishes the batch (default true; else the batch stops);
 * `timeLimitMs`, then the workers end and the batch resolves with what finished; `onResult` per result.
 */
export interface PoolBatchOptions<R> {
	callerHelps?: boolean;
	callerMayFinish?: boolean;
	timeLimitMs?: number;
	onResult?: (index: number, result: R) => void;
}

/** What a batch produced, and where its tasks ran. */
export interface PoolOutcome<R> {
	/** Index-aligned with the tasks; undefined only for the tasks a stopped batch did not finish. */
	results: (R | undefined)[];
	/** Why the batch stopped before every task finished (its time limit, no worker left), or null. */
	stopped: string | null;
	callerTasks: number;
	workerTasks: number;
}

interface Slot {
	readonly id: number;
	readonly worker: Worker;
	ready: boolean;
	/** Messages posted to it that it has not drained yet. */
	busy: number;
	/** [batch, index] of tasks handed to it one by one. */
	assigned: [number, number][];
}

interface Batch<T, R> {
	readonly id: number;
	readonly tasks: readonly T[];
	/** [0] = next unclaimed index; [1 + i] = who claimed task i (CALLER_CLAIMANT, or slot id + 2). */
	readonly shared: Int32Array;
	remaining: number;
	callerHelps: boolean;
	readonly callerMayFinish: boolean;
	helping: boolean;
	/** Tasks a failed worker claimed and never answered. */
	readonly orphans: number[];
	readonly outcome: PoolOutcome<R>;
	readonly onResult: PoolBatchOptions<R>["onResult"];
	timer: NodeJS.Timeout | undefined;
	resolve(outcome: PoolOutcome<R>): void;
	reject(error: Error): void;
}

/** Runs tasks of type T (results R) on `size` worker threads and, when allowed, the calling thread. */
export class WorkerPool<T, R> {
	readonly size: number;
	private readonly spec: PoolSpec<T, R>;
	private readonly entry: WorkerEntry | undefined;
	private readonly idleCloseMs: number | undefined;
	private slots: Slot[] = [];
	private readonly batches = new Map<number, Batch<T, R>>();
	private idleTimer: NodeJS.Timeout | undefined;
	private degraded: string | undefined;
	private closed = false;
	private nextBatch = 1;
	private nextSlot = 0;
	/** Tasks the calling thread ran, and tasks the workers ran, over the pool's life. */
	callerTasks = 0;
	workerTasks = 0;

	/** Workers start booting at once, in parallel with whatever the caller does next. */
	constructor(size: number, spec: PoolSpec<T, R>, options: PoolOptions = {}) {
		if (!Number.isInteger(size) || size < 0)
			throw new TypeError(`${spec.name} pool: size must be an integer >= 0, got ${size}`);
		this.size = size;
		this.spec = spec;
		this.idleCloseMs = options.idleCloseMs;
		this.entry = size > 0 ? (options.entry ?? spec.entry()) : undefined;
		this.startWorkers();
		this.armIdleTimer();
	}

	/** Why workers are gone for good (one failed to start or died), if they are. */
	get degradedReason(): string | undefined {
		return this.degraded;
	}

	/** True once close() ran. */
	get isClosed(): boolean {
		return this.closed;
	}

	/** Workers alive now. */
	get liveWorkers(): number {
		return this.slots.length;
	}

	/** True when some worker has booted and can take tasks. */
	get anyReady(): boolean {
		return this.slots.some((s) => s.ready);
	}

	/** Ends the workers now (not a failure: the next batch starts new ones); a running batch goes on without them. */
	endWorkers(): Promise<void> {
		return this.drop([...this.slots], "its workers were ended");
	}

	/** Starts the workers that are missing (at first, after an idle exit or a time limit; runBatch does too). */
	startWorkers(): void {
		while (!this.closed && this.degraded === undefined && this.entry && this.slots.length < this.size) {
			const entry = this.entry;
			let worker: Worker;
			try {
				// Inherit the parent's Node flags except those a worker rejects (--input-type of `node -e`).
				worker = new Worker(entry.url, {
					workerData: { [this.spec.mark]: true },
					argv: entry.argv,
					execArgv: process.execArgv.filter((flag) => !flag.startsWith("--input-type")),
					...(this.spec.resourceLimits ? { resourceLimits: this.spec.resourceLimits } : {}),
				});
			} catch (error) {
				this.degraded = `${this.spec.name} could not start (${(error as Error).message})`;
				return;
			}
			const slot: Slot = { id: this.nextSlot++, worker, ready: false, busy: 0, assigned: [] };
			worker.on("message", (m: WorkerReply<R>) => this.reply(slot, m));
			worker.on("error", (error) => this.lost(slot, error instanceof Error ? error.message : String(error)));
			worker.on("exit", (code) => this.lost(slot, `exited unexpectedly (code ${code})`));
			if (this.batches.size === 0) worker.unref(); // after the listeners: a "message" listener refs the port
			this.slots.push(slot);
			for (const batch of this.batches.values()) this.post(slot, batch);
		}
	}

	private post(slot: Slot, batch: Batch<T, R>): void {
		const shared = batch.shared.buffer as SharedArrayBuffer;
		const message: BatchMessage<T> = { batch: batch.id, tasks: batch.tasks, shared, claimant: slot.id + 2 };
		slot.busy++;
		slot.worker.postMessage(message);
	}

	private reply(slot: Slot, m: WorkerReply<R>): void {
		if ("ready" in m) slot.ready = true;
		else if ("drained" in m) slot.busy--;
		else this.record(this.batches.get(m.batch), m.index, m.result, false);
		this.handOrphans();
	}

	/** Runs `tasks`; resolves with every result, in task order (or what finished, if the batch stopped). */
	runBatch(tasks: readonly T[], options: PoolBatchOptions<R> = {}): Promise<PoolOutcome<R>> {
		if (this.closed) return Promise.reject(new Error(`${this.spec.name} pool: runBatch() called after close()`));
		const outcome: PoolOutcome<R> = { results: [], stopped: null, callerTasks: 0, workerTasks: 0 };
		if (tasks.length === 0) return Promise.resolve(outcome);
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.startWorkers();
		return new Promise<PoolOutcome<R>>((resolve, reject) => {
			const batch: Batch<T, R> = {
				id: this.nextBatch++,
				tasks,
				shared: new Int32Array(new SharedArrayBuffer(4 * (tasks.length + 1))),
				remaining: tasks.length,
				callerHelps: options.callerHelps ?? true,
				callerMayFinish: options.callerMayFinish ?? true,
				helping: false,
				orphans: [],
				outcome,
				onResult: options.onResult,
				timer: undefined,
				resolve,
				reject,
			};
			outcome.results = new Array(tasks.length).fill(undefined);
			this.batches.set(batch.id, batch);
			if (options.timeLimitMs !== undefined) {
				const limit = options.timeLimitMs;
				batch.timer = setTimeout(() => this.stopAtLimit(batch, `the ${limit} ms time limit`), limit);
			}
			for (const slot of this.slots) this.post(slot, batch);
			this.refWorkers(true);
			this.rescue(batch);
		});
	}

	/** The calling thread helps when asked, or when it must because no worker is left. */
	private rescue(batch: Batch<T, R>, why?: string): void {
		if (!this.batches.has(batch.id)) return;
		if (this.slots.length === 0) {
			if (!batch.callerMayFinish) {
				const reason = this.degraded ?? why ?? (this.size === 0 ? "none configured" : "none started");
				this.finish(batch, { stopped: `no ${this.spec.name} left (${reason})` });
				return;
			}
			batch.callerHelps = true;
		}
		if (batch.callerHelps) this.help(batch);
	}

	/** The calling thread claims and runs tasks of `batch` (orphans first), yielding between tasks. */
	private help(batch: Batch<T, R>): void {
		if (batch.helping) return;
		batch.helping = true;
		const step = (): void => {
			if (!this.batches.has(batch.id)) return;
			let index = batch.orphans.shift();
			if (index === undefined) {
				const claimed = Atomics.add(batch.shared, 0, 1);
				if (claimed < batch.tasks.length) {
					index = claimed;
					Atomics.store(batch.shared, 1 + claimed, CALLER_CLAIMANT);
				}
			}
			if (index === undefined) {
				batch.helping = false;
				return;
			}
			const result = runSafely(batch.tasks[index] as T, this.spec.run, this.spec.failed);
			this.record(batch, index, result, true);
			setImmediate(step); // let worker messages, progress and timers run between tasks
		};
		step();
	}

	private record(batch: Batch<T, R> | undefined, index: number, result: R, caller: boolean): void {
		if (!batch || !this.batches.has(batch.id) || batch.outcome.results[index] !== undefined) return;
		batch.outcome.results[index] = result;
		batch.remaining--;
		const where = caller ? "callerTasks" : "workerTasks";
		batch.outcome[where]++;
		this[where]++;
		try {
			batch.onResult?.(index, result);
		} catch (error) {
			this.finish(batch, { error: error instanceof Error ? error : new Error(String(error)) });
			return;
		}
		if (batch.remaining === 0) this.finish(batch, {});
	}

	/** Hands orphaned tasks to workers that have drained everything posted to them. */
	private handOrphans(): void {
		for (const batch of this.batches.values())
			for (const slot of this.slots) {
				if (batch.orphans.length === 0) break;
				if (!slot.ready || slot.busy > 0) continue;
				const index = batch.orphans.shift() as number;
				const message: AssignMessage<T> = { batch: batch.id, index, task: batch.tasks[index] as T };
				slot.busy++;
				slot.assigned.push([batch.id, index]);
				slot.worker.postMessage(message);
			}
	}

	/** A worker failed to start or died: its claimed tasks go to the others or the calling thread. */
	private lost(slot: Slot, why: string): void {
		if (this.closed || !this.slots.includes(slot)) return;
		const all = this.spec.onFailure === "all";
		this.degraded ??= `${this.spec.name} failed (${why})${all ? "; its tasks run on the calling thread" : ""}`;
		void this.drop(all ? [...this.slots] : [slot]);
	}

	/**
	 * Ends `gone` (listeners first, so their exit is not a failure) and re-homes their unanswered
	 * tasks; `why` says why, for a batch that then stops. Resolves when the threads are gone.
	 */
	private drop(gone: Slot[], why?: string): Promise<void> {
		this.slots = this.slots.filter((s) => !gone.includes(s));
		const ended = gone.map((slot) => {
			slot.worker.removeAllListeners();
			slot.worker.on("error", () => {});
			return slot.worker.terminate();
		});
		const claimants = new Set(gone.map((s) => s.id + 2));
		for (const batch of this.batches.values()) {
			const results = batch.outcome.results;
			// A task whose claimant slot still reads 0 was claimed by a thread that stopped between its
			// add and its store; with the calling thread between two steps, only a worker can be there.
			const claimed = Math.min(Atomics.load(batch.shared, 0), batch.tasks.length);
			for (let i = 0; i < claimed; i++) {
				const who = Atomics.load(batch.shared, 1 + i);
				if (results[i] === undefined && (who === 0 || claimants.has(who)) && !batch.orphans.includes(i))
					batch.orphans.push(i);
			}
			for (const slot of gone)
				for (const [id, i] of slot.assigned)
					if (id === batch.id && results[i] === undefined && !batch.orphans.includes(i)) batch.orphans.push(i);
		}
		for (const batch of [...this.batches.values()]) this.rescue(batch, why);
		this.handOrphans();
		return Promise.all(ended).then(() => undefined);
	}

	private stopAtLimit(batch: Batch<T, R>, why: string): void {
		if (!this.batches.has(batch.id)) return;
		this.finish(batch, { stopped: why });
		void this.drop([...this.slots], why); // a runaway task stops with its thread; the next batch starts new ones
	}

	private finish(batch: Batch<T, R>, end: { error?: Error; stopped?: string }): void {
		if (!this.batches.delete(batch.id)) return;
		Atomics.store(batch.shared, 0, batch.tasks.length); // nobody claims more
		if (batch.timer) clearTimeout(batch.timer);
		for (const slot of this.slots) slot.assigned = slot.assigned.filter(([id]) => id !== batch.id);
		if (end.error) batch.reject(end.error);
		else {
			batch.outcome.stopped = end.stopped ?? null;
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
		this.idleTimer = setTimeout(() => {
			if (this.batches.size === 0) void this.drop([...this.slots]);
		}, this.idleCloseMs);
		this.idleTimer.unref();
	}

	/** Resolves once every worker is ready to take tasks (rejects if one failed). */
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

	/** Ends the workers; a batch still running is rejected. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		if (this.idleTimer) clearTimeout(this.idleTimer);
		for (const batch of [...this.batches.values()])
			this.finish(batch, { error: new Error(`${this.spec.name} pool closed during a batch`) });
		await this.drop([...this.slots]);
	}
}
