// Garbage collection of a project's fold store, as git prunes unreachable objects: a blob is
// referenced when a session file under the sessions folder names it (gc-scan.ts), or when a
// referenced manifest lists it (src/verify/manifest.ts, followed to the leaves); everything else is
// unreferenced. A dry run (the default) lists the unreferenced blobs. With `apply`, every blob that
// stays referenced is first hashed against its name and every manifest walked; when anything that
// stays is damaged or missing, nothing is removed. Then each unreferenced blob older than the
// retention is removed with its chunk-tree sidecar. A blob a live session wrote or freshened since
// gc started (FoldStore.put freshens a blob it finds) is kept: gc first moves the blob aside (one
// rename into tmp/, named gc-<digest>), then looks at its time. A writer that freshened it before the
// move shows in that look, and the blob is moved back; a writer that comes after the move finds no
// file to freshen and writes the blob anew. A gc killed between the move and the removal leaves
// tmp/gc-<digest>, which the next gc moves back before it lists anything. Does its own file I/O.

import { lstatSync, readdirSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import {
	blobPath,
	blobRelPath,
	decodeManifest,
	isDigestHex,
	looksLikeManifest,
	MANIFEST_MAX_BYTES,
	TMP_DIR,
} from "../verify/index.ts";
import { type GcOptions, parseGcOptions } from "./gc-options.ts";
import { digestsIn, listBlobs, type StoredBlob, sessionFiles } from "./gc-scan.ts";
import { readWholeChecked } from "./source-read.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** One unreferenced blob. */
interface Unreferenced {
	readonly digest: string;
	/** Its path relative to the store folder. */
	readonly path: string;
	readonly bytes: number;
	/** Days since it was last written or freshened. */
	readonly ageDays: number;
	/** Whether it is past the retention (removed with `apply`). */
	readonly expired: boolean;
}

/** What gc found and did. */
export interface GcResult {
	readonly storeDir: string;
	readonly sessionFiles: number;
	readonly blobs: { readonly count: number; readonly bytes: number };
	readonly referenced: { readonly count: number; readonly bytes: number };
	readonly unreferenced: readonly Unreferenced[];
	/** Problems with what stays referenced (with `apply`, any of them means nothing was removed). */
	readonly problems: readonly string[];
	readonly applied: boolean;
	readonly removed: { readonly count: number; readonly bytes: number };
	/** Unreferenced blobs kept because a writer touched them after gc started. */
	readonly freshened: number;
	readonly retentionDays: number;
}

/** The referenced set: blobs named by a session file, and everything their manifests list. */
async function referencedSet(
	storeDir: string,
	byDigest: ReadonlyMap<string, StoredBlob>,
	named: ReadonlySet<string>,
	problems: string[],
): Promise<Set<string>> {
	const seen = new Set<string>();
	const queue: { digest: string; where: string }[] = [];
	// A blob written since the listing (a live session's) is no candidate, but what it lists may be.
	const blobOf = (d: string) => byDigest.get(d) ?? storedNow(storeDir, d);
	for (const d of named) if (blobOf(d)) queue.push({ digest: d, where: "named by a session file" });
	while (queue.length > 0) {
		const { digest, where } = queue.pop() as { digest: string; where: string };
		if (seen.has(digest)) continue;
		const blob = blobOf(digest);
		if (!blob) {
			problems.push(`${blobRelPath(digest)}: missing (${where})`);
			continue;
		}
		seen.add(digest);
		if (blob.bytes > MANIFEST_MAX_BYTES) continue;
		const whole = await readWholeChecked(blob.path, digest, { maxSize: MANIFEST_MAX_BYTES }, { all: true });
		if (!whole.ok) {
			// A blob that cannot be read cannot say what it lists: nothing may be removed.
			problems.push(`${blobRelPath(digest)}: ${whole.reason} (${whole.detail}; ${where})`);
			continue;
		}
		if (!looksLikeManifest(whole.bytes)) continue;
		let label: string;
		try {
			const m = decodeManifest(Buffer.from(whole.bytes).toString("utf8"));
			label = m.kind === "fold" ? `fold ${m.foldId}` : `a node of ${where}`;
			m.children.forEach((c, i) => {
				const at = c.kind === "leaf" ? `entry ${c.id}` : `node ${i + 1}`;
				queue.push({ digest: c.sha256, where: `${at} of ${label}` });
			});
		} catch (error) {
			problems.push(`${blobRelPath(digest)}: not a manifest (${(error as Error).message}; ${where})`);
		}
	}
	return seen;
}

/** Hashes every referenced blob against its name (manifests were already read whole and checked). */
async function verifyReferenced(referenced: readonly StoredBlob[], problems: string[]): Promise<void> {
	for (const blob of referenced) {
		if (blob.bytes <= MANIFEST_MAX_BYTES) continue;
		const whole = await readWholeChecked(blob.path, blob.digest, { expectedSize: blob.bytes }, undefined);
		if (!whole.ok) problems.push(`${blobRelPath(blob.digest)}: ${whole.reason} (${whole.detail})`);
	}
}

/**
 * Collects the fold store of the sessions folder `sessionsDir` (`<sessionsDir>/<storeDirName>`):
 * lists (and with `apply` removes) the blobs no session file there references. See GcOptions.
 */
export async function collectGarbage(sessionsDir: string, options?: GcOptions, hooks?: GcHooks): Promise<GcResult> {
	const opts = parseGcOptions(options);
	const started = opts.now ?? Date.now();
	const storeDir = join(sessionsDir, opts.storeDirName);
	await restoreMovedAside(storeDir);
	// The blobs first, then the session files: a record appended after its blobs were listed names a
	// blob already listed; a blob written after the listing is not a candidate at all.
	const blobs = listBlobs(storeDir);
	const byDigest = new Map(blobs.map((b) => [b.digest, b]));
	const files = sessionFiles(sessionsDir, opts.storeDirName);
	const named = new Set<string>();
	for (const file of files) digestsIn(file, named);
	const problems: string[] = [];
	const referenced = await referencedSet(storeDir, byDigest, named, problems);
	const kept = blobs.filter((b) => referenced.has(b.digest));
	const cutoff = started - opts.retentionDays * DAY_MS;
	const unreferenced = blobs
		.filter((b) => !referenced.has(b.digest))
		.map((b) => ({
			digest: b.digest,
			path: blobRelPath(b.digest),
			bytes: b.bytes,
			ageDays: Math.max(0, (started - b.mtimeMs) / DAY_MS),
			expired: b.mtimeMs <= cutoff,
		}));
	const removed = { count: 0, bytes: 0 };
	let freshened = 0;
	if (opts.apply) {
		await verifyReferenced(kept, problems);
		if (problems.length === 0)
			for (const u of unreferenced.filter((x) => x.expired)) {
				const blob = byDigest.get(u.digest) as StoredBlob;
				await hooks?.beforeMove?.(u.digest);
				const aside = await moveAside(storeDir, u.digest);
				if (aside === undefined) continue;
				await hooks?.afterMove?.(u.digest);
				const now = timeOf(aside);
				if (now === undefined) continue;
				if (now !== blob.mtimeMs || now > cutoff) {
					// Freshened by a writer before the move: it stays (a writer after the move wrote it anew).
					await moveBack(storeDir, u.digest, aside);
					freshened++;
					continue;
				}
				await rm(aside, { force: true });
				// A writer that wrote the blob anew after the move keeps its sidecar (an optional index).
				if (blob.tree && timeOf(blob.path) === undefined) await rm(blob.tree, { force: true });
				removed.count++;
				removed.bytes += u.bytes;
			}
	}
	const sum = (list: readonly { bytes: number }[]) => list.reduce((n, b) => n + b.bytes, 0);
	return {
		storeDir,
		sessionFiles: files.length,
		blobs: { count: blobs.length, bytes: sum(blobs) },
		referenced: { count: kept.length, bytes: sum(kept) },
		unreferenced,
		problems,
		applied: opts.apply && problems.length === 0,
		removed,
		freshened,
		retentionDays: opts.retentionDays,
	};
}

/** The blob at `digest` as it is on disk now (undefined when there is none). */
function storedNow(storeDir: string, digest: string): StoredBlob | undefined {
	const path = blobPath(storeDir, digest);
	try {
		const st = lstatSync(path);
		return st.isFile() ? { digest, path, bytes: st.size, mtimeMs: st.mtimeMs, tree: undefined } : undefined;
	} catch {
		return undefined;
	}
}

/** Test seams: called around the move of an expired unreferenced blob, to interleave a writer. */
export interface GcHooks {
	readonly beforeMove?: (digest: string) => Promise<void>;
	readonly afterMove?: (digest: string) => Promise<void>;
}

const ASIDE_PREFIX = "gc-";

/** Moves the blob at `digest` into tmp/ (one rename); its new path, or undefined when it is gone. */
async function moveAside(storeDir: string, digest: string): Promise<string | undefined> {
	const aside = join(storeDir, TMP_DIR, `${ASIDE_PREFIX}${digest}`);
	try {
		await mkdir(join(storeDir, TMP_DIR), { recursive: true });
		await rename(blobPath(storeDir, digest), aside);
		return aside;
	} catch {
		return undefined;
	}
}

/** Puts a blob moved aside back at its address (a copy a writer wrote meanwhile has the same bytes). */
async function moveBack(storeDir: string, digest: string, aside: string): Promise<void> {
	await rename(aside, blobPath(storeDir, digest));
}

/** Moves back every blob a killed gc left in tmp/ (gc-<digest>), so nothing it had not removed is lost. */
async function restoreMovedAside(storeDir: string): Promise<void> {
	let names: string[];
	try {
		names = readdirSync(join(storeDir, TMP_DIR));
	} catch {
		return;
	}
	for (const name of names) {
		const digest = name.slice(ASIDE_PREFIX.length);
		if (!name.startsWith(ASIDE_PREFIX) || !isDigestHex(digest)) continue;
		await moveBack(storeDir, digest, join(storeDir, TMP_DIR, name)).catch(() => undefined);
	}
}

/** A file's modification time now (undefined when it is gone). */
function timeOf(path: string): number | undefined {
	try {
		return lstatSync(path).mtimeMs;
	} catch {
		return undefined;
	}
}
