// Merkle manifests: a fold's source stored as a tree of blobs instead of one concatenated blob. The
// leaves are the fold's entries, each a blob of its own exact bytes (one JSON line), shared by every
// fold that holds it; the inner nodes and the root are manifests listing their children in order, each
// with its SHA-256, its byte length and (for a leaf) its entry id, (for a node) its entry count. A
// fold's source is the concatenation of its leaves, and the root's SHA-256 commits to every byte.
//
// Children are grouped content-defined, like a prolly tree: a group ends after a child whose digest's
// first 16 bits are 0 modulo FANOUT (or at MAX_FANOUT children), so the same run of entries gives the
// same inner nodes in every fold that holds it (a consolidation shares its chapters' nodes), and the
// tree depends on the entries alone, never on what the store held when it was written. The root names
// its fold; inner nodes name nothing, so they are shared. Canonical text, one line per child:
//
//   pi-fold manifest 1 fold <bytes> <entries> <JSON fold id>   (root)   | pi-fold manifest 1 node <bytes> <entries>
//   L <sha256> <bytes> <JSON entry id>                         (a leaf entry blob)
//   N <sha256> <bytes> <entries>                               (an inner node)
//
// A manifest that is not exactly in this form (re-serialized) is refused. Pure: no I/O.

import { sha256Hex } from "../wasm/index.ts";

/** Average children per manifest (a boundary after a child with probability 1/FANOUT). */
export const MANIFEST_FANOUT = 16;
/** At most this many children in one manifest. */
export const MANIFEST_MAX_CHILDREN = 256;
/** A manifest is never larger than this (256 children of at most ~4 KiB each): what a reader accepts. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Entry ids longer than this are not written in a manifest (the fold keeps the old single-blob form). */
export const MANIFEST_MAX_ID_CHARS = 1024;

const MAGIC = "pi-fold manifest 1 ";
const MAGIC_BYTES = new TextEncoder().encode(MAGIC);

/** One child of a manifest: a leaf entry blob, or an inner node. */
export type ManifestChild =
	| { readonly kind: "leaf"; readonly sha256: string; readonly bytes: number; readonly id: string }
	| { readonly kind: "node"; readonly sha256: string; readonly bytes: number; readonly entries: number };

/** A parsed manifest: the root of a fold (named) or an inner node, with its children in order. */
export interface Manifest {
	readonly kind: "fold" | "node";
	/** The fold's id (roots only). */
	readonly foldId?: string;
	/** Bytes of the source beneath it (the sum of its children's). */
	readonly bytes: number;
	/** Entries beneath it (the sum of its children's). */
	readonly entries: number;
	readonly children: readonly ManifestChild[];
}

/** A manifest's bytes are not a canonical manifest. */
export class ManifestFormatError extends Error {
	override name = "ManifestFormatError";
}

/** Whether `bytes` start like a manifest (a fold source in the old form starts with `{`). */
export function looksLikeManifest(bytes: Uint8Array): boolean {
	if (bytes.length < MAGIC_BYTES.length) return false;
	for (let i = 0; i < MAGIC_BYTES.length; i++) if (bytes[i] !== MAGIC_BYTES[i]) return false;
	return true;
}

/** Bytes of the head a reader needs to tell a manifest from an old-form source. */
export const MANIFEST_MAGIC_BYTES = MAGIC_BYTES.length;

/** The canonical text of a manifest. */
export function encodeManifest(m: Manifest): string {
	const head =
		m.kind === "fold"
			? `${MAGIC}fold ${m.bytes} ${m.entries} ${JSON.stringify(m.foldId ?? "")}\n`
			: `${MAGIC}node ${m.bytes} ${m.entries}\n`;
	let out = head;
	for (const c of m.children)
		out +=
			c.kind === "leaf"
				? `L ${c.sha256} ${c.bytes} ${JSON.stringify(c.id)}\n`
				: `N ${c.sha256} ${c.bytes} ${c.entries}\n`;
	return out;
}

const HEAD = /^pi-fold manifest 1 (?:fold (\d+) (\d+) ("(?:[^"\\]|\\.)*")|node (\d+) (\d+))$/;
const LEAF = /^L ([0-9a-f]{64}) (\d+) ("(?:[^"\\]|\\.)*")$/;
const NODE = /^N ([0-9a-f]{64}) (\d+) (\d+)$/;

function int(text: string, what: string): number {
	const n = Number(text);
	if (!Number.isSafeInteger(n)) throw new ManifestFormatError(`${what} is not an integer: ${text}`);
	return n;
}

