// The verification worker thread, one job: serve the verifier's pool (hash-pool.ts) by running its
// tasks with tasks.ts (which does the file reads), through the generic worker side (pool-worker.ts:
// claim one task per atomic add, post each result). Evaluating this module inside a thread the pool
// spawned (marked by workerData) starts serving; anywhere else it does nothing. It is the entry of the
// minimal worker bundle build/verify-worker.js, and part of every other bundle as a fallback.

import { isPoolWorker, serveTasks } from "./pool-worker.ts";
import { runTask, Scratch, type Task, type TaskResult, taskFailure } from "./tasks.ts";

/** workerData key that marks a thread spawned as a verification worker. */
export const WORKER_MARK = "piFoldVerifyWorker";
/** argv a bundled CLI worker receives when it re-spawns the CLI itself (no verify-worker.js beside it). */
export const WORKER_ARGV = ["verify", "--pi-fold-worker-thread"];

/** True inside a thread that hash-pool.ts spawned to verify. */
export function isVerifyWorker(): boolean {
	return isPoolWorker(WORKER_MARK);
}

/** Starts serving tasks if this thread is a verification worker (idempotent). */
export function serveIfWorker(): void {
	if (!isVerifyWorker()) return;
	const scratch = new Scratch();
	serveTasks<Task, TaskResult>(
		WORKER_MARK,
		(task) => runTask(task, scratch),
		(_task, message) => taskFailure(message),
	);
}

serveIfWorker();
