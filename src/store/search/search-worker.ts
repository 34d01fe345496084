// The search worker thread: receives batches of blobs to search (paths, targets, the compiled query),
// runs them with blob-search.ts (which reads, hashes and scans each blob once) and posts the results back.
// It is its own entry point: spawned from src (search-worker.ts, Node strips the types) or from the
// bundle build/search-worker.js, which holds only this code (no Pi, no Wasm). Evaluated anywhere
// else it does nothing.

import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { type SearchItem, searchItem } from "./blob-search.ts";
import type { CompiledQuery } from "./query.ts";

/** workerData key that marks a thread spawned as a search worker. */
export const SEARCH_WORKER_MARK = "piFoldSearchWorker";

/** One batch of blobs for a worker. */
export interface SearchBatch {
	readonly batch: number;
	readonly items: readonly SearchItem[];
	readonly query: CompiledQuery;
	readonly maxHits: number;
}

function serve(): void {
	const port = parentPort;
	if (isMainThread || !port || (workerData as Record<string, unknown> | null)?.[SEARCH_WORKER_MARK] !== true) return;
	port.on("message", (message: SearchBatch) => {
		try {
			const results = message.items.map((item) => searchItem(item, message.query, { maxHits: message.maxHits }));
			port.postMessage({ batch: message.batch, results });
		} catch (error) {
			port.postMessage({ batch: message.batch, error: error instanceof Error ? error.message : String(error) });
		}
	});
	port.postMessage({ ready: true });
}

serve();
