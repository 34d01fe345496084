// The worker-thread side of the worker pool (worker-pool.ts), and the messages between the two: a
// worker serves batches (the task list and a SharedArrayBuffer whose slot 0 is the next unclaimed
// index: it claims one index per atomic add, writes its claimant id beside it, runs the task and
// posts the result) and single tasks handed to it (a failed worker's orphans), and says when it has
// drained each message. A task that throws is answered with the pool's failure result, never left
// unanswered. Imports only node:worker_threads, so each worker bundle (build/verify-worker.js,
// build/search-worker.js) carries its own tasks and nothing of the pool. No file I/O.

import { isMainThread, parentPort, workerData } from "node:worker_threads";

/** Claimant id of the calling thread; worker slot `s` claims as `s + 2` (0: not yet written). */
export const CALLER_CLAIMANT = 1;

/** A batch for a worker: claim from `shared` (slot 0 the next index, slot 1 + i who claimed task i). */
export interface BatchMessage<T> {
	readonly batch: number;
	readonly tasks: readonly T[];
	readonly shared: SharedArrayBuffer;
	readonly claimant: number;
}

/** One task handed to a worker (a task whose worker failed before answering). */
export interface AssignMessage<T> {
	readonly batch: number;
	readonly index: number;
	readonly task: T;
}

/** What a worker posts: ready once, a result per task, and drained after each message it served. */
export type WorkerReply<R> =
	| { readonly ready: true }
	| { readonly batch: number; readonly index: number; readonly result: R }
	| { readonly batch: number; readonly drained: true };

/** True inside a thread a pool spawned under `mark` (its workerData key). */
export function isPoolWorker(mark: string): boolean {
	return !isMainThread && (workerData as Record<string, unknown> | null)?.[mark] === true;
}

/** Runs `task`; what it throws becomes `failed(task, message)`. */
export function runSafely<T, R>(task: T, run: (task: T) => R, failed: (task: T, message: string) => R): R {
	try {
		return run(task);
	} catch (error) {
		return failed(task, error instanceof Error ? error.message : String(error));
	}
}

/**
 * Serves the pool's messages when this thread was spawned under `mark` (once; anywhere else it does
 * nothing). Returns whether it serves.
 */
export function serveTasks<T, R>(mark: string, run: (task: T) => R, failed: (task: T, message: string) => R): boolean {
	const port = parentPort;
	if (!isPoolWorker(mark) || !port) return false;
	const served = globalThis as { piFoldPoolServing?: boolean };
	if (served.piFoldPoolServing) return true;
	served.piFoldPoolServing = true;
	port.on("message", (m: BatchMessage<T> | AssignMessage<T>) => {
		if ("tasks" in m) {
			const shared = new Int32Array(m.shared);
			for (;;) {
				const index = Atomics.add(shared, 0, 1);
				if (index >= m.tasks.length) break;
				Atomics.store(shared, 1 + index, m.claimant);
				port.postMessage({ batch: m.batch, index, result: runSafely(m.tasks[index] as T, run, failed) });
			}
		} else port.postMessage({ batch: m.batch, index: m.index, result: runSafely(m.task, run, failed) });
		port.postMessage({ batch: m.batch, drained: true });
	});
	port.postMessage({ ready: true });
	return true;
}
