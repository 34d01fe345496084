// The manifest pass of verifyStore: after every blob was hashed against its name, each fold's
// manifest (src/verify/manifest.ts) is walked from its root, and a child that is missing, of another
// size than its parent lists, not a manifest where a node is listed, or that failed its own hash is
// named with its path from the root ("fold f… › node 2 › entry e17"). A child that failed its hash
// already has an issue (corrupt, unreadable, refused); its detail gets the path. A node shared by
// several folds is walked once. The manifests come from the hashing tasks (the bytes that matched
// their names, kept by the batch that read them: tasks.ts keepManifests), so no blob is read twice;
// the only file I/O here is one lstat per child listed (present, and of the size its parent lists).

import { lstatSync } from "node:fs";
import { blobPath, blobRelPath } from "./layout.ts";
import { decodeManifest, type Manifest } from "./manifest.ts";
import type { StoreIssue } from "./store-scan.ts";

/** What the manifest pass saw. */
export interface ManifestCheck {
	/** Manifests found (roots and inner nodes). */
	readonly manifests: number;
	/** Of them, fold roots. */
	readonly folds: number;
}

function sizeOf(dir: string, digest: string): number | undefined {
	try {
		return lstatSync(blobPath(dir, digest)).size;
	} catch {
		return undefined;
	}
}

/**
 * Walks every fold manifest among `candidates` (digest -> the bytes of each blob that hashed to its
 * name and starts like a manifest) and adds an issue for each child problem to `issues`. `bad` holds
 * the digests whose blob failed its hash.
 */
export function checkManifests(
	dir: string,
	candidates: ReadonlyMap<string, Uint8Array>,
	bad: ReadonlySet<string>,
	issues: StoreIssue[],
): ManifestCheck {
	const parsed = new Map<string, Manifest>();
	let manifests = 0;
	for (const [digest, bytes] of candidates) {
		if (bad.has(digest)) continue;
		manifests++;
		try {
			parsed.set(digest, decodeManifest(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
		} catch (error) {
			issues.push({
				kind: "corrupt",
				path: blobRelPath(digest),
				digest,
				detail: `starts like a manifest but is not one (${error instanceof Error ? error.message : String(error)})`,
			});
		}
	}
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
		const size = sizeOf(dir, c.sha256);
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
