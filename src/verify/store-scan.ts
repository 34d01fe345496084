// The directory scan of verifyStore: list sha256/ and its fan-out folders without following any
// symlink (readdir entry types are lstat's answer), classify every name, and read the chunk-tree
// sidecars (checked and bounded: safe-open.ts). Memory stays small whatever the number of blobs:
// a blob without a sidecar is kept as its 32-byte digest only (DigestList; its path is rebuilt from
// it), and only the few blobs with a sidecar get an entry object. Blobs are not stat'ed one by one
// (that costs more than a tenth of a whole verification): a blob's size comes from its sidecar, or
// from fstat when a task opens it; for the decision to start workers and for progress, the bytes of
// blobs without a sidecar are estimated from an lstat of an evenly spread sample. Before the scan,
// firstLook estimates the same from a few fan-out folders, so workers can boot while the scan runs.
// Synchronous (a few milliseconds for thousands of blobs). Does its own file I/O.

import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BLOBS_DIR, blobRelPath, classifyEntryName, isFanoutName, TREE_SUFFIX, toHex } from "./layout.ts";
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

/** A blob with a chunk-tree sidecar (or, while scanning, one whose sidecar is still to be read). */
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

/** Digests (32 bytes each) in a growing buffer: a blob without a sidecar costs 32 bytes of memory. */
export class DigestList {
	bytes = new Uint8Array(32 * 256);
	count = 0;
	/** A Buffer over `bytes`, to write hex into them without an allocation per blob. */
	private view = Buffer.from(this.bytes.buffer);
	push(hex: string): void {
		if ((this.count + 1) * 32 > this.bytes.length) {
			const next = new Uint8Array(this.bytes.length * 2);
			next.set(this.bytes);
			this.bytes = next;
			this.view = Buffer.from(next.buffer);
		}
		this.view.write(hex, this.count * 32, 32, "hex");
		this.count++;
	}
	hex(i: number): string {
		return toHex(this.bytes.subarray(i * 32, i * 32 + 32));
	}
}

export interface Scan {
	/** `<dir>/sha256/`: a blob's path is this + `<2 hex>/<64 hex>`. */
	prefix: string;
	/** Blobs with a usable sidecar. */
	trees: BlobEntry[];
	/** Blobs without one (or whose sidecar is damaged: they are verified whole). */
	plain: DigestList;
	issues: StoreIssue[];
	/** Mean size of the blobs in `plain`, from a sample (0 when there are none). */
	meanPlain: number;
	/** Sidecar-recorded bytes plus the estimate for the plain blobs. */
	estimatedBytes: number;
}

/** Blobs without a sidecar whose size is sampled (evenly spread) to estimate their total. */
export const SIZE_SAMPLE = 32;
/** Fan-out folders firstLook lists, and blobs it lstats in each. */
const LOOK_FOLDERS = 3;
const LOOK_BLOBS = 4;

/** Sidecars larger than this (64 MiB: a 2 TiB blob at 1 MiB chunks) are refused unread. */
export const MAX_SIDECAR_BYTES = 64 * 1024 * 1024;

/** The path of a blob under the scan's prefix (`/` works as a separator everywhere Node runs). */
export function plainPath(prefix: string, digest: string): string {
	return `${prefix}${digest.slice(0, 2)}/${digest}`;
}

