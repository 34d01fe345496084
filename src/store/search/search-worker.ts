// The search worker thread, one job: serve the search's pool (search-pool.ts) by running its tasks,
// each a few blobs to search with blob-search.ts (which reads, hashes and scans each blob once),
// through the generic worker side (src/verify/pool-worker.ts). It is its own entry point: spawned from
// src (search-worker.ts, Node strips the types) or from the bundle build/search-worker.js, which holds
// only this code (no Pi, no Wasm core). Evaluated anywhere else it does nothing.

import { serveTasks } from "../../verify/pool-worker.ts";
import { type BlobSearchResult, type SearchItem, searchItem } from "./blob-search.ts";
import type { CompiledQuery } from "./query.ts";

/** workerData key that marks a thread spawned as a search worker. */
export const SEARCH_WORKER_MARK = "piFoldSearchWorker";

/** One task: a few blobs to search for one query. */
export interface SearchTask {
	readonly items: readonly SearchItem[];
	readonly query: CompiledQuery;
	readonly maxHits: number;
}

/** The answer for a task that threw: each of its blobs failed, saying why. */
export function searchFailure(task: SearchTask, message: string): BlobSearchResult[] {
	return task.items.map((item) => ({
		sha256: item.target.sha256,
		ok: false,
		failure: "unreadable",
		actual: null,
		detail: `search worker failed: ${message}`,
		bytes: 0,
	}));
}

serveTasks<SearchTask, BlobSearchResult[]>(
	SEARCH_WORKER_MARK,
	(task) => task.items.map((item) => searchItem(item, task.query, { maxHits: task.maxHits })),
	searchFailure,
);
