// gc removes nothing a session on disk still references: two real in-process Pi sessions and a fork
// share one sessions folder (one deduplicated store); one session's file is deleted, gc runs with
// --apply and no retention, and every fold of the other session and of the fork still reads whole
// from the store (not rebuilt from session entries), verifies, and peeks and expands in Pi; what only
// the deleted session referenced is gone; `pi-fold verify` finds the store clean.

import { readFileSync, rmSync } from "node:fs";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import type { FoldRecord } from "../../src/lattice/index.ts";
import { collectGarbage, FoldStore } from "../../src/store/index.ts";
import { verifyStore } from "../../src/verify/index.ts";
import { cli } from "../cli/run.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, type Harness, say, toolTexts } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

function folds(h: Harness): FoldRecord[] {
	return [...h.runtime.snapshot(h.host()).state.folds.values()];
}

async function session(keys: string[], sessionDir?: string): Promise<Harness> {
	const h = await createHarness({ persistent: true, ...(sessionDir ? { sessionDir } : {}) });
	h.script([
		...keys.map((k) => callProbes(k)),
		callTool({
			action: "fold",
			from: `call_${keys[0]}`,
			to: `call_${keys[1]}`,
			brief: `Probes ${keys[0]} and ${keys[1]}.`,
		}),
		say("done"),
	]);
	await h.run("go");
	return h;
}

/** Peeks and expands every fold of the session file `file` in Pi; returns the tool texts. */
async function peekAndExpand(file: string, sessionDir: string): Promise<{ texts: string[]; ids: string[] }> {
	const h = await createHarness({ openFile: file, sessionDir });
	const ids = folds(h).map((f) => f.id);
	h.script([
		callTool(
			...ids.flatMap((id) => [
				{ action: "peek", id },
				{ action: "expand", id },
			]),
		),
		say("ok"),
	]);
	await h.run("check");
	return { texts: toolTexts(h), ids };
}

