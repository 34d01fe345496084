// verifyStore: scan a content-addressed store without following any symlink (store-scan.ts), start the
// worker pool as soon as a first look at the store, or else the scan's byte estimate, says workers
// pay (they boot on other cores while this thread scans, plans and starts hashing; a small store
// never starts one), plan the hashing (store-plan.ts), run it on the pool and the calling thread
// together, walk every fold manifest from its root (manifest-check.ts: a child missing or hashing
// wrong is named with its path from the root), and name every problem found.
// No file I/O of its own beyond two lstats: store-scan.ts lists and reads sidecars, tasks.ts reads blobs.

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { chunksEngine, manyEngine, streamEngine } from "../wasm/index.ts";
import { sharedPool, type VerifyPool } from "./hash-pool.ts";
import { BLOBS_DIR, blobRelPath, isDigestHex, toHex } from "./layout.ts";
import { checkManifests, type ManifestCheck, type ParsedCandidate, parseCandidate } from "./manifest-check.ts";
import { type Planned, planChunks, planStore } from "./store-plan.ts";
import {
	type BlobEntry,
	DigestList,
	firstLook,
	type IssueKind,
	type Scan,
	type StoreIssue,
	scanStore,
} from "./store-scan.ts";
import { batchCount, type FileFailure, type TaskResult } from "./tasks.ts";
import { type ChunkTree, mismatchedChunks } from "./tree.ts";
import {
	DEFAULT_MIN_PARALLEL_BYTES,
	DEFAULT_WORKERS,
	FILE_COST_BYTES,
	parseOptions,
	type VerifyMode,
	type VerifyProgress,
	type VerifyStoreOptions,
	verifyStoreShape,
} from "./verify-options.ts";

export type { IssueKind, StoreIssue } from "./store-scan.ts";

/** The outcome of verifying a store. `ok` is true only when `issues` is empty. */
export interface VerifyStoreResult {
	ok: boolean;
	dir: string;
	/** What chunk-tree blobs were checked against (see VerifyMode). */
	mode: VerifyMode;
	/** Blob files found (validly named). */
	blobs: number;
	/** Their total size in bytes. */
	bytes: number;
	/** Blobs whose chunks were checked against their sidecar. */
	treeBlobs: number;
	/** Blobs ("tree" mode) checked only against their sidecar, not hashed against their name. */
	notCheckedByName: { blobs: number; bytes: number };
	issues: StoreIssue[];
	counts: Record<IssueKind, number>;
	/** Worker threads used besides the calling thread (0 when the store was too small to pay for one). */
	workers: number;
	/** Units of hashing work run on worker threads and on the calling thread. */
	tasks: { worker: number; caller: number };
	/** Fold manifests walked from their roots (src/verify/manifest.ts): how many, and how many are fold roots. */
	manifests: ManifestCheck;
	elapsedMs: number;
}

/** The directory is not a store (absent, not a directory, or no sha256/ folder). */
export class NotAStoreError extends Error {
	override name = "NotAStoreError";
}

