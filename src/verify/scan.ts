// The directory scan of verifyStore: list sha256/ and its fan-out folders without following any
// symlink (readdir entry types are lstat's answer), classify every name, and read the chunk-tree
// sidecars (checked and bounded: safe-open.ts). Blobs are not stat'ed one by one here (that costs
// more than a tenth of a whole verification): a blob's size comes from its sidecar, or from fstat
// when a task opens it. For the decision to start workers and for progress, the bytes of blobs
// without a sidecar are estimated from an lstat of an evenly spread sample. Synchronous (a few
// milliseconds for thousands of blobs). Does its own file I/O.

import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { BLOBS_DIR, blobRelPath, classifyEntryName, isFanoutName } from "./layout.ts";
import { FileRefusedError, readSmallFile } from "./safe-open.ts";
import { type ChunkTree, decodeTree, TreeFormatError } from "./tree.ts";

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

/** A blob found by the scan. */
export interface BlobEntry {
	digest: string;
	rel: string;
	abs: string;
	/** Its size: -1 until a task reads it (or a failure reports it). */
	size: number;
	tree: ChunkTree | undefined;
	/** Tasks still outstanding for this blob; it counts as done at 0. */
	pending: number;
	failed: boolean;
}

export interface Scan {
	blobs: Map<string, BlobEntry>;
	issues: StoreIssue[];
	/** Mean size of the blobs without a sidecar, from a sample (0 when there are none). */
	meanUntreed: number;
	/** Sidecar-recorded bytes plus the estimate for blobs without a sidecar. */
	estimatedBytes: number;
}

/** Blobs without a sidecar whose size is sampled (evenly spread) to estimate their total. */
export const SIZE_SAMPLE = 32;

/** Sidecars larger than this (64 MiB: a 2 TiB blob at 1 MiB chunks) are refused unread. */
export const MAX_SIDECAR_BYTES = 64 * 1024 * 1024;

interface Listing {
	blobs: { fanout: string; name: string; digest: string }[];
	trees: Map<string, string>; // digest -> sidecar rel path
}

function list(dir: string, issues: StoreIssue[]): Listing {
	const out: Listing = { blobs: [], trees: new Map() };
	for (const entry of readdirSync(join(dir, BLOBS_DIR), { withFileTypes: true })) {
		const rel = `${BLOBS_DIR}/${entry.name}`;
		if (entry.isSymbolicLink()) issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
		else if (entry.isDirectory() && isFanoutName(entry.name)) listFanout(dir, entry.name, out, issues);
		else
			issues.push({ kind: "stray", path: rel, detail: entry.isDirectory() ? "unexpected folder" : "unexpected file" });
	}
	return out;
}

function listFanout(dir: string, fanout: string, out: Listing, issues: StoreIssue[]): void {
	const relDir = `${BLOBS_DIR}/${fanout}`;
	let entries: Dirent[];
	try {
		entries = readdirSync(join(dir, relDir), { withFileTypes: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? String(error);
		issues.push({ kind: "unreadable", path: relDir, detail: `cannot list folder (${code})` });
		return;
	}
	for (const entry of entries) {
		const rel = `${relDir}/${entry.name}`;
		if (entry.isSymbolicLink()) {
			issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
			continue;
		}
		if (!entry.isFile()) {
			const detail = entry.isDirectory() ? "unexpected folder" : "not a regular file";
			issues.push({ kind: "stray", path: rel, detail });
			continue;
		}
		const name = classifyEntryName(fanout, entry.name);
		if (name.kind === "invalid") {
			issues.push({ kind: "misnamed", path: rel, detail: "file name is not a SHA-256 digest" });
		} else if (name.kind === "misplaced") {
			const detail = `belongs in ${BLOBS_DIR}/${name.digest.slice(0, 2)}/`;
			issues.push({ kind: "misnamed", path: rel, digest: name.digest, detail });
		} else if (name.kind === "tree") out.trees.set(name.digest, rel);
		else out.blobs.push({ fanout, name: entry.name, digest: name.digest });
	}
}

function readSidecar(abs: string): ChunkTree {
	return decodeTree(readSmallFile(abs, MAX_SIDECAR_BYTES));
}

/** Reads the sidecars of the blobs that have one; a damaged sidecar is an issue (its blob is then verified whole). */
function attachTrees(dir: string, listing: Listing, blobs: Map<string, BlobEntry>, issues: StoreIssue[]): void {
	for (const [digest, rel] of listing.trees) {
		const blob = blobs.get(digest);
		if (!blob) {
			const detail = `blob absent, but its sidecar ${rel} exists`;
			issues.push({ kind: "missing", path: blobRelPath(digest), digest, detail });
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
					: error instanceof FileRefusedError
						? `sidecar ${error.detail}`
						: `cannot read sidecar (${(error as NodeJS.ErrnoException).code ?? error})`;
			issues.push({ kind: "corrupt", path: rel, digest, detail: `${detail}; blob verified whole instead` });
		}
	}
}

/** Mean size of an evenly spread sample of `blobs` (lstat, never following links; failures skipped). */
function sampleMean(blobs: BlobEntry[]): number {
	if (blobs.length === 0) return 0;
	const step = Math.max(1, Math.floor(blobs.length / SIZE_SAMPLE));
	let bytes = 0;
	let seen = 0;
	for (let i = 0; i < blobs.length && seen < SIZE_SAMPLE; i += step) {
		const st = lstatSync((blobs[i] as BlobEntry).abs, { throwIfNoEntry: false });
		if (!st?.isFile()) continue;
		bytes += st.size;
		seen++;
	}
	return seen > 0 ? bytes / seen : 0;
}

/**
 * Scans the store at `dir` (sha256/ must be a real directory; the caller checks). `onEstimate` is
 * called once, with the estimated total bytes, before the scan returns: as soon as the sidecars are
 * read and the sample taken, so the caller can start its workers while it plans.
 */
export function scanStore(dir: string, onEstimate?: (bytes: number) => void): Scan {
	const issues: StoreIssue[] = [];
	const listing = list(dir, issues);
	const blobs = new Map<string, BlobEntry>();
	const root = dir.endsWith(sep) ? dir : `${dir}${sep}`;
	for (const { fanout, name, digest } of listing.blobs) {
		const rel = `${BLOBS_DIR}/${fanout}/${name}`;
		const abs = `${root}${BLOBS_DIR}${sep}${fanout}${sep}${name}`;
		blobs.set(digest, { digest, rel, abs, size: -1, tree: undefined, pending: 0, failed: false });
	}
	attachTrees(dir, listing, blobs, issues);
	let treed = 0;
	const untreed: BlobEntry[] = [];
	for (const blob of blobs.values()) {
		if (blob.tree) treed += blob.tree.blobSize;
		else untreed.push(blob);
	}
	const meanUntreed = sampleMean(untreed);
	const estimatedBytes = treed + Math.round(meanUntreed * untreed.length);
	onEstimate?.(estimatedBytes);
	return { blobs, issues, meanUntreed, estimatedBytes };
}