describe("gc beside sessions on disk", () => {
	it("two sessions and a fork: delete one session file, gc --apply, the others' folds all expand and verify", async () => {
		const a = await session(["a", "b", "c", "d", "e", "f", "g"]);
		const dir = a.sessionDir;
		const b = await session(["p", "q", "r", "s", "t", "u", "v"], dir);
		// The fork of A at its leaf holds A's fold; A then folds more, which only A's file names.
		const fileA = a.sessionFile() as string;
		const fork = SessionManager.open(fileA, dir).createBranchedSession(a.session.sessionManager.getLeafId() as string);
		if (!fork) throw new Error("fork produced no file");
		a.script([
			...["h", "i", "j", "k", "l", "m", "n", "o"].map((k) => callProbes(k)),
			callTool({
				action: "fold",
				from: "call_h",
				to: "call_i",
				brief: "Probes h and i returned filler after the fork.",
			}),
			say("more"),
		]);
		await a.run("more");
		const onlyA = folds(a).find((f) => f.brief === "Probes h and i returned filler after the fork.") as FoldRecord;
		expect(onlyA).toBeDefined();
		const kept = [...folds(b), folds(a).find((f) => f.brief === "Probes a and b.") as FoldRecord];
		const storeDir = `${dir}/pi-fold-store`;
		const store = new FoldStore(storeDir);
		for (const f of [...kept, onlyA]) expect(store.isManifest(f.sourceSha256)).toBe(true);

		// A dry run removes nothing; with A's file deleted, the blobs only A named are unreferenced.
		rmSync(fileA);
		const dry = await collectGarbage(dir, { retentionDays: 0 });
		expect(dry.problems).toEqual([]);
		expect(dry.removed.count).toBe(0);
		expect(dry.unreferenced.map((u) => u.digest)).toContain(onlyA.sourceSha256);
		expect(store.has(onlyA.sourceSha256)).toBe(true);
		const run = await collectGarbage(dir, { apply: true, retentionDays: 0 });
		expect(run.problems).toEqual([]);
		expect(run.applied).toBe(true);
		expect(run.removed.count).toBe(dry.unreferenced.length);
		expect(run.removed.count).toBeGreaterThan(0);
		expect(store.has(onlyA.sourceSha256)).toBe(false);

		// Everything the other session and the fork hold still reads whole from the store and verifies.
		const cold = new FoldStore(storeDir);
		for (const f of kept) {
			const text = await cold.read(f.sourceSha256, `fold ${f.id}`, f.sourceBytes);
			expect(Buffer.byteLength(text)).toBe(f.sourceBytes);
		}
		const verified = await verifyStore(storeDir, { workers: 0 });
		expect(verified.issues).toEqual([]);
		expect(verified.manifests.folds).toBe(kept.length);
		for (const file of [b.sessionFile() as string, fork]) {
			const { texts, ids } = await peekAndExpand(file, dir);
			expect(ids.length).toBeGreaterThan(0);
			const peeks = texts.filter((t) => t.startsWith("[peek "));
			expect(peeks).toHaveLength(ids.length);
			for (const p of peeks) {
				expect(p).toContain("verified");
				expect(p).not.toContain("rebuilt from the session's entries");
			}
			expect(texts.filter((t) => t.startsWith("Expanding "))).toHaveLength(ids.length);
		}
		// A second gc finds nothing more to remove, and the CLI agrees.
		const again = cli(["gc", "--retention-days", "0", dir]);
		expect(again.code).toBe(0);
		expect(again.stdout).toMatch(/unreferenced: 0 blobs/);
	});

	it("keeps unreferenced blobs within the retention, and refuses to remove anything when a kept blob is damaged", async () => {
		const a = await session(["a", "b", "c", "d", "e", "f", "g"]);
		const dir = a.sessionDir;
		const fold = folds(a)[0] as FoldRecord;
		const file = a.sessionFile() as string;
		const b = await session(["p", "q", "r", "s", "t", "u", "v"], dir);
		rmSync(b.sessionFile() as string);
		const young = await collectGarbage(dir, { apply: true });
		expect(young.unreferenced.length).toBeGreaterThan(0);
		expect(young.unreferenced.every((u) => !u.expired)).toBe(true);
		expect(young.removed.count).toBe(0);
		// A blob that stays is missing: gc names it and removes nothing.
		const storeDir = `${dir}/pi-fold-store`;
		const blobText = (sha: string) => readFileSync(`${storeDir}/sha256/${sha.slice(0, 2)}/${sha}`, "utf8");
		// The first entry blob beneath the root: its children may be inner nodes (grouped by content).
		let manifest = blobText(fold.sourceSha256);
		let leaf = /\nL ([0-9a-f]{64}) /.exec(manifest)?.[1];
		while (leaf === undefined) {
			const node = /\nN ([0-9a-f]{64}) /.exec(manifest)?.[1];
			if (node === undefined) throw new Error(`fold ${fold.id}: a manifest with neither entries nor nodes`);
			manifest = blobText(node);
			leaf = /\nL ([0-9a-f]{64}) /.exec(manifest)?.[1];
		}
		rmSync(`${storeDir}/sha256/${leaf.slice(0, 2)}/${leaf}`);
		const refused = await collectGarbage(dir, { apply: true, retentionDays: 0 });
		expect(refused.problems.join("\n")).toMatch(
			new RegExp(`${leaf.slice(0, 2)}/${leaf}: missing \\(entry .+ of fold ${fold.id}\\)`),
		);
		expect(refused.applied).toBe(false);
		expect(refused.removed.count).toBe(0);
		expect(new FoldStore(storeDir).has(folds(b)[0]?.sourceSha256 as string)).toBe(true);
		expect(file).toBeTruthy();
		const r = cli(["gc", "--apply", "--retention-days", "0", dir]);
		expect(r.code).toBe(1);
		expect(r.stdout).toContain("nothing was removed");
	});
});
