// Runs a search over many blobs on worker threads, with a time bound. Blobs go out in batches (a few
// MiB each) from one queue, so two workers share uneven work; results come back per batch. When the
// time limit passes the workers are terminated (a catastrophic regex cannot stall the session: V8
// stops a regex mid-backtrack when its thread is terminated) and the search returns what finished,
// marked as timed out; the next search starts fresh workers. Literal searches run on the calling
// thread when no worker can start (the same code, checked against the deadline between blobs);
// regex searches then refuse, because only a worker can bound them. Idle workers are unref'd and
// the shared pool closes after SEARCH_POOL_IDLE_MS. The pool stats blobs; the workers read them.

import { lstatSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type BlobSearchResult, type SearchItem, searchItem } from "./blob-search.ts";
import type { CompiledQuery } from "./query.ts";
import { SEARCH_WORKER_MARK, type SearchBatch } from "./search-worker.ts";

/** Search worker threads (the machine's cores, at most 4). */
export const DEFAULT_SEARCH_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
/** A batch holds blobs up to this many bytes (4 MiB) or SEARCH_BATCH_BLOBS blobs. */
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

interface Job {
	readonly items: readonly PoolItem[];
	readonly query: CompiledQuery;
	readonly maxHits: number;
	readonly results: (BlobSearchResult | undefined)[];
	readonly queue: { batch: number; from: number; to: number }[];
	running: number;
	finish(stopped: string | null): void;
}

export class SearchPool {
	readonly size: number;
	private workers: { worker: Worker; ready: boolean; batch: { batch: number; from: number; to: number } | null }[] = [];
	private tail: Promise<unknown> = Promise.resolve();
	private job: Job | null = null;
	private broken: string | undefined;
	private idleTimer: NodeJS.Timeout | undefined;
	private readonly idleCloseMs: number | undefined;
	private readonly url: URL;

	constructor(size = DEFAULT_SEARCH_WORKERS, options: { idleCloseMs?: number; url?: URL } = {}) {
		this.size = size;
		this.idleCloseMs = options.idleCloseMs;
		this.url = options.url ?? searchWorkerUrl();
	}

	/** Why searches run on the calling thread (no worker could start), if they do. */
	get unavailable(): string | undefined {
		return this.size === 0 ? "no search workers configured" : this.broken;
	}

	/** Searches `items` (one search at a time per pool). */
	search(items: readonly PoolItem[], query: CompiledQuery, options: PoolSearchOptions): Promise<PoolSearchRun> {
		const run = this.tail.then(() => this.runOne(items, query, options));
		this.tail = run.catch(() => undefined);
		return run;
	}

	private async runOne(items: readonly PoolItem[], query: CompiledQuery, options: PoolSearchOptions) {
		if (this.idleTimer) clearTimeout(this.idleTimer);
		if (this.size > 0 && this.broken === undefined) this.spawnMissing();
		if (this.workers.length === 0) {
			if (query.kind === "regex")
				throw new SearchUnavailableError(
					`regex search needs a worker thread for its time bound, and none could start (${this.unavailable})`,
				);
			return inThread(items, query, options);
		}
		const result = await new Promise<PoolSearchRun>((resolve) => {
			const results: (BlobSearchResult | undefined)[] = new Array(items.length).fill(undefined);
			const timer = setTimeout(() => job.finish(`the ${options.timeLimitMs} ms time limit`), options.timeLimitMs);
			const job: Job = {
				items,
				query,
				maxHits: options.maxHits,
				results,
				queue: batches(items),
				running: 0,
				finish: (stopped) => {
					clearTimeout(timer);
					if (this.job !== job) return;
					this.job = null;
					if (stopped !== null) this.terminateAll();
					resolve({ results, stopped, workers: this.size });
				},
			};
			this.job = job;
			this.pump();
			if (job.queue.length === 0 && job.running === 0) job.finish(null);
		});
		this.armIdle();
		return result;
	}

	private spawnMissing(): void {
		while (this.workers.length < this.size) {
			let worker: Worker;
			try {
				worker = new Worker(this.url, {
					workerData: { [SEARCH_WORKER_MARK]: true },
					execArgv: process.execArgv.filter((f) => !f.startsWith("--input-type")),
				});
			} catch (error) {
				this.broken = `search worker failed to start: ${(error as Error).message}`;
				return;
			}
			const slot = { worker, ready: false, batch: null as { batch: number; from: number; to: number } | null };
			worker.on("message", (m: { ready?: true; batch?: number; results?: BlobSearchResult[]; error?: string }) => {
				if (m.ready) slot.ready = true;
				else this.done(slot, m.results, m.error);
				this.pump();
			});
			worker.on("error", (error) => this.lost(slot, error.message));
			worker.on("exit", (code) => this.lost(slot, `exited (code ${code})`));
			this.workers.push(slot);
		}
	}

