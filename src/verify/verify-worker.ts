// The worker-thread side of the verification pool: receives a batch (the task list and the shared
// claim counter, see hash-pool.ts), claims tasks one atomic add at a time, runs them with tasks.ts (which
// does the file reads) and posts each result back. Evaluating this module inside a thread spawned by
// hash-pool.ts (marked by workerData) starts serving; anywhere else it does nothing. It is the entry of the
// minimal worker bundle build/verify-worker.js, and part of every other bundle as a fallback.

import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { runTask, Scratch, type Task, type TaskResult } from "./tasks.ts";

/** workerData key that marks a thread spawned as a verification worker. */
export const WORKER_MARK = "piFoldVerifyWorker";
/** argv a bundled CLI worker receives when it re-spawns the CLI itself (no verify-worker.js beside it). */
export const WORKER_ARGV = ["verify", "--pi-fold-worker-thread"];

/** True inside a thread that hash-pool.ts spawned to verify. */
export function isVerifyWorker(): boolean {
	return !isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_MARK] === true;
}

interface BatchMessage {
	batch: number;
	tasks: Task[];
	shared: SharedArrayBuffer;
	claimant: number;
}

function safeRun(task: Task, scratch: Scratch): TaskResult {
	try {
		return runTask(task, scratch);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { digests: new Uint8Array(0), bytesRead: 0, failures: [[0, { reason: "unreadable", message }]] };
	}
}

let serving = false;

/** Starts serving batches if this thread is a verification worker (idempotent). */
export function serveIfWorker(): void {
	const port = parentPort;
	if (serving || !isVerifyWorker() || !port) return;
	serving = true;
	const scratch = new Scratch();
	port.on("message", (m: BatchMessage) => {
		const shared = new Int32Array(m.shared);
		for (;;) {
			const index = Atomics.add(shared, 0, 1);
			if (index >= m.tasks.length) break;
			Atomics.store(shared, 1 + index, m.claimant);
			port.postMessage({ batch: m.batch, index, result: safeRun(m.tasks[index] as Task, scratch) });
		}
	});
	port.postMessage({ ready: true });
}

serveIfWorker();
