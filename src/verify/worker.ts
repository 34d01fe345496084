// The worker-thread side of the verification pool: receives tasks, runs them with tasks.ts (which
// does the file reads), posts results back. Evaluating this module inside a thread spawned by
// pool.ts (marked by workerData) starts serving; anywhere else it does nothing. The bundles
// (build/verify.js, build/cli.js, build/extension.js) contain it, so each can serve as its own worker.

import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { runTask, Scratch, type Task } from "./tasks.ts";

/** workerData key that marks a thread spawned as a verification worker. */
export const WORKER_MARK = "piFoldVerifyWorker";
/** argv a bundled CLI worker receives, so the CLI routes it to `verify`, which then idles (see commands/verify.ts). */
export const WORKER_ARGV = ["verify", "--pi-fold-worker-thread"];

/** True inside a thread that pool.ts spawned to verify. */
export function isVerifyWorker(): boolean {
	return !isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_MARK] === true;
}

let serving = false;

/** Starts serving tasks if this thread is a verification worker (idempotent). */
export function serveIfWorker(): void {
	const port = parentPort;
	if (serving || !isVerifyWorker() || !port) return;
	serving = true;
	const scratch = new Scratch();
	port.on("message", (message: { id: number; task: Task }) => {
		try {
			port.postMessage({ id: message.id, result: runTask(message.task, scratch) });
		} catch (error) {
			port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
		}
	});
	port.postMessage({ ready: true });
}

serveIfWorker();
