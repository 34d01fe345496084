// gc beside a live session loses nothing: two writer processes of one session put folds that reuse
// entry blobs already in the store, old and unreferenced (each fold's blobs first, then its record
// appended to the session file), while gc --apply runs again and again with a one-day retention. A
// reused blob is freshened by the writer, so gc's last look before removing it sees it was touched and
// keeps it; every fold the session file names still reads whole and verifies, and the store verifies.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldId } from "../../src/lattice/index.ts";
import { leafBlobs } from "../../src/runtime/index.ts";
import { listBlobs } from "../../src/store/gc-scan.ts";
import { collectGarbage, FoldStore } from "../../src/store/index.ts";
import { verifyStore } from "../../src/verify/index.ts";
import { sharedEntries } from "./children/shared-entries.ts";
import { tempDir } from "./helpers.ts";

const WRITER = join(import.meta.dirname, "children", "fold-writer.ts");
const SHARED = 12_000;

function writer(storeDir: string, sessionFile: string, name: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [WRITER, storeDir, sessionFile, String(SHARED), name], { stdio: "pipe" });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		child.on("exit", (code) =>
			code === 0 ? resolve(out) : reject(new Error(`writer ${name} exited ${code}: ${err}`)),
		);
	});
}

describe("gc beside a live session", () => {
	it("two writers reuse old unreferenced blobs while gc --apply runs: every recorded fold still verifies", async () => {
		const sessions = tempDir();
		const storeDir = join(sessions, "pi-fold-store");
		mkdirSync(storeDir, { recursive: true });
		const sessionFile = join(sessions, "live.jsonl");
		writeFileSync(sessionFile, "");
		// The shared entries are in the store already (an earlier fold whose record is gone), 30 days old.
		const shared = sharedEntries(SHARED);
		await new FoldStore(storeDir, { durable: false }).putFold(foldId(shared), leafBlobs(shared));
		const old = (Date.now() - 30 * 24 * 3600 * 1000) / 1000;
		for (const b of listBlobs(storeDir)) utimesSync(b.path, old, old);
		const writers = Promise.all([writer(storeDir, sessionFile, "w1"), writer(storeDir, sessionFile, "w2")]);
		// gc starts once both writers are writing, so its passes overlap their reuse of old blobs.
		while (readFileSync(sessionFile, "utf8").split("\n").length < 3) await new Promise((r) => setTimeout(r, 5));
		let running = true;
		void writers.finally(() => (running = false)).catch(() => undefined);
		let removed = 0;
		let freshened = 0;
		let runs = 0;
		while (running) {
			const r = await collectGarbage(sessions, { apply: true, retentionDays: 1 });
			removed += r.removed.count;
			runs++;
			freshened += r.freshened;
		}
		expect(await writers).toEqual(["done\n", "done\n"]);
		const final = await collectGarbage(sessions, { apply: true, retentionDays: 1 });
		removed += final.removed.count;
		expect(final.problems).toEqual([]);
		// gc ran beside the writers: it removed what stayed unreferenced (the shared entries no fold
		// reused, the old root) and, at its last look, kept blobs a writer had just reused.
		expect(runs).toBeGreaterThan(0);
		expect(removed).toBeGreaterThan(0);
		expect(freshened).toBeGreaterThan(0);
		const roots = readFileSync(sessionFile, "utf8")
			.trim()
			.split("\n")
			.map((l) => (JSON.parse(l) as { data: { sourceSha256: string } }).data.sourceSha256);
		expect(roots).toHaveLength(2 * 150);
		const cold = new FoldStore(storeDir);
		for (const root of roots)
			await expect(cold.read(root, `fold ${root.slice(0, 8)}`)).resolves.toContain("shared entry");
		const verified = await verifyStore(storeDir, { workers: 0 });
		expect(verified.issues).toEqual([]);
	}, 120_000);
});