/** PI_FOLD_MIN_PARALLEL_BYTES overrides the default threshold for starting workers (diagnostics, tests). */
function envMinParallel(): number | undefined {
	const value = Number(process.env.PI_FOLD_MIN_PARALLEL_BYTES ?? Number.NaN);
	return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Checks the store folder; true when sha256/ is a symlink (refused, never followed). */
function checkStoreDir(dir: string): boolean {
	let st: ReturnType<typeof lstatSync>;
	let blobsSt: ReturnType<typeof lstatSync>;
	try {
		st = lstatSync(dir, { throwIfNoEntry: false });
		blobsSt =
			st?.isDirectory() || st?.isSymbolicLink() ? lstatSync(join(dir, BLOBS_DIR), { throwIfNoEntry: false }) : st;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new NotAStoreError(`cannot read ${dir} (${code ?? error})`);
	}
	if (!st) throw new NotAStoreError(`no such directory: ${dir}`);
	if (!st.isDirectory() && !st.isSymbolicLink()) throw new NotAStoreError(`not a directory: ${dir}`);
	if (!blobsSt || !(blobsSt.isDirectory() || blobsSt.isSymbolicLink()))
		throw new NotAStoreError(`not a pi-fold store (no ${BLOBS_DIR}/ folder): ${dir}`);
	return blobsSt.isSymbolicLink();
}

/** Verifies every blob of the store at `dir`; names each corrupt, missing, misnamed, stray or refused entry. */
export async function verifyStore(dir: string, options?: VerifyStoreOptions): Promise<VerifyStoreResult> {
	const opts = parseOptions("verifyStore", verifyStoreShape, options);
	const started = performance.now();
	const mode = opts.mode ?? "name";
	if (checkStoreDir(dir)) {
		const issues: StoreIssue[] = [{ kind: "refused", path: BLOBS_DIR, detail: "symlink (not followed)" }];
		const found: Scan = { prefix: "", trees: [], plain: new DigestList(), issues, meanPlain: 0, estimatedBytes: 0 };
		const none = { manifests: 0, folds: 0 };
		return finish(
			{ dir, mode, found, plainBytes: 0, workers: 0, tasks: { worker: 0, caller: 0 }, manifests: none },
			started,
		);
	}
	for (const digest of opts.expected ?? [])
		if (!isDigestHex(digest)) throw new TypeError(`verifyStore(): expected digest is not 64 lowercase hex: ${digest}`);
	const workers = opts.workers ?? DEFAULT_WORKERS;
	const minParallel = opts.minParallelBytes ?? envMinParallel() ?? DEFAULT_MIN_PARALLEL_BYTES;
	const pays = (bytes: number, blobs: number) => workers > 0 && bytes + blobs * FILE_COST_BYTES >= minParallel;
	// Workers boot on other cores while this thread scans, plans and starts hashing: started on a
	// first look when it already says they pay, else once the scan's estimate does.
	const look = workers > 0 ? firstLook(dir) : undefined;
	let pool: VerifyPool | undefined = look && pays(look.bytes, look.blobs) ? sharedPool(workers) : undefined;
	const missing = new Set(opts.expected ?? []);
	const found = scanStore(dir, missing, (bytes, blobs) => {
		if (!pool && pays(bytes, blobs)) pool = sharedPool(workers);
	});
	pool ??= sharedPool(0);
	for (const digest of missing)
		found.issues.push({ kind: "missing", path: blobRelPath(digest), digest, detail: "referenced but absent" });
	const engine = opts.engine ?? "auto";
	const planned = planStore(found, mode, {
		chunksPerTask: opts.chunksPerTask,
		batchBytes: opts.batchBytes,
		batchBlobs: opts.batchBlobs,
		engines: {
			chunks: () => chunksEngine(engine),
			stream: () => streamEngine(engine),
			many: (count, bytes) => manyEngine(engine, count, bytes),
		},
	});
	const tally = { worker: 0, caller: 0 };
	const progress = startProgress(found, planned, opts.onProgress);
	const candidates = new Map<string, ParsedCandidate>();
	const plainSizes = new Float64Array(found.plain.count).fill(-1);
	const findings: Findings = { issues: found.issues, candidates, plainSizes };
	const relocate = await runPlanned(pool, planned, findings, progress, tally);
	if (mode === "name" && relocate.length > 0) {
		// Tree blobs that failed their name: their chunks say where the damage is.
		const chunks = planChunks(relocate, opts.chunksPerTask, chunksEngine(engine));
		progress.extend(chunks);
		await runPlanned(pool, chunks, findings, progress, tally);
		for (const blob of relocate) explainNameFailure(blob, found.issues);
	}
	const sizesOf = (wanted: ReadonlySet<string>) => sizesIn(found, plainSizes, wanted);
	const manifests = checkManifests(candidates, failedDigests(found.issues), found.issues, sizesOf);
	const r = { dir, mode, found, plainBytes: progress.plainBytes(), workers: pool.size, tasks: tally, manifests };
	return finish(r, started);
}

/**
 * The sizes of the `wanted` digests among the blobs that passed their hash: plain blobs by the size
 * their batch read (found by the first 4 bytes of each digest, then the whole digest), tree blobs by
 * their sidecar's. A digest the store does not hold is left out.
 */
function sizesIn(found: Scan, plainSizes: Float64Array, wanted: ReadonlySet<string>): Map<string, number> {
	const out = new Map<string, number>();
	if (wanted.size === 0) return out;
	const byHead = new Map<number, string[]>();
	for (const digest of wanted) {
		const head = Number.parseInt(digest.slice(0, 8), 16);
		const list = byHead.get(head);
		if (list) list.push(digest);
		else byHead.set(head, [digest]);
	}
	const { bytes, count } = found.plain;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	for (let i = 0; i < count; i++) {
		const list = byHead.get(view.getUint32(i * 32));
		if (!list || (plainSizes[i] as number) < 0) continue;
		const hex = found.plain.hex(i);
		if (list.includes(hex)) out.set(hex, plainSizes[i] as number);
	}
	for (const blob of found.trees)
		if (blob.tree && !blob.failed && wanted.has(blob.digest)) out.set(blob.digest, blob.tree.blobSize);
	return out;
}

/** Digests of blobs that failed their own check (so a manifest walk does not trust them). */
function failedDigests(issues: readonly StoreIssue[]): Set<string> {
	return new Set(issues.filter((i) => i.digest && i.kind !== "missing").map((i) => i.digest as string));
}

interface Progress {
	done(p: Planned, result: TaskResult): void;
	/** More work for blobs already counted (chunk tasks that locate damage): bytes only. */
	extend(more: Planned[]): void;
	/** Bytes the batches of plain blobs read. */
	plainBytes(): number;
}

/**
 * Progress in bytes: a task counts with its planned (partly estimated) bytes until it finishes,
 * then with the bytes it actually read, so the total is exact by the last call.
 */
function startProgress(found: Scan, planned: Planned[], onProgress?: (p: VerifyProgress) => void): Progress {
	const blobsTotal = found.trees.length + found.plain.count;
	const state: VerifyProgress = { bytesDone: 0, bytesTotal: 0, blobsDone: 0, blobsTotal };
	let plain = 0;
	const add = (list: Planned[]): void => {
		for (const p of list) {
			state.bytesTotal += p.bytes;
			for (const blob of p.blobs) blob.pending++;
		}
	};
	add(planned);
	for (const blob of found.trees) if (blob.pending === 0) state.blobsDone++;
	onProgress?.({ ...state });
	return {
		done(p, result) {
			state.bytesDone += result.bytesRead;
			state.bytesTotal += result.bytesRead - p.bytes;
			if (p.task.kind === "batch") {
				state.blobsDone += batchCount(p.task);
				plain += result.bytesRead;
			}
			for (const blob of p.blobs) if (--blob.pending === 0) state.blobsDone++;
			onProgress?.({ ...state });
		},
		extend(more) {
			state.blobsDone -= new Set(more.flatMap((p) => p.blobs)).size; // each comes back to 0 pending once
			add(more);
		},
		plainBytes: () => plain,
	};
}

/**
 * Where results go: the issues found, the manifests among the blobs that matched their names, and
 * the size of each plain blob that did (by its index in the scan's list; -1 for the others).
 */
interface Findings {
	issues: StoreIssue[];
	plainSizes: Float64Array;
	/** Each blob that hashed to its name and starts like a fold manifest, parsed as its batch arrives. */
	candidates: Map<string, ParsedCandidate>;
}

/** Runs planned tasks; returns the tree blobs whose whole content failed its name (to locate by chunks). */
async function runPlanned(
	pool: VerifyPool,
	planned: Planned[],
	findings: Findings,
	progress: Progress,
	tally: { worker: number; caller: number },
): Promise<BlobEntry[]> {
	const relocate: BlobEntry[] = [];
	const outcome = await pool.runBatch(
		planned.map((p) => p.task),
		{
			onResult: (index, result) => {
				const p = planned[index] as Planned;
				judge(p, result, findings, relocate);
				progress.done(p, result);
			},
		},
	);
	tally.worker += outcome.workerTasks;
	tally.caller += outcome.callerTasks;
	return relocate;
}

const NAME_MISMATCH = "content does not match its name (SHA-256 mismatch)";

function judge(p: Planned, result: TaskResult, findings: Findings, relocate: BlobEntry[]): void {
	const { issues } = findings;
	const failures = new Map(result.failures);
	if (p.task.kind === "batch") {
		const named = p.task.digests as Uint8Array;
		const manifests = new Map(result.manifests);
		for (let i = 0; i < batchCount(p.task); i++) {
			const failure = failures.get(i);
			const same =
				!failure &&
				Buffer.compare(named.subarray(i * 32, i * 32 + 32), result.digests.subarray(i * 32, i * 32 + 32)) === 0;
			if (same) findings.plainSizes[p.first + i] = result.sizes?.[i] ?? -1;
			const manifest = same ? manifests.get(i) : undefined;
			if (manifest) findings.candidates.set(toHex(named.subarray(i * 32, i * 32 + 32)), parseCandidate(manifest));
			if (same) continue;
			const digest = toHex(named.subarray(i * 32, i * 32 + 32));
			const path = blobRelPath(digest);
			if (failure)
				issues.push({
					kind: failure.reason === "changed" ? "corrupt" : failure.reason,
					path,
					digest,
					detail: failure.message,
				});
			else issues.push({ kind: "corrupt", path, digest, detail: NAME_MISMATCH });
		}
		return;
	}
	const blob = p.blobs[0] as BlobEntry;
	const tree = blob.tree as ChunkTree; // chunks and file tasks are planned for tree blobs only
	const failure = failures.get(0);
	if (failure) {
		if (failure.size !== undefined) blob.size = failure.size;
		reportFailure(blob, failure, issues);
		return;
	}
	blob.size = tree.blobSize;
	if (p.task.kind === "file") {
		if (toHex(result.digests) === blob.digest) return;
		report(blob, "corrupt", NAME_MISMATCH, issues);
		relocate.push(blob);
	} else {
		const expected = tree.digests.subarray(p.first * 32, p.first * 32 + result.digests.length);
		const bad = result.bytesRead < p.task.length ? [p.first] : mismatchedChunks(expected, result.digests, p.first);
		if (bad.length > 0) report(blob, "corrupt", "", issues, bad);
	}
}

function reportFailure(blob: BlobEntry, failure: FileFailure, issues: StoreIssue[]): void {
	const tree = blob.tree;
	if (tree && failure.size !== undefined && failure.size !== tree.blobSize) {
		const what = failure.size < tree.blobSize ? "truncated" : "too long";
		report(blob, "corrupt", `${what}: ${failure.size} bytes, sidecar records ${tree.blobSize}`, issues);
		return;
	}
	const kind: IssueKind = failure.reason === "changed" ? "corrupt" : failure.reason;
	report(blob, kind, failure.message, issues);
}

/** Records a problem of a blob; problems of one blob merge into one issue (chunk lists accumulate). */
function report(blob: BlobEntry, kind: IssueKind, detail: string, issues: StoreIssue[], badChunks?: number[]): void {
	blob.failed = true;
	const prior = issues.find((i) => i.path === blob.rel && i.kind === kind);
	const tree = blob.tree;
	if (!prior) {
		const text = badChunks && tree ? chunkDetail(badChunks, tree) : detail;
		issues.push({ kind, path: blob.rel, digest: blob.digest, detail: text, ...(badChunks ? { badChunks } : {}) });
		return;
	}
	if (!badChunks || !tree) {
		if (detail === NAME_MISMATCH && !prior.detail.startsWith(NAME_MISMATCH))
			prior.detail = `${NAME_MISMATCH}; ${prior.detail}`;
		return;
	}
	prior.badChunks = [...new Set([...(prior.badChunks ?? []), ...badChunks])].sort((a, b) => a - b);
	const name = prior.detail.startsWith(NAME_MISMATCH) ? `${NAME_MISMATCH}; ` : "";
	prior.detail = `${name}${chunkDetail(prior.badChunks, tree)}`;
}

/** A tree blob that failed its name but whose chunks all match its sidecar: say what that means. */
function explainNameFailure(blob: BlobEntry, issues: StoreIssue[]): void {
	const issue = issues.find((i) => i.path === blob.rel && i.kind === "corrupt");
	if (issue && !issue.badChunks)
		issue.detail = `${NAME_MISMATCH}; its chunk-tree sidecar matches the altered content (rewritten together with it)`;
}

function finish(
	r: {
		dir: string;
		mode: VerifyMode;
		found: Scan;
		plainBytes: number;
		workers: number;
		tasks: { worker: number; caller: number };
		manifests: ManifestCheck;
	},
	started: number,
): VerifyStoreResult {
	const issues = r.found.issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.kind < b.kind ? -1 : 1));
	const counts: Record<IssueKind, number> = {
		corrupt: 0,
		missing: 0,
		misnamed: 0,
		stray: 0,
		refused: 0,
		unreadable: 0,
	};
	for (const issue of issues) counts[issue.kind]++;
	const trees = r.found.trees.filter((b) => b.tree && b.size === b.tree.blobSize);
	const sidecarOnly = r.mode === "tree" ? trees : [];
	const treeBytes = r.found.trees.reduce((n, b) => n + Math.max(0, b.size), 0);
	return {
		ok: issues.length === 0,
		dir: r.dir,
		mode: r.mode,
		blobs: r.found.trees.length + r.found.plain.count,
		bytes: treeBytes + r.plainBytes,
		treeBlobs: r.mode === "name" ? 0 : trees.length,
		notCheckedByName: { blobs: sidecarOnly.length, bytes: sidecarOnly.reduce((n, b) => n + Math.max(0, b.size), 0) },
		issues,
		counts,
		workers: r.workers,
		tasks: r.tasks,
		manifests: r.manifests,
		elapsedMs: performance.now() - started,
	};
}

function chunkDetail(bad: number[], tree: ChunkTree): string {
	const shown = bad.slice(0, 8).join(", ") + (bad.length > 8 ? `, ... (${bad.length} in all)` : "");
	return `chunk digest mismatch in chunk(s) ${shown} of ${tree.chunkCount} (${tree.chunkSize} B chunks)`;
}
