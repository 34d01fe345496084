// How much the fold store holds, and how much of it a session's folds reach: every blob under
// sha256/ counted once (its size on disk, sidecars aside), and the distinct blobs a set of fold roots
// reaches through their manifests (an entry several folds share counted once). For a size report
// only: manifests are read (bounded, never following a link) but not hashed, and of any other blob
// only its first bytes, which say it is no manifest; reads verify elsewhere.
// Does its own (synchronous) file I/O.

import { blobPath, decodeManifest, looksLikeManifest, MANIFEST_MAX_BYTES, readSmallFile } from "../verify/index.ts";
import { headIsManifest } from "./blob-files.ts";
import { listBlobs } from "./gc-scan.ts";

/** The store's size and a session's share of it, in bytes. */
export interface StoreUsage {
	readonly blobs: number;
	readonly bytes: number;
	/** Distinct blobs the session's folds reach, and their bytes. */
	readonly sessionBlobs: number;
	readonly sessionBytes: number;
}

/** The usage of the store at `dir` and the share the fold sources `roots` reach. */
export function storeUsage(dir: string, roots: Iterable<string>): StoreUsage {
	const blobs = listBlobs(dir);
	const sizes = new Map(blobs.map((b) => [b.digest, b.bytes]));
	const reached = new Set<string>();
	const queue = [...roots];
	while (queue.length > 0) {
		const digest = queue.pop() as string;
		if (reached.has(digest) || !sizes.has(digest)) continue;
		reached.add(digest);
		if ((sizes.get(digest) as number) > MANIFEST_MAX_BYTES) continue;
		const path = blobPath(dir, digest);
		// An entry blob is only counted: its first bytes say it lists nothing.
		if (!headIsManifest(path)) continue;
		try {
			const bytes = readSmallFile(path, MANIFEST_MAX_BYTES);
			if (looksLikeManifest(bytes))
				for (const c of decodeManifest(Buffer.from(bytes).toString("utf8")).children) queue.push(c.sha256);
		} catch {
			// unreadable or not a manifest: counted as one blob
		}
	}
	let sessionBytes = 0;
	for (const d of reached) sessionBytes += sizes.get(d) as number;
	return {
		blobs: blobs.length,
		bytes: blobs.reduce((n, b) => n + b.bytes, 0),
		sessionBlobs: reached.size,
		sessionBytes,
	};
}
