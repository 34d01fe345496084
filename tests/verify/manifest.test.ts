// `pi-fold verify` and verifyStore understand fold manifests (src/verify/manifest-check.ts): a
// manifest whose child is missing, or hashes wrong, is named with its path from the fold's root; a
// clean store of manifest folds (and old single-blob folds beside them) verifies OK.

import { readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { foldId, foldSource } from "../../src/lattice/index.ts";
import { leafBlobs } from "../../src/runtime/index.ts";
import { FoldStore } from "../../src/store/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { blobPath, blobRelPath, decodeManifest, sha256Hex, verifyStore } from "../../src/verify/index.ts";
import { cli } from "../cli/run.ts";
import { flipAt, mixedText, tempDir } from "../store/helpers.ts";

function entries(n: number, seed: number): TranscriptEntry[] {
	return Array.from({ length: n }, (_, i) => ({
		id: `e${seed}-${i}`,
		message: { role: "user", content: mixedText(600, seed * 1000 + i) } as never,
	}));
}

async function twoFolds() {
	const dir = tempDir();
	const store = new FoldStore(dir, { durable: false });
	const a = entries(120, 1);
	const b = entries(5, 2);
	const fa = await store.putFold(foldId(a), leafBlobs(a));
	const fb = await store.putFold(foldId(b), leafBlobs(b));
	await store.put(foldSource(entries(3, 3))); // an old single-blob source beside them
	return { dir, a, b, fa, fb };
}

const leafSha = (e: TranscriptEntry) => sha256Hex(foldSource([e]));

describe("verify of fold manifests", () => {
	it("a clean store verifies OK and says how many fold manifests it walked", async () => {
		const { dir } = await twoFolds();
		const r = await verifyStore(dir, { workers: 0 });
		expect(r.issues).toEqual([]);
		expect(r.manifests.folds).toBe(2);
		expect(r.manifests.manifests).toBeGreaterThan(2);
		const run = cli(["verify", "--workers", "0", dir]);
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/, 2 fold manifests walked in /);
	});

	it("names a missing entry and a missing node with their paths from the fold", async () => {
		const { dir, a, b, fa, fb } = await twoFolds();
		rmSync(blobPath(dir, leafSha(b[3] as TranscriptEntry)));
		const root = decodeManifest(readFileSync(blobPath(dir, fa.sha256), "utf8"));
		const index = root.children.findIndex((c) => c.kind === "node");
		const node = root.children[index];
		rmSync(blobPath(dir, node?.sha256 as string));
		const r = await verifyStore(dir, { workers: 0 });
		expect(r.ok).toBe(false);
		const missing = r.issues.filter((i) => i.kind === "missing");
		expect(missing).toHaveLength(2);
		const details = missing.map((i) => i.detail);
		expect(details).toContain(`fold ${foldId(a)} › node ${index + 1}: listed by its manifest, not in the store`);
		const entry = new RegExp(
			`^fold ${foldId(b)} › (node \\d+ › )*entry e2-3: listed by its manifest, not in the store$`,
		);
		expect(details.filter((d) => entry.test(d))).toHaveLength(1);
		expect(missing.map((i) => i.path)).toContain(blobRelPath(leafSha(b[3] as TranscriptEntry)));
		expect(fb.sha256).not.toBe(fa.sha256);
		const run = cli(["verify", "--workers", "0", dir]);
		expect(run.code).toBe(1);
		expect(run.stdout).toContain(`MISSING    ${blobRelPath(leafSha(b[3] as TranscriptEntry))}  fold ${foldId(b)} › `);
	});

	it("names an entry that hashes wrong with its path from the fold, beside the blob's own failure", async () => {
		const { dir, a } = await twoFolds();
		const bad = leafSha(a[77] as TranscriptEntry);
		flipAt(blobPath(dir, bad), 30);
		const r = await verifyStore(dir, { workers: 0 });
		const issue = r.issues.find((i) => i.digest === bad);
		expect(issue?.kind).toBe("corrupt");
		expect(issue?.detail).toMatch(new RegExp(`; it is fold ${foldId(a)} › (node \\d+ › )*entry e1-77$`));
		expect(r.issues).toHaveLength(1);
	});

	it("names an entry of another size than its manifest lists (the size its hashing read), on worker threads too", async () => {
		const dir = tempDir();
		const leaf = '{"id":"x1"}\n';
		const other = '{"id":"x2"}\n';
		const manifestOf = (children: string[]) => {
			const bytes = children.reduce((n, line) => n + Number(line.split(" ")[2]), 0);
			return `pi-fold manifest 1 fold ${bytes} ${children.length} "f-x"\n${children.map((c) => `${c}\n`).join("")}`;
		};
		const store = new FoldStore(dir, { durable: false });
		const a = await store.put(leaf);
		const b = await store.put(other);
		// The manifest lists the first entry one byte short (a manifest that lies hashes to its name all the same).
		const root = manifestOf([`L ${a.sha256} ${leaf.length - 1} "x1"`, `L ${b.sha256} ${other.length} "x2"`]);
		await store.put(root);
		for (const workers of [0, 1]) {
			const r = await verifyStore(dir, { workers, minParallelBytes: 0 });
			expect(r.manifests).toEqual({ manifests: 1, folds: 1 });
			expect(r.issues.map((i) => [i.kind, i.path, i.detail])).toEqual([
				[
					"corrupt",
					blobRelPath(a.sha256),
					`fold f-x › entry x1: ${leaf.length} bytes, its manifest lists ${leaf.length - 1}`,
				],
			]);
		}
	});
});