	private done(slot: (typeof this.workers)[number], results: BlobSearchResult[] | undefined, error?: string): void {
		const job = this.job;
		const batch = slot.batch;
		slot.batch = null;
		if (!job || !batch) return;
		job.running--;
		for (let i = batch.from; i < batch.to; i++)
			job.results[i] = results?.[i - batch.from] ?? {
				sha256: (job.items[i] as PoolItem).target.sha256,
				ok: false,
				failure: "unreadable",
				actual: null,
				detail: `search worker failed: ${error ?? "no result"}`,
				bytes: 0,
			};
		if (job.queue.length === 0 && job.running === 0) job.finish(null);
	}

	/**
	 * A worker died: its batch goes back to the queue. With no worker left, a literal search finishes
	 * here; a regex search stops (only a worker can bound it).
	 */
	private lost(slot: (typeof this.workers)[number], why: string): void {
		if (!this.workers.includes(slot)) return;
		this.workers = this.workers.filter((s) => s !== slot);
		this.broken = `search worker ${why}`;
		const job = this.job;
		if (job && slot.batch) {
			job.queue.unshift(slot.batch);
			job.running--;
		}
		if (!job || this.workers.length > 0) return;
		if (job.query.kind === "regex") {
			job.finish(`no search worker left (${this.broken})`);
			return;
		}
		for (const b of job.queue.splice(0))
			for (let i = b.from; i < b.to; i++) {
				const item = job.items[i] as PoolItem;
				job.results[i] = searchItem(item, job.query, { maxHits: job.maxHits });
			}
		if (job.running === 0) job.finish(null);
	}

	private pump(): void {
		const job = this.job;
		for (const slot of this.workers) {
			if (!job || !slot.ready || slot.batch || job.queue.length === 0) continue;
			const b = job.queue.shift() as { batch: number; from: number; to: number };
			slot.batch = b;
			job.running++;
			const message: SearchBatch = {
				batch: b.batch,
				items: job.items.slice(b.from, b.to),
				query: job.query,
				maxHits: job.maxHits,
			};
			slot.worker.postMessage(message);
		}
		for (const slot of this.workers) {
			if (slot.batch || (!slot.ready && job)) slot.worker.ref();
			else slot.worker.unref();
		}
	}

	private terminateAll(): void {
		const slots = this.workers;
		this.workers = [];
		for (const slot of slots) {
			slot.worker.removeAllListeners();
			slot.worker.on("error", () => {});
			void slot.worker.terminate();
		}
	}

	private armIdle(): void {
		if (this.idleCloseMs === undefined) return;
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => this.terminateAll(), this.idleCloseMs);
		this.idleTimer.unref();
	}

	/** Terminates the workers (a later search starts new ones). */
	async close(): Promise<void> {
		if (this.idleTimer) clearTimeout(this.idleTimer);
		const slots = this.workers;
		this.workers = [];
		await Promise.all(
			slots.map((s) => {
				s.worker.removeAllListeners();
				return s.worker.terminate();
			}),
		);
	}
}

/** Consecutive items grouped into batches of about SEARCH_BATCH_BYTES. */
function batches(items: readonly PoolItem[]): { batch: number; from: number; to: number }[] {
	const out: { batch: number; from: number; to: number }[] = [];
	let from = 0;
	let bytes = 0;
	for (let i = 0; i < items.length; i++) {
		const item = items[i] as PoolItem;
		bytes += item.parts ? item.parts.reduce((sum, p) => sum + p.bytes, 0) : sizeOf(item.path);
		if (bytes >= SEARCH_BATCH_BYTES || i + 1 - from >= SEARCH_BATCH_BLOBS || i + 1 === items.length) {
			out.push({ batch: out.length, from, to: i + 1 });
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

/** The calling thread's search (literal only): blob by blob, stopping at the deadline. */
async function inThread(items: readonly PoolItem[], query: CompiledQuery, options: PoolSearchOptions) {
	const deadline = Date.now() + options.timeLimitMs;
	const results: (BlobSearchResult | undefined)[] = new Array(items.length).fill(undefined);
	for (let i = 0; i < items.length; i++) {
		if (Date.now() > deadline) return { results, stopped: `the ${options.timeLimitMs} ms time limit`, workers: 0 };
		const item = items[i] as PoolItem;
		results[i] = searchItem(item, query, { maxHits: options.maxHits });
		if (i % 16 === 15) await new Promise((r) => setImmediate(r));
	}
	return { results, stopped: null, workers: 0 };
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
