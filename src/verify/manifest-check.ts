// The manifest pass of verifyStore: after every blob was hashed against its name, each fold's
// manifest (src/verify/manifest.ts) is walked from its root, and a child that is missing, of another
// size than its parent lists, not a manifest where a node is listed, or that failed its own hash is
// named with its path from the root ("fold f… › node 2 › entry e17"). A child that failed its hash
// already has an issue (corrupt, unreadable, refused); its detail gets the path. A node shared by
// several folds is walked once. The manifests come from the hashing tasks (the bytes that matched
// their names, kept by the batch that read them: tasks.ts keepManifests, and parsed as each batch
// arrives), and a child's size comes from the hashing too (the caller's sizesOf), so no blob is read
// or stat'ed again and only the walk is left for the end. Pure: no file I/O.

import { blobRelPath } from "./layout.ts";
import { decodeManifest, type Manifest } from "./manifest.ts";
import type { StoreIssue } from "./store-scan.ts";

/** What the manifest pass saw. */
export interface ManifestCheck {
	/** Manifests found (roots and inner nodes). */
	readonly manifests: number;
	/** Of them, fold roots. */
	readonly folds: number;
}

/** A blob that starts like a manifest, parsed: the manifest, or why it is not one. */
export type ParsedCandidate = { manifest: Manifest } | { error: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses the bytes of a blob that starts like a manifest (while the hashing goes on). */
export function parseCandidate(bytes: Uint8Array): ParsedCandidate {
	try {
		return { manifest: decodeManifest(utf8.decode(bytes)) };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * Walks every fold manifest among `candidates` (digest -> each blob that hashed to its name and
 * starts like a manifest, parsed) and adds an issue for each child problem to `issues`. `bad` holds
 * the digests whose blob failed its hash; `sizesOf` gives the size of each of the digests asked for
 * that is in the store (and passed its hash), leaving out those that are not.
 */
export function checkManifests(
	candidates: ReadonlyMap<string, ParsedCandidate>,
	bad: ReadonlySet<string>,
	issues: StoreIssue[],
	sizesOf: (digests: ReadonlySet<string>) => ReadonlyMap<string, number>,
): ManifestCheck {
	const parsed = new Map<string, Manifest>();
	let manifests = 0;
	for (const [digest, candidate] of candidates) {
		if (bad.has(digest)) continue;
		manifests++;
		if ("manifest" in candidate) parsed.set(digest, candidate.manifest);
		else
			issues.push({
				kind: "corrupt",
				path: blobRelPath(digest),
				digest,
				detail: `starts like a manifest but is not one (${candidate.error})`,
			});
	}
	const listed = new Set<string>();
	for (const m of parsed.values()) for (const c of m.children) if (!bad.has(c.sha256)) listed.add(c.sha256);
	const sizes = sizesOf(listed);
	const walked = new Set<string>();
	const byDigest = new Map(issues.filter((i) => i.digest).map((i) => [i.digest as string, i]));
	const note = (digest: string, where: string) => {
		const issue = byDigest.get(digest);
		if (issue && !issue.detail.includes(" › ")) issue.detail += `; it is ${where}`;
	};
	const problem = (kind: StoreIssue["kind"], digest: string, detail: string) => {
		const issue = { kind, path: blobRelPath(digest), digest, detail };
		issues.push(issue);
		byDigest.set(digest, issue);
	};
	const child = (c: Manifest["children"][number], where: string): void => {
		if (walked.has(c.sha256)) return;
		walked.add(c.sha256);
		if (bad.has(c.sha256)) {
			note(c.sha256, where);
			return;
		}
		const size = sizes.get(c.sha256);
		if (size === undefined) {
			problem("missing", c.sha256, `${where}: listed by its manifest, not in the store`);
			return;
		}
		if (c.kind === "leaf") {
			if (size !== c.bytes) problem("corrupt", c.sha256, `${where}: ${size} bytes, its manifest lists ${c.bytes}`);
			return;
		}
		const node = parsed.get(c.sha256);
		if (node?.kind !== "node" || node.bytes !== c.bytes || node.entries !== c.entries) {
			const what = node ? `holds ${node.bytes} bytes in ${node.entries} entries` : "is not a manifest";
			problem("corrupt", c.sha256, `${where}: ${what}, its parent lists ${c.bytes} bytes in ${c.entries} entries`);
			return;
		}
		walk(node, where);
	};
	const walk = (m: Manifest, path: string): void => {
		for (let i = 0; i < m.children.length; i++) {
			const c = m.children[i] as Manifest["children"][number];
			child(c, c.kind === "leaf" ? `${path} › entry ${c.id}` : `${path} › node ${i + 1}`);
		}
	};
	let folds = 0;
	for (const m of parsed.values())
		if (m.kind === "fold") {
			folds++;
			walk(m, `fold ${m.foldId}`);
		}
	return { manifests, folds };
}