/** Parses a manifest; throws ManifestFormatError when it is not one in canonical form. */
export function decodeManifest(text: string): Manifest {
	const lines = text.split("\n");
	if (lines.pop() !== "") throw new ManifestFormatError("a manifest ends with a newline");
	const head = HEAD.exec(lines[0] ?? "");
	if (!head) throw new ManifestFormatError("the first line is not a manifest header");
	const children: ManifestChild[] = [];
	for (let i = 1; i < lines.length; i++) {
		const line = lines[i] as string;
		const leaf = LEAF.exec(line);
		const node = leaf ? null : NODE.exec(line);
		if (leaf)
			children.push({
				kind: "leaf",
				sha256: leaf[1] as string,
				bytes: int(leaf[2] as string, "a leaf's bytes"),
				id: JSON.parse(leaf[3] as string),
			});
		else if (node)
			children.push({
				kind: "node",
				sha256: node[1] as string,
				bytes: int(node[2] as string, "a node's bytes"),
				entries: int(node[3] as string, "a node's entries"),
			});
		else throw new ManifestFormatError(`line ${i + 1} is not a child`);
	}
	const m: Manifest = head[1]
		? {
				kind: "fold",
				bytes: int(head[1], "bytes"),
				entries: int(head[2] as string, "entries"),
				foldId: JSON.parse(head[3] as string),
				children,
			}
		: { kind: "node", bytes: int(head[4] as string, "bytes"), entries: int(head[5] as string, "entries"), children };
	if (children.length === 0 && m.entries !== 0) throw new ManifestFormatError("a manifest with no children");
	if (children.length > MANIFEST_MAX_CHILDREN)
		throw new ManifestFormatError(`more than ${MANIFEST_MAX_CHILDREN} children`);
	const bytes = children.reduce((s, c) => s + c.bytes, 0);
	const entries = children.reduce((s, c) => s + (c.kind === "leaf" ? 1 : c.entries), 0);
	if (bytes !== m.bytes || entries !== m.entries)
		throw new ManifestFormatError(
			`the header says ${m.bytes} bytes in ${m.entries} entries, the children hold ${bytes} bytes in ${entries}`,
		);
	if (encodeManifest(m) !== text) throw new ManifestFormatError("not in canonical form");
	return m;
}

/** A fold's source as blobs: the root manifest's digest, the source's size, and every blob to store. */
export interface FoldTree {
	readonly root: string;
	/** Bytes of the fold's source (the concatenation of its leaves). */
	readonly bytes: number;
	/** Every blob of the tree by digest: leaves first, then nodes bottom-up, the root last. */
	readonly blobs: ReadonlyMap<string, Uint8Array>;
}

const encoder = new TextEncoder();

/** A content-defined group boundary after `child`. */
function endsGroup(child: ManifestChild): boolean {
	return Number.parseInt(child.sha256.slice(0, 4), 16) % MANIFEST_FANOUT === 0;
}

function groups(level: readonly ManifestChild[], fixed: boolean): ManifestChild[][] {
	const out: ManifestChild[][] = [];
	let current: ManifestChild[] = [];
	for (const child of level) {
		current.push(child);
		const full = current.length >= (fixed ? MANIFEST_FANOUT : MANIFEST_MAX_CHILDREN);
		if ((!fixed && endsGroup(child)) || full) {
			out.push(current);
			current = [];
		}
	}
	if (current.length > 0 || out.length === 0) out.push(current);
	return out;
}

function sums(children: readonly ManifestChild[]): { bytes: number; entries: number } {
	let bytes = 0;
	let entries = 0;
	for (const c of children) {
		bytes += c.bytes;
		entries += c.kind === "leaf" ? 1 : c.entries;
	}
	return { bytes, entries };
}

/**
 * The tree of a fold's source from its entries in order (`data`: each entry's exact bytes, one JSON
 * line). The same entries give the same tree, wherever and whenever it is built.
 */
export function buildFoldTree(foldId: string, leaves: readonly { id: string; data: Uint8Array }[]): FoldTree {
	for (const leaf of leaves)
		if (leaf.id.length > MANIFEST_MAX_ID_CHARS)
			throw new RangeError(`buildFoldTree(): entry id longer than ${MANIFEST_MAX_ID_CHARS} characters`);
	const blobs = new Map<string, Uint8Array>();
	let level: ManifestChild[] = leaves.map((leaf) => {
		const sha256 = sha256Hex(leaf.data);
		blobs.set(sha256, leaf.data);
		return { kind: "leaf", sha256, bytes: leaf.data.length, id: leaf.id };
	});
	for (;;) {
		let grouped = groups(level, false);
		// A level that did not shrink (every child ended a group) is grouped by count, so the tree ends.
		if (grouped.length > 1 && grouped.length === level.length) grouped = groups(level, true);
		if (grouped.length === 1) {
			const children = grouped[0] as ManifestChild[];
			const data = encoder.encode(encodeManifest({ kind: "fold", foldId, ...sums(children), children }));
			const root = sha256Hex(data);
			blobs.set(root, data);
			return { root, bytes: sums(children).bytes, blobs };
		}
		level = grouped.map((children) => {
			const size = sums(children);
			const data = encoder.encode(encodeManifest({ kind: "node", ...size, children }));
			const sha256 = sha256Hex(data);
			blobs.set(sha256, data);
			return { kind: "node", sha256, bytes: size.bytes, entries: size.entries };
		});
	}
}
