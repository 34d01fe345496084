// The search's worker pool, one job: search many blobs on worker threads with a time bound, on the
// generic worker pool (src/verify/worker-pool.ts). Blobs go out in tasks of a few MiB each, claimed
// from one counter, so two workers share uneven work; results come back per task. When the time limit
// passes the workers are ended (a catastrophic regex cannot stall the session: V8 stops a regex
// mid-backtrack when its thread is terminated) and the search returns what finished, marked as timed
// out; the next search starts fresh workers. The calling thread does not search while workers can:
// with none (none configured, or none could start or survive) a literal search runs there, task by
// task, checked against the same deadline between tasks; a regex search then refuses, because only a
// worker can bound it. A worker that dies leaves its blobs to the others. Idle workers exit after
// SEARCH_POOL_IDLE_MS. The pool stats blobs to size the tasks; the workers read them.

import { lstatSync } from "node:fs";
import { availableParallelism } from "node:os";
import { WorkerPool } from "../../verify/worker-pool.ts";
import { type BlobSearchResult, type SearchItem, searchItem } from "./blob-search.ts";
import type { CompiledQuery } from "./query.ts";
import { SEARCH_WORKER_MARK, type SearchTask, searchFailure } from "./search-worker.ts";

/** Search worker threads (the machine's cores, at most 4). */
export const DEFAULT_SEARCH_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
/** A task holds blobs up to this many bytes (4 MiB) or SEARCH_BATCH_BLOBS blobs. */
export const SEARCH_BATCH_BYTES = 4 * 1024 * 1024;
export const SEARCH_BATCH_BLOBS = 256;
/** The shared pool's workers exit after this long without a search (30 s). */
export const SEARCH_POOL_IDLE_MS = 30_000;

/** Regex search is refused: no worker thread could start to bound it. */
export class SearchUnavailableError extends Error {
	override name = "SearchUnavailableError";
}

/** One blob of a search: its file and its target. */
export type PoolItem = SearchItem;

export interface PoolSearchOptions {
	readonly maxHits: number;
	readonly timeLimitMs: number;
}

/** Results index-aligned with the items (undefined: not searched). */
export interface PoolSearchRun {
	readonly results: (BlobSearchResult | undefined)[];
	/** Why the search stopped before every blob was searched ("the time limit", a worker failure), or null. */
	readonly stopped: string | null;
	readonly workers: number;
}

/** The worker's entry: search-worker.ts beside this file in src, search-worker.js beside a bundle. */
export function searchWorkerUrl(): URL {
	const here = import.meta.url;
	return here.endsWith(".ts") ? new URL("./search-worker.ts", here) : new URL("./search-worker.js", here);
}

export class SearchPool {
	readonly size: number;
	private readonly pool: WorkerPool<SearchTask, BlobSearchResult[]>;
	private tail: Promise<unknown> = Promise.resolve();

	constructor(size = DEFAULT_SEARCH_WORKERS, options: { idleCloseMs?: number; url?: URL } = {}) {
		this.size = size;
		const url = options.url ?? searchWorkerUrl();
		this.pool = new WorkerPool<SearchTask, BlobSearchResult[]>(
			size,
			{
				name: "search worker",
				mark: SEARCH_WORKER_MARK,
				entry: () => ({ url, argv: [] }),
				run: (task) => task.items.map((item) => searchItem(item, task.query, { maxHits: task.maxHits })),
				failed: searchFailure,
				onFailure: "one",
			},
			options.idleCloseMs === undefined ? {} : { idleCloseMs: options.idleCloseMs },
		);
	}

	/** Why searches run on the calling thread (no worker could start), if they do. */
	get unavailable(): string | undefined {
		return this.size === 0 ? "no search workers configured" : this.pool.degradedReason;
	}

	/** Searches `items` (one search at a time per pool). */
	search(items: readonly PoolItem[], query: CompiledQuery, options: PoolSearchOptions): Promise<PoolSearchRun> {
		const run = this.tail.then(() => this.runOne(items, query, options));
		this.tail = run.catch(() => undefined);
		return run;
	}

	private async runOne(items: readonly PoolItem[], query: CompiledQuery, options: PoolSearchOptions) {
		this.pool.startWorkers();
		const inThread = this.pool.liveWorkers === 0;
		if (inThread && query.kind === "regex")
			throw new SearchUnavailableError(
				`regex search needs a worker thread for its time bound, and none could start (${this.unavailable})`,
			);
		const spans = batches(items);
		const tasks = spans.map((s) => ({ items: items.slice(s.from, s.to), query, maxHits: options.maxHits }));
		const outcome = await this.pool.runBatch(tasks, {
			callerHelps: false,
			callerMayFinish: query.kind === "literal",
			timeLimitMs: options.timeLimitMs,
		});
		const results: (BlobSearchResult | undefined)[] = new Array(items.length).fill(undefined);
		spans.forEach((s, k) => {
			const found = outcome.results[k];
			for (let i = s.from; i < s.to; i++) results[i] = found?.[i - s.from];
		});
		return { results, stopped: outcome.stopped, workers: inThread ? 0 : this.size };
	}

	/** Ends the workers (a later search starts new ones). */
	close(): Promise<void> {
		return this.pool.endWorkers();
	}
}

/** Consecutive items grouped into tasks of about SEARCH_BATCH_BYTES. */
function batches(items: readonly PoolItem[]): { from: number; to: number }[] {
	const out: { from: number; to: number }[] = [];
	let from = 0;
	let bytes = 0;
	for (let i = 0; i < items.length; i++) {
		const item = items[i] as PoolItem;
		bytes += item.parts ? item.parts.reduce((sum, p) => sum + p.bytes, 0) : sizeOf(item.path);
		if (bytes >= SEARCH_BATCH_BYTES || i + 1 - from >= SEARCH_BATCH_BLOBS || i + 1 === items.length) {
			out.push({ from, to: i + 1 });
			from = i + 1;
			bytes = 0;
		}
	}
	return out;
}

function sizeOf(path: string): number {
	try {
		return lstatSync(path).size;
	} catch {
		return 0;
	}
}

const shared = new Map<number, SearchPool>();

/** The process-wide search pool (workers start on first use and exit after SEARCH_POOL_IDLE_MS idle). */
export function sharedSearchPool(size = DEFAULT_SEARCH_WORKERS): SearchPool {
	let pool = shared.get(size);
	if (!pool) {
		pool = new SearchPool(size, { idleCloseMs: SEARCH_POOL_IDLE_MS });
		shared.set(size, pool);
	}
	return pool;
}

/** Closes every shared search pool (tests, or a host that wants its threads back). */
export async function closeSearchPools(): Promise<void> {
	const pools = [...shared.values()];
	shared.clear();
	await Promise.all(pools.map((p) => p.close()));
}
