// verifyStore: scan a content-addressed store without following any symlink, plan the hashing
// (small blobs in batches, engine chosen per batch; chunk-tree blobs split into chunk ranges; large
// blobs without a tree streamed whole), run it on the worker pool, and name every problem found.
// This module does the directory scan (synchronous: readdir + lstat, milliseconds even for
// thousands of blobs) and sidecar reads; tasks.ts reads blob content, on the worker threads.

import { closeSync, type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { chunksEngine, manyEngine, streamEngine } from "./engines.ts";
import { BLOBS_DIR, blobRelPath, classifyEntryName, isDigestHex, isFanoutName, toHex } from "./layout.ts";
import {
	DEFAULT_BATCH_BLOBS,
	DEFAULT_BATCH_BYTES,
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_READ_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	DEFAULT_WORKERS,
	parseOptions,
	type VerifyProgress,
	type VerifyStoreOptions,
	verifyStoreOptionsSchema,
} from "./options.ts";
import { sharedPool } from "./pool.ts";
import { openRegular, readFully, type Task, type TaskResult } from "./tasks.ts";
import { type ChunkTree, decodeTree, mismatchedChunks, TreeFormatError } from "./tree.ts";

/** Kinds of problem a verification names. */
export type IssueKind = "corrupt" | "missing" | "misnamed" | "stray" | "refused" | "unreadable";

/** One problem, at a path relative to the store directory. */
export interface StoreIssue {
	kind: IssueKind;
	path: string;
	/** The digest the entry claims (its name), when it has one. */
	digest?: string;
	detail: string;
	/** Chunk indices that failed (chunk-tree blobs). */
	badChunks?: number[];
}

/** The outcome of verifying a store. `ok` is true only when `issues` is empty. */
export interface VerifyStoreResult {
	ok: boolean;
	dir: string;
	/** Blob files found (validly named). */
	blobs: number;
	/** Their total size in bytes. */
	bytes: number;
	/** Blobs verified through their chunk tree. */
	treeBlobs: number;
	issues: StoreIssue[];
	counts: Record<IssueKind, number>;
	workers: number;
	/** Units of hashing work run on worker threads and on the calling thread (start-up help). */
	tasks: { worker: number; caller: number };
	elapsedMs: number;
}

/** The directory is not a store (absent, not a directory, or no sha256/ folder). */
export class NotAStoreError extends Error {
	override name = "NotAStoreError";
}

interface BlobEntry {
	digest: string;
	rel: string;
	abs: string;
	size: number;
	tree: ChunkTree | undefined;
	/** Tasks still outstanding for this blob; it counts as done at 0. */
	pending: number;
	failed: boolean;
}

interface Scan {
	blobs: Map<string, BlobEntry>;
	trees: Map<string, string>; // digest -> sidecar rel path
	issues: StoreIssue[];
}

function scan(dir: string): Scan {
	const out: Scan = { blobs: new Map(), trees: new Map(), issues: [] };
	const root = join(dir, BLOBS_DIR);
	const top = readdirSync(root, { withFileTypes: true });
	for (const entry of top) {
		const rel = `${BLOBS_DIR}/${entry.name}`;
		if (entry.isSymbolicLink()) {
			out.issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
		} else if (entry.isDirectory() && isFanoutName(entry.name)) {
			scanFanout(dir, entry.name, out);
		} else {
			out.issues.push({
				kind: "stray",
				path: rel,
				detail: entry.isDirectory() ? "unexpected folder" : "unexpected file",
			});
		}
	}
	return out;
}

function scanFanout(dir: string, fanout: string, out: Scan): void {
	const relDir = `${BLOBS_DIR}/${fanout}`;
	let entries: Dirent[];
	try {
		entries = readdirSync(join(dir, relDir), { withFileTypes: true });
	} catch (error) {
		out.issues.push({
			kind: "unreadable",
			path: relDir,
			detail: `cannot list folder (${(error as NodeJS.ErrnoException).code ?? error})`,
		});
		return;
	}
	for (const entry of entries) {
		const rel = `${relDir}/${entry.name}`;
		if (entry.isSymbolicLink()) {
			out.issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
			continue;
		}
		if (!entry.isFile()) {
			out.issues.push({
				kind: "stray",
				path: rel,
				detail: entry.isDirectory() ? "unexpected folder" : "not a regular file",
			});
			continue;
		}
		const name = classifyEntryName(fanout, entry.name);
		if (name.kind === "invalid") {
			out.issues.push({ kind: "misnamed", path: rel, detail: "file name is not a SHA-256 digest" });
		} else if (name.kind === "misplaced") {
			out.issues.push({
				kind: "misnamed",
				path: rel,
				digest: name.digest,
				detail: `belongs in ${BLOBS_DIR}/${name.digest.slice(0, 2)}/`,
			});
		} else if (name.kind === "tree") {
			out.trees.set(name.digest, rel);
		} else {
			const abs = join(dir, rel);
			const blob: BlobEntry = { digest: name.digest, rel, abs, size: 0, tree: undefined, pending: 0, failed: false };
			out.blobs.set(name.digest, blob);
			blob.size = lstatSync(abs, { throwIfNoEntry: false })?.size ?? 0;
		}
	}
}

function readSidecar(abs: string): ChunkTree {
	const { fd, size } = openRegular(abs);
	try {
		const bytes = new Uint8Array(size);
		readFully(fd, bytes, size, 0);
		return decodeTree(bytes);
	} finally {
		closeSync(fd);
	}
}

/** Verifies every blob of the store at `dir`; names each corrupt, missing, misnamed, stray or refused entry. */
export async function verifyStore(dir: string, options?: VerifyStoreOptions): Promise<VerifyStoreResult> {
	const opts = parseOptions("verifyStore", verifyStoreOptionsSchema, options);
	const started = performance.now();
	const st = lstatSync(dir, { throwIfNoEntry: false });
	const blobsSt = lstatSync(join(dir, BLOBS_DIR), { throwIfNoEntry: false });
	if (!st) throw new NotAStoreError(`no such directory: ${dir}`);
	if (!st.isDirectory() && !st.isSymbolicLink()) throw new NotAStoreError(`not a directory: ${dir}`);
	if (!blobsSt || !(blobsSt.isDirectory() || blobsSt.isSymbolicLink()))
		throw new NotAStoreError(`not a pi-fold store (no ${BLOBS_DIR}/ folder): ${dir}`);
	const workers = opts.workers ?? DEFAULT_WORKERS;
	const engine = opts.engine ?? "auto";
	if (blobsSt.isSymbolicLink()) {
		const issues: StoreIssue[] = [{ kind: "refused", path: BLOBS_DIR, detail: "symlink (not followed)" }];
		return finish(dir, [], issues, 0, workers, { worker: 0, caller: 0 }, started);
	}
	const found = scan(dir);
	const issues = found.issues;

	for (const [digest, rel] of found.trees) {
		const blob = found.blobs.get(digest);
		if (!blob) {
			issues.push({
				kind: "missing",
				path: blobRelPath(digest),
				digest,
				detail: `blob absent, but its sidecar ${rel} exists`,
			});
			continue;
		}
		try {
			const tree = readSidecar(join(dir, rel));
			if (tree.blobDigest !== digest) throw new TreeFormatError(`sidecar describes ${tree.blobDigest}`);
			blob.tree = tree;
		} catch (error) {
			const detail =
				error instanceof TreeFormatError
					? error.message
					: `cannot read sidecar (${(error as NodeJS.ErrnoException).code ?? error})`;
			issues.push({ kind: "corrupt", path: rel, digest, detail: `${detail}; blob verified whole instead` });
		}
	}
	for (const digest of opts.expected ?? []) {
		if (!isDigestHex(digest)) throw new TypeError(`verifyStore(): expected digest is not 64 lowercase hex: ${digest}`);
		if (!found.blobs.has(digest))
			issues.push({ kind: "missing", path: blobRelPath(digest), digest, detail: "referenced but absent" });
	}

	// Plan: big work first so the pool's queue balances.
	const planned: { task: Task; blobs: BlobEntry[]; first: number; bytes: number }[] = [];
	const small: BlobEntry[] = [];
	const chunksPerTask = opts.chunksPerTask ?? DEFAULT_CHUNKS_PER_TASK;
	for (const blob of found.blobs.values()) {
		const tree = blob.tree;
		if (tree && tree.blobSize !== blob.size) {
			const what = blob.size < tree.blobSize ? "truncated" : "too long";
			issues.push({
				kind: "corrupt",
				path: blob.rel,
				digest: blob.digest,
				detail: `${what}: ${blob.size} bytes, sidecar records ${tree.blobSize}`,
			});
			blob.failed = true;
			continue;
		}
		if (tree) {
			const span = tree.chunkSize * chunksPerTask;
			for (let first = 0; first < tree.chunkCount; first += chunksPerTask) {
				const length = Math.min(span, tree.blobSize - first * tree.chunkSize);
				planned.push({
					task: {
						kind: "chunks",
						path: blob.abs,
						offset: first * tree.chunkSize,
						length,
						chunkSize: tree.chunkSize,
						engine: chunksEngine(engine),
					},
					blobs: [blob],
					first,
					bytes: length,
				});
			}
		}
		if (!tree && blob.size <= DEFAULT_TREE_MIN_BYTES) small.push(blob);
		else if (!tree || opts.mode === "full")
			planned.push({
				task: { kind: "file", path: blob.abs, readSize: DEFAULT_READ_SIZE, engine: streamEngine(engine) },
				blobs: [blob],
				first: -1,
				bytes: blob.size,
			});
	}
	planned.sort((a, b) => b.bytes - a.bytes);
	small.sort((a, b) => b.size - a.size); // similar sizes share lanes
	const batchBytes = opts.batchBytes ?? DEFAULT_BATCH_BYTES;
	const batchBlobs = opts.batchBlobs ?? DEFAULT_BATCH_BLOBS;
	for (let i = 0; i < small.length; ) {
		const group: BlobEntry[] = [];
		let bytes = 0;
		while (
			i < small.length &&
			group.length < batchBlobs &&
			(group.length === 0 || bytes + (small[i] as BlobEntry).size <= batchBytes)
		) {
			const blob = small[i++] as BlobEntry;
			group.push(blob);
			bytes += blob.size;
		}
		planned.push({
			task: { kind: "batch", paths: group.map((b) => b.abs), engine: manyEngine(engine, group.length, bytes) },
			blobs: group,
			first: 0,
			bytes,
		});
	}

	const progress: VerifyProgress = { bytesDone: 0, bytesTotal: 0, blobsDone: 0, blobsTotal: found.blobs.size };
	for (const p of planned) {
		progress.bytesTotal += p.bytes;
		for (const blob of p.blobs) blob.pending++;
	}
	for (const blob of found.blobs.values()) if (blob.pending === 0) progress.blobsDone++;
	opts.onProgress?.({ ...progress });

	const pool = sharedPool(planned.length === 0 ? 0 : workers);
	const workerBefore = pool.workerTasks;
	const callerBefore = pool.inThreadTasks;
	await Promise.all(
		planned.map(async (p) => {
			const result = await pool.run(p.task);
			judge(p, result, issues);
			progress.bytesDone += p.bytes;
			for (const blob of p.blobs) if (--blob.pending === 0) progress.blobsDone++;
			opts.onProgress?.({ ...progress });
		}),
	);
	const blobs = [...found.blobs.values()];
	const tasks = { worker: pool.workerTasks - workerBefore, caller: pool.inThreadTasks - callerBefore };
	return finish(dir, blobs, issues, blobs.filter((b) => b.tree).length, workers, tasks, started);
}

function judge(
	p: { task: Task; blobs: BlobEntry[]; first: number; bytes: number },
	result: TaskResult,
	issues: StoreIssue[],
): void {
	const failures = new Map(result.failures);
	if (p.task.kind === "batch") {
		p.blobs.forEach((blob, i) => {
			const failure = failures.get(i);
			if (failure) report(blob, failure.reason, failure.message, issues);
			else if (toHex(result.digests.subarray(i * 32, i * 32 + 32)) !== blob.digest)
				report(blob, "corrupt", "content does not match its name (SHA-256 mismatch)", issues);
		});
		return;
	}
	const blob = p.blobs[0] as BlobEntry;
	const failure = failures.get(0);
	if (failure) {
		report(blob, failure.reason, failure.message, issues);
	} else if (p.task.kind === "file") {
		if (toHex(result.digests) !== blob.digest)
			report(blob, "corrupt", "content does not match its name (SHA-256 mismatch)", issues);
	} else {
		const tree = blob.tree as ChunkTree;
		const expected = tree.digests.subarray(p.first * 32, p.first * 32 + result.digests.length);
		const bad = result.bytesRead < p.task.length ? [p.first] : mismatchedChunks(expected, result.digests, p.first);
		if (bad.length > 0) report(blob, "corrupt", "", issues, bad);
	}
}

/** Records a problem of a blob; problems of one blob merge into one issue (chunk lists accumulate). */
function report(blob: BlobEntry, kind: IssueKind, detail: string, issues: StoreIssue[], badChunks?: number[]): void {
	blob.failed = true;
	const prior = issues.find((i) => i.path === blob.rel && i.kind === kind);
	if (!prior) {
		const tree = blob.tree;
		const text = badChunks && tree ? chunkDetail(badChunks, tree) : detail;
		issues.push({ kind, path: blob.rel, digest: blob.digest, detail: text, ...(badChunks ? { badChunks } : {}) });
		return;
	}
	if (!badChunks || !blob.tree) return;
	prior.badChunks = [...(prior.badChunks ?? []), ...badChunks].sort((a, b) => a - b);
	prior.detail = chunkDetail(prior.badChunks, blob.tree);
}

function finish(
	dir: string,
	blobs: BlobEntry[],
	issues: StoreIssue[],
	treeBlobs: number,
	workers: number,
	tasks: { worker: number; caller: number },
	started: number,
): VerifyStoreResult {
	issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.kind < b.kind ? -1 : 1));
	const counts: Record<IssueKind, number> = {
		corrupt: 0,
		missing: 0,
		misnamed: 0,
		stray: 0,
		refused: 0,
		unreadable: 0,
	};
	for (const issue of issues) counts[issue.kind]++;
	return {
		ok: issues.length === 0,
		dir,
		blobs: blobs.length,
		bytes: blobs.reduce((n, b) => n + b.size, 0),
		treeBlobs,
		issues,
		counts,
		workers,
		tasks,
		elapsedMs: performance.now() - started,
	};
}

function chunkDetail(bad: number[], tree: ChunkTree): string {
	const shown = bad.slice(0, 8).join(", ") + (bad.length > 8 ? `, ... (${bad.length} in all)` : "");
	return `chunk digest mismatch in chunk(s) ${shown} of ${tree.chunkCount} (${tree.chunkSize} B chunks)`;
}