function listFanout(dir: string, fanout: string, scan: Scan, expected: Set<string>): void {
	const relDir = `${BLOBS_DIR}/${fanout}`;
	let entries: Dirent[];
	try {
		entries = readdirSync(join(dir, relDir), { withFileTypes: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? String(error);
		scan.issues.push({ kind: "unreadable", path: relDir, detail: `cannot list folder (${code})` });
		return;
	}
	const sidecars = new Set<string>();
	const blobs: string[] = [];
	for (const entry of entries) {
		if (entry.isFile()) {
			const name = classifyEntryName(fanout, entry.name);
			if (name.kind === "blob") blobs.push(name.digest);
			else if (name.kind === "tree") sidecars.add(name.digest);
			else {
				const rel = `${relDir}/${entry.name}`;
				if (name.kind === "invalid")
					scan.issues.push({ kind: "misnamed", path: rel, detail: "file name is not a SHA-256 digest" });
				else {
					const detail = `belongs in ${BLOBS_DIR}/${name.digest.slice(0, 2)}/`;
					scan.issues.push({ kind: "misnamed", path: rel, digest: name.digest, detail });
				}
			}
			continue;
		}
		const rel = `${relDir}/${entry.name}`;
		if (entry.isSymbolicLink()) scan.issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
		else
			scan.issues.push({
				kind: "stray",
				path: rel,
				detail: entry.isDirectory() ? "unexpected folder" : "not a regular file",
			});
	}
	for (const digest of blobs) {
		expected.delete(digest);
		if (!sidecars.delete(digest)) scan.plain.push(digest);
		else attachTree(dir, digest, scan);
	}
	for (const digest of sidecars) {
		const detail = `blob absent, but its sidecar ${blobRelPath(digest)}.tree exists`;
		scan.issues.push({ kind: "missing", path: blobRelPath(digest), digest, detail });
	}
}

/** Reads a blob's sidecar; a damaged one is an issue, and the blob is then verified whole. */
function attachTree(dir: string, digest: string, scan: Scan): void {
	const rel = blobRelPath(digest);
	try {
		const tree = decodeTree(readSmallFile(join(dir, `${rel}.tree`), MAX_SIDECAR_BYTES));
		if (tree.blobDigest !== digest) throw new TreeFormatError(`sidecar describes ${tree.blobDigest}`);
		const entry = { digest, rel, abs: plainPath(scan.prefix, digest), size: -1, tree, pending: 0, failed: false };
		scan.trees.push(entry);
	} catch (error) {
		const detail =
			error instanceof TreeFormatError
				? error.message
				: error instanceof FileRefusedError
					? `sidecar ${error.detail}`
					: `cannot read sidecar (${(error as NodeJS.ErrnoException).code ?? error})`;
		scan.issues.push({
			kind: "corrupt",
			path: `${rel}.tree`,
			digest,
			detail: `${detail}; blob verified whole instead`,
		});
		scan.plain.push(digest);
	}
}

/** Mean size of an evenly spread sample of the plain blobs (lstat, never following links; failures skipped). */
function sampleMean(scan: Scan): number {
	const n = scan.plain.count;
	if (n === 0) return 0;
	const step = Math.max(1, Math.floor(n / SIZE_SAMPLE));
	let bytes = 0;
	let seen = 0;
	for (let i = 0; i < n && seen < SIZE_SAMPLE; i += step) {
		const st = lstatSync(plainPath(scan.prefix, scan.plain.hex(i)), { throwIfNoEntry: false });
		if (!st?.isFile()) continue;
		bytes += st.size;
		seen++;
	}
	return seen > 0 ? bytes / seen : 0;
}

/**
 * A first estimate of a store's bytes and blobs, before its scan (a fraction of a millisecond): the
 * fan-out folders, times what LOOK_FOLDERS of them (evenly spread) hold, from their listing, an lstat
 * of each blob with a sidecar (the large ones) and the mean of up to LOOK_BLOBS others. Never throws;
 * undefined when the store cannot be read this way (the scan will say why).
 */
export function firstLook(dir: string): { bytes: number; blobs: number } | undefined {
	try {
		const root = join(dir, BLOBS_DIR);
		const fanouts = readdirSync(root).filter(isFanoutName);
		const step = Math.max(1, Math.floor(fanouts.length / LOOK_FOLDERS));
		let bytes = 0;
		let blobs = 0;
		let looked = 0;
		for (let f = 0; f < fanouts.length && looked < LOOK_FOLDERS; f += step, looked++) {
			const folder = join(root, fanouts[f] as string);
			const names = readdirSync(folder);
			const sidecars = new Set(names.filter((n) => n.endsWith(TREE_SUFFIX)));
			const plain = names.filter((n) => !n.endsWith(TREE_SUFFIX));
			const large = plain.filter((n) => sidecars.has(`${n}${TREE_SUFFIX}`));
			const small = plain.filter((n) => !sidecars.has(`${n}${TREE_SUFFIX}`));
			const size = (name: string) => lstatSync(join(folder, name), { throwIfNoEntry: false })?.size ?? 0;
			const sample = small.slice(0, Math.max(0, LOOK_BLOBS - large.length));
			const mean = sample.length > 0 ? sample.reduce((n, name) => n + size(name), 0) / sample.length : 0;
			bytes += large.reduce((n, name) => n + size(name), 0) + small.length * mean;
			blobs += plain.length;
		}
		if (looked === 0) return { bytes: 0, blobs: 0 };
		return { bytes: (bytes * fanouts.length) / looked, blobs: (blobs * fanouts.length) / looked };
	} catch {
		return undefined;
	}
}

/**
 * Scans the store at `dir` (sha256/ must be a real directory; the caller checks). Digests in
 * `expected` that are found are removed from it (what is left is missing). `onEstimate` is called
 * once, with the estimated total bytes and blob count, as soon as the sidecars are read and the
 * sample taken, so the caller can start its workers while it plans.
 */
export function scanStore(
	dir: string,
	expected: Set<string>,
	onEstimate?: (bytes: number, blobs: number) => void,
): Scan {
	const scan: Scan = {
		prefix: `${join(dir, BLOBS_DIR)}/`,
		trees: [],
		plain: new DigestList(),
		issues: [],
		meanPlain: 0,
		estimatedBytes: 0,
	};
	for (const entry of readdirSync(join(dir, BLOBS_DIR), { withFileTypes: true })) {
		const rel = `${BLOBS_DIR}/${entry.name}`;
		if (entry.isSymbolicLink()) scan.issues.push({ kind: "refused", path: rel, detail: "symlink (not followed)" });
		else if (entry.isDirectory() && isFanoutName(entry.name)) listFanout(dir, entry.name, scan, expected);
		else
			scan.issues.push({
				kind: "stray",
				path: rel,
				detail: entry.isDirectory() ? "unexpected folder" : "unexpected file",
			});
	}
	scan.meanPlain = sampleMean(scan);
	const treed = scan.trees.reduce((n, b) => n + (b.tree?.blobSize ?? 0), 0);
	scan.estimatedBytes = treed + Math.round(scan.meanPlain * scan.plain.count);
	onEstimate?.(scan.estimatedBytes, scan.trees.length + scan.plain.count);
	return scan;
}
