// gc's removal of an expired unreferenced blob, with a writer's put interleaved at each point that
// matters (the test seams of collectGarbage): a put just before gc moves the blob aside freshens it,
// and gc moves it back; a put just after the move finds no file to freshen and writes the blob anew;
// either way the blob is there afterwards and reads whole. A gc killed after its move leaves
// tmp/gc-<digest>, and the next gc moves it back before looking at anything.

import { existsSync, mkdirSync, readdirSync, renameSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldId } from "../../src/lattice/index.ts";
import { leafBlobs } from "../../src/runtime/index.ts";
import { listBlobs } from "../../src/store/gc-scan.ts";
import { collectGarbage, FoldStore } from "../../src/store/index.ts";
import { blobPath } from "../../src/verify/index.ts";
import { sharedEntries } from "./children/shared-entries.ts";
import { tempDir } from "./helpers.ts";

const OLD = (Date.now() - 30 * 24 * 3600 * 1000) / 1000;

/** A sessions folder whose store holds one old, unreferenced fold (no session file names it). */
async function oldUnreferenced(): Promise<{ sessions: string; storeDir: string; root: string; digests: string[] }> {
	const sessions = tempDir();
	const storeDir = join(sessions, "pi-fold-store");
	mkdirSync(storeDir, { recursive: true });
	const entries = sharedEntries(3);
	const put = await new FoldStore(storeDir, { durable: false }).putFold(foldId(entries), leafBlobs(entries));
	for (const b of listBlobs(storeDir)) utimesSync(b.path, OLD, OLD);
	return { sessions, storeDir, root: put.sha256, digests: listBlobs(storeDir).map((b) => b.digest) };
}

/** What a live writer does: puts the same fold again (freshening what it finds, writing what it does not). */
async function putAgain(storeDir: string): Promise<void> {
	const entries = sharedEntries(3);
	await new FoldStore(storeDir, { durable: false }).putFold(foldId(entries), leafBlobs(entries));
}

describe("gc and a writer interleaved", () => {
	it("removes old unreferenced blobs when no writer comes", async () => {
		const { sessions, storeDir, digests } = await oldUnreferenced();
		const r = await collectGarbage(sessions, { apply: true, retentionDays: 1 });
		expect(r.removed.count).toBe(digests.length);
		expect(listBlobs(storeDir)).toEqual([]);
		expect(readdirSync(join(storeDir, "tmp")).filter((n) => n.startsWith("gc-"))).toEqual([]);
	});

	for (const when of ["beforeMove", "afterMove"] as const) {
		it(`keeps every blob a writer puts ${when === "beforeMove" ? "just before gc moves it aside" : "just after gc moved it aside"}`, async () => {
			const { sessions, storeDir, root, digests } = await oldUnreferenced();
			let putOnce = false;
			const hook = async () => {
				if (putOnce) return;
				putOnce = true;
				await putAgain(storeDir);
			};
			await collectGarbage(sessions, { apply: true, retentionDays: 1 }, { [when]: hook });
			expect(putOnce).toBe(true);
			for (const d of digests) expect(existsSync(blobPath(storeDir, d)), d).toBe(true);
			await expect(new FoldStore(storeDir).read(root, "the fold")).resolves.toContain("shared entry 2");
		});
	}

	it("moves back what a gc killed after its move left in tmp/", async () => {
		const { sessions, storeDir, root, digests } = await oldUnreferenced();
		mkdirSync(join(storeDir, "tmp"), { recursive: true });
		for (const d of digests) renameSync(blobPath(storeDir, d), join(storeDir, "tmp", `gc-${d}`));
		// A dry run looks only; still, it first puts back what a killed gc had moved aside.
		const r = await collectGarbage(sessions, { apply: false, retentionDays: 1 });
		expect(r.blobs.count).toBe(digests.length);
		await expect(new FoldStore(storeDir).read(root, "the fold")).resolves.toContain("shared entry 0");
	});
});
