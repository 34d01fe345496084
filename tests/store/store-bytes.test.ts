// Each byte stored once (issue 21's first done-when): a 200-step read-heavy simulated session at a
// 64k and at a 200k window, folding at every depth its ladder reaches (tool batches, chapters,
// consolidations, spans, excerpts of oversized results), on the on-disk FoldStore. The store holds at
// most 1.1x the bytes of the distinct entries its folds contain (each entry's line counted once,
// computed from the session's own entries, not from the blobs), where the old single-blob layout
// held every fold's whole source. Prints both ratios.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readHeavySession } from "../../bench/read-heavy-session.ts";
import { foldSource } from "../../src/lattice/index.ts";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, SimSession } from "../../src/simulate/index.ts";
import { FoldStore } from "../../src/store/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { BLOBS_DIR, decodeManifest, looksLikeManifest } from "../../src/verify/index.ts";
import { tempDir } from "./helpers.ts";

function blobFiles(dir: string): string[] {
	const root = join(dir, BLOBS_DIR);
	return readdirSync(root).flatMap((fan) => readdirSync(join(root, fan)).map((f) => join(root, fan, f)));
}

/** Every fold record the session appended (folds, marks and excerpts), by id. */
function foldRecords(
	sim: SimSession,
): Map<string, { leafIds: string[]; sourceSha256: string; sourceBytes: number; kind: string }> {
	const out = new Map();
	for (const e of sim.entries as { type: string; data?: { fold?: { id: string } } }[])
		if (e.type === "custom" && e.data?.fold) out.set(e.data.fold.id, e.data.fold);
	return out;
}

async function measure(window: number) {
	const dir = tempDir();
	const store = new FoldStore(dir, { durable: false });
	const runtime = new FoldRuntime(resolveOptions({ summarizer: "deterministic" }), () => store);
	const sim = new SimSession({ model: { contextWindow: window, maxTokens: 4_096 } });
	const messages = readHeavySession(window);
	const result = await drive(runtime, sim, messages);
	expect(result.errors).toEqual([]);
	const records = foldRecords(sim);
	const entries = new Map<string, TranscriptEntry>();
	for (const e of sim.entries as { type: string; id: string; message?: TranscriptEntry["message"] }[])
		if (e.type === "message" && e.message) entries.set(e.id, { id: e.id, message: e.message });
	const distinct = new Set<string>();
	for (const r of records.values()) for (const id of r.leafIds) distinct.add(id);
	const entryBytes = [...distinct].reduce(
		(n, id) => n + Buffer.byteLength(foldSource([entries.get(id) as TranscriptEntry])),
		0,
	);
	const files = blobFiles(dir);
	const storeBytes = files.reduce((n, f) => n + statSync(f).size, 0);
	const oldLayout = [...records.values()].reduce((n, r) => n + r.sourceBytes, 0);
	// How deep the folds nest: a fold's manifest depth plus folds holding folds (from the leaf ids).
	const kinds = new Set([...records.values()].map((r) => r.kind));
	let manifests = 0;
	for (const f of files) {
		const head = readFileSync(f).subarray(0, 32);
		if (looksLikeManifest(head)) {
			manifests++;
			decodeManifest(readFileSync(f, "utf8"));
		}
	}
	// Evidence shares blobs with fold leaves: an excerpt's source is a manifest whose one entry is the
	// blob of that entry's line, the same blob any other fold holding the entry lists.
	let shared = 0;
	for (const r of records.values()) {
		if (r.kind !== "result") continue;
		const root = decodeManifest(readFileSync(join(dir, BLOBS_DIR, r.sourceSha256.slice(0, 2), r.sourceSha256), "utf8"));
		const line = foldSource([entries.get(r.leafIds[0] as string) as TranscriptEntry]);
		expect(root.children).toEqual([
			{
				kind: "leaf",
				sha256: createHash("sha256").update(line).digest("hex"),
				bytes: Buffer.byteLength(line),
				id: r.leafIds[0],
			},
		]);
		for (const other of records.values())
			if (other.kind !== "result" && other.leafIds.includes(r.leafIds[0] as string)) shared++;
	}
	return { storeBytes, entryBytes, oldLayout, folds: records.size, kinds, manifests, files: files.length, shared };
}

describe("store bytes against the distinct entries it holds", () => {
	for (const window of [64_000, 200_000])
		it(`a 200-step read-heavy session at ${window / 1000}k: at most 1.1x, at every fold depth`, async () => {
			const m = await measure(window);
			const ratio = m.storeBytes / m.entryBytes;
			const old = m.oldLayout / m.entryBytes;
			console.log(
				`${window / 1000}k: ${m.folds} folds (${[...m.kinds].sort().join(", ")}), ${m.files} blobs (${m.manifests} manifests): ` +
					`store ${m.storeBytes} bytes for ${m.entryBytes} bytes of distinct entries = ${ratio.toFixed(3)}x (the old layout: ${old.toFixed(2)}x)`,
			);
			expect(m.kinds.has("consolidation") || m.kinds.has("span")).toBe(true);
			expect(m.kinds.has("result")).toBe(true);
			expect(m.shared).toBeGreaterThan(0); // an excerpted entry later folded again: its blob is the same
			expect(old).toBeGreaterThan(1.5);
			expect(ratio).toBeLessThanOrEqual(1.1);
			expect(ratio).toBeGreaterThanOrEqual(1);
		}, 120_000);
});
