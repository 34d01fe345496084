// The fold store's Merkle manifests (src/verify/manifest.ts, src/store/tree-read.ts): a fold's source
// stored as one blob per entry plus manifests, hashes cross-checked with node:crypto; the same
// entries give the same tree; a fold over another fold's entries shares its blobs; slices read only
// the entries they show and tile the source exactly; a damaged or missing blob is refused naming its
// path from the root; the old single-blob form still reads; search scans a manifest's entries.

import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { foldId, foldSource } from "../../src/lattice/index.ts";
import { leafBlobs } from "../../src/runtime/index.ts";
import {
	type CompiledQuery,
	closeSearchPools,
	compileQuery,
	FoldStore,
	SourceVerificationError,
	type VerifyEvent,
} from "../../src/store/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import {
	blobPath,
	buildFoldTree,
	decodeManifest,
	encodeManifest,
	ManifestFormatError,
} from "../../src/verify/index.ts";
import { damage, filesUnder, flipAt, mixedText, tempDir } from "./helpers.ts";

afterAll(() => closeSearchPools());

const nodeSha = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

function entries(n: number, bytes = 900, seed = 1): TranscriptEntry[] {
	return Array.from({ length: n }, (_, i) => ({
		id: `e${seed}-${i}`,
		message: { role: "toolResult", content: `${i}: ${mixedText(bytes, seed * 1000 + i)}` } as never,
	}));
}

function storedBytes(dir: string): number {
	return filesUnder(dir).reduce((sum, f) => sum + readFileSync(`${dir}/${f}`).length, 0);
}

function query(pattern: string): CompiledQuery {
	const compiled = compileQuery({ pattern, regex: false });
	if (!compiled.ok) throw new Error(compiled.error);
	return compiled.query;
}

describe("a fold source as a Merkle manifest", () => {
	it("stores each entry as a blob of its own line, and the root commits to every byte (checked with node:crypto)", async () => {
		const leaves = entries(300);
		const tree = buildFoldTree(foldId(leaves), leafBlobs(leaves));
		for (const leaf of leaves) {
			const line = foldSource([leaf]);
			expect(tree.blobs.get(nodeSha(line))).toEqual(new TextEncoder().encode(line));
		}
		for (const [sha, data] of tree.blobs) expect(nodeSha(data)).toBe(sha);
		expect(tree.bytes).toBe(Buffer.byteLength(foldSource(leaves)));
		// Walking the tree from the root gives the source back, entry by entry, in order.
		const walk = (sha: string): string => {
			const data = tree.blobs.get(sha) as Uint8Array;
			const text = Buffer.from(data).toString("utf8");
			if (!text.startsWith("pi-fold manifest 1 ")) return text;
			return decodeManifest(text)
				.children.map((c) => walk(c.sha256))
				.join("");
		};
		expect(walk(tree.root)).toBe(foldSource(leaves));
		const root = decodeManifest(Buffer.from(tree.blobs.get(tree.root) as Uint8Array).toString("utf8"));
		expect(root).toMatchObject({ kind: "fold", foldId: foldId(leaves), entries: 300, bytes: tree.bytes });
		// Changing one byte of one entry changes the root.
		const edited = leaves.map((l, i) => (i === 150 ? { ...l, message: { ...l.message, content: "x" } as never } : l));
		expect(buildFoldTree(foldId(leaves), leafBlobs(edited)).root).not.toBe(tree.root);
		expect(buildFoldTree(foldId(leaves), leafBlobs(leaves)).root).toBe(tree.root);
	});

	it("refuses a manifest that is not in canonical form or whose sizes do not add up", () => {
		const leaves = entries(3);
		const tree = buildFoldTree(foldId(leaves), leafBlobs(leaves));
		const text = Buffer.from(tree.blobs.get(tree.root) as Uint8Array).toString("utf8");
		expect(encodeManifest(decodeManifest(text))).toBe(text);
		expect(() => decodeManifest(text.replace("\nL ", "\nL  "))).toThrow(ManifestFormatError);
		expect(() => decodeManifest(text.replace(/ (\d+) "e1-0"/, (_m, n) => ` ${Number(n) + 1} "e1-0"`))).toThrow(
			/the children hold/,
		);
		expect(() => decodeManifest(text.slice(0, -1))).toThrow(/ends with a newline/);
	});

	it("a consolidation over a fold's entries stores only a few small manifests more", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir, { durable: false });
		const all = entries(400);
		const inner = all.slice(100, 300);
		await store.putFold(foldId(inner), leafBlobs(inner));
		const once = storedBytes(dir);
		await store.putFold(foldId(all), leafBlobs(all));
		const entryBytes = Buffer.byteLength(foldSource(all));
		const after = storedBytes(dir);
		// The 200 shared entries are not written again: what the consolidation adds is the other 200
		// entries plus manifests, and the inner fold's inner nodes are shared, so those manifests are
		// well under a fresh tree's for all 400 entries.
		const added = after - once;
		const newEntries = Buffer.byteLength(foldSource([...all.slice(0, 100), ...all.slice(300)]));
		const tree = buildFoldTree(foldId(all), leafBlobs(all));
		const freshManifests = [...tree.blobs.values()].reduce((s, b) => s + b.length, 0) - entryBytes;
		expect(added).toBeGreaterThanOrEqual(newEntries);
		expect(added - newEntries).toBeLessThan(0.75 * freshManifests);
		expect(filesUnder(dir).length).toBeLessThan(400 + tree.blobs.size - 400 + 40);
		expect(after).toBeLessThan(1.15 * entryBytes);
	});

	it("a slice reads the manifests on its path and only the entries it shows, and pages tile the source", async () => {
		const dir = tempDir();
		const leaves = entries(300);
		const source = foldSource(leaves);
		const { sha256, bytes } = await new FoldStore(dir, { durable: false }).putFold(foldId(leaves), leafBlobs(leaves));
		expect(bytes).toBe(Buffer.byteLength(source));
		const events: VerifyEvent[] = [];
		const cold = new FoldStore(dir, { onVerify: (e) => events.push(e) });
		const first = await cold.readSlice(sha256, 0, 4096, "fold f", bytes);
		expect(first.text).toBe(Buffer.from(source).subarray(first.start, first.end).toString("utf8"));
		// Verified: the entries shown, each once, and the manifests on the path (root and two levels).
		const shownShas = new Set(
			first.manifest?.shown.map((l) => nodeSha(foldSource([leaves[l.index] as TranscriptEntry]))),
		);
		const leafEvents = events.filter((e) => shownShas.has(e.sha256));
		expect(leafEvents.length).toBe(shownShas.size);
		expect(shownShas.size).toBeLessThanOrEqual(6);
		expect(events.length - leafEvents.length).toBeLessThanOrEqual(3);
		expect(first.manifest?.shown.map((s) => s.id)).toEqual(
			leaves.slice(0, first.manifest?.shown.length).map((l) => l.id),
		);
		let text = "";
		for (let at = 0; at < bytes; ) {
			const page = await cold.readSlice(sha256, at, 7001, "fold f", bytes);
			expect(page.start).toBe(at);
			text += page.text;
			at = page.end;
		}
		expect(text).toBe(source);
		expect(await cold.read(sha256, "fold f", bytes)).toBe(source);
		await expect(cold.read(sha256, "fold f", bytes + 1)).rejects.toThrow(/describes \d+ bytes, the fold recorded/);
	});

	it("refuses a damaged entry or a missing node by its path from the root; other slices still read", async () => {
		const dir = tempDir();
		const leaves = entries(300);
		const store = new FoldStore(dir, { durable: false });
		const { sha256, bytes } = await store.putFold(foldId(leaves), leafBlobs(leaves));
		const leaf = nodeSha(foldSource([leaves[5] as TranscriptEntry]));
		damage(blobPath(dir, leaf), (d) => Buffer.concat([d.subarray(0, 10), Buffer.from("X"), d.subarray(11)]));
		const far = Buffer.byteLength(foldSource(leaves.slice(0, 200)));
		expect((await store.readSlice(sha256, far, 1000, "fold f", bytes)).text.length).toBeGreaterThan(0);
		const refused = await store.readSlice(sha256, 0, 64 * 1024, "fold f", bytes).catch((e) => e);
		expect(refused).toBeInstanceOf(SourceVerificationError);
		expect(String(refused.message)).toMatch(/^fold f › (node \d+ › )*entry e1-5: stored source failed verification/);
		expect(refused.expected).toBe(leaf);
		await expect(store.read(sha256, "fold f", bytes)).rejects.toThrow(/entry e1-5/);
		// A missing inner node is named too.
		const root = decodeManifest(readFileSync(blobPath(dir, sha256), "utf8"));
		const node = root.children.find((c) => c.kind === "node");
		expect(node).toBeDefined();
		rmSync(blobPath(dir, node?.sha256 as string), { force: true });
		const missing = await store.read(sha256, "fold f", bytes).catch((e) => e);
		expect(missing.reason).toBe("missing");
		expect(String(missing.message)).toMatch(/^fold f › node \d+: /);
	});

	it("still reads, slices and searches a source in the old single-blob form", async () => {
		const dir = tempDir();
		const leaves = entries(50);
		const source = foldSource(leaves);
		const store = new FoldStore(dir, { durable: false });
		const old = await store.put(source);
		expect(old.sha256).toBe(nodeSha(source));
		expect(store.isManifest(old.sha256)).toBe(false);
		expect(await store.read(old.sha256, "fold f", old.bytes)).toBe(source);
		const slice = await store.readSlice(old.sha256, 100, 500, "fold f", old.bytes);
		expect(slice.manifest).toBeUndefined();
		expect(slice.text).toBe(Buffer.from(source).subarray(slice.start, slice.end).toString("utf8"));
		const now = await store.putFold(foldId(leaves), leafBlobs(leaves));
		expect(store.isManifest(now.sha256)).toBe(true);
		const q = query('"e1-37"');
		const run = await store.search([{ sha256: old.sha256 }, { sha256: now.sha256 }], q, {
			maxHits: 10,
			timeLimitMs: 10_000,
		});
		const [a, b] = run.results;
		expect(a?.ok && b?.ok).toBe(true);
		if (!a?.ok || !b?.ok) return;
		expect(b.hitCount).toBe(a.hitCount);
		expect(b.hits.map((h) => h.offset)).toEqual(a.hits.map((h) => h.offset));
		expect(b.sha256).toBe(now.sha256);
	});

	it("reports the store's size and a session's share, an entry two folds share counted once", async () => {
		const dir = tempDir();
		const store = new FoldStore(dir, { durable: false });
		const all = entries(60);
		const a = await store.putFold(foldId(all.slice(0, 40)), leafBlobs(all.slice(0, 40)));
		const b = await store.putFold(foldId(all.slice(20)), leafBlobs(all.slice(20)));
		const total = storedBytes(dir);
		const aTree = buildFoldTree(foldId(all.slice(0, 40)), leafBlobs(all.slice(0, 40)));
		const aBytes = [...aTree.blobs.values()].reduce((n, d) => n + d.length, 0);
		expect(store.usage([a.sha256])).toEqual({
			blobs: filesUnder(dir).length,
			bytes: total,
			sessionBlobs: aTree.blobs.size,
			sessionBytes: aBytes,
		});
		const both = store.usage([a.sha256, b.sha256, a.sha256]);
		expect(both.sessionBytes).toBe(total);
		expect(both.sessionBytes).toBeLessThan(aBytes + b.bytes + 4096);
	});

	it("search refuses a manifest fold whose entry was altered, naming the entry blob", async () => {
		const dir = tempDir();
		const leaves = entries(40);
		const store = new FoldStore(dir, { durable: false });
		const { sha256 } = await store.putFold(foldId(leaves), leafBlobs(leaves));
		const leaf = nodeSha(foldSource([leaves[30] as TranscriptEntry]));
		flipAt(blobPath(dir, leaf), 40);
		const run = await store.search([{ sha256 }], query("e1-2"), { maxHits: 10, timeLimitMs: 10_000 });
		const r = run.results[0];
		expect(r?.ok).toBe(false);
		if (r?.ok !== false) return;
		expect(r.detail).toContain(`entry blob ${leaf.slice(0, 16)}… does not hash to its name`);
		// A longer entry blob is refused before it is scanned past its size.
		damage(blobPath(dir, leaf), (d) => Buffer.concat([d, Buffer.from(" ")]));
		const longer = (await store.search([{ sha256 }], query("e1-2"), { maxHits: 10, timeLimitMs: 10_000 })).results[0];
		expect(longer?.ok === false && longer.detail).toContain("is longer than its manifest says");
	});
});
