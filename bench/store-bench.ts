// The fold store's benchmark (part of `pi-fold bench`; alone: `npm exec -- node bench/store-bench.ts`):
// (1) store bytes per history byte on a 200-step read-heavy simulated session at 64k and 200k, the
// manifest layout (each entry once) beside the old one (every fold's whole source), and (2) the first
// 64 KB peek of a fold over ~100 MB of history on a cold store object (a new FoldStore, as after a
// session start): the tool's own path (readBoundSlice: the manifest's binding check and the entries
// shown) in the manifest layout, the same in the old layout (the whole source read, hashed and parsed
// once), and the verifier's bounded-range read of the same bytes of the old blob (readVerifiedRange,
// chunk tree), with the ratio peek / verifier printed. Medians of `repeats`. Does its own I/O (a temp folder).

import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FoldRecord, foldId, foldSource } from "../src/lattice/index.ts";
import { resolveOptions } from "../src/options/index.ts";
import type { BranchView } from "../src/policy/index.ts";
import { FoldRuntime, leafBlobs, readBoundSlice } from "../src/runtime/index.ts";
import { drive, SimSession } from "../src/simulate/index.ts";
import { FoldStore } from "../src/store/index.ts";
import type { TranscriptEntry } from "../src/transcript/index.ts";
import { BLOBS_DIR, readVerifiedRange } from "../src/verify/index.ts";
import { readHeavySession } from "./read-heavy-session.ts";

export interface StoreBytesRow {
	readonly window: number;
	readonly folds: number;
	/** Bytes of the session's entries (one JSON line each). */
	readonly historyBytes: number;
	readonly manifestStoreBytes: number;
	readonly oldStoreBytes: number;
}

export interface StoreBenchResult {
	readonly bytes: readonly StoreBytesRow[];
	readonly peek: {
		readonly historyBytes: number;
		readonly entries: number;
		readonly peekBytes: number;
		readonly manifestMs: number;
		readonly oldLayoutMs: number;
		readonly verifierMs: number;
		/** manifestMs / verifierMs (target <= 2). */
		readonly ratio: number;
	};
}

function dirBytes(dir: string): number {
	const root = join(dir, BLOBS_DIR);
	let n = 0;
	for (const fan of readdirSync(root))
		for (const f of readdirSync(join(root, fan))) n += statSync(join(root, fan, f)).size;
	return n;
}

async function sessionBytes(window: number, work: string): Promise<StoreBytesRow> {
	const dir = mkdtempSync(join(work, "store-"));
	const store = new FoldStore(dir, { durable: false });
	const runtime = new FoldRuntime(resolveOptions({ summarizer: "deterministic" }), () => store);
	const sim = new SimSession({ model: { contextWindow: window, maxTokens: 4_096 } });
	const messages = readHeavySession(window);
	await drive(runtime, sim, messages);
	let historyBytes = 0;
	const folds = new Map<string, number>();
	for (const e of sim.entries as { type: string; id: string; message?: unknown; data?: { fold?: FoldRecord } }[]) {
		if (e.type === "message" && e.message)
			historyBytes += Buffer.byteLength(foldSource([{ id: e.id, message: e.message } as TranscriptEntry]));
		if (e.type === "custom" && e.data?.fold) folds.set(e.data.fold.id, e.data.fold.sourceBytes);
	}
	const oldStoreBytes = [...folds.values()].reduce((a, b) => a + b, 0);
	return { window, folds: folds.size, historyBytes, manifestStoreBytes: dirBytes(dir), oldStoreBytes };
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)] as number;
}

async function timed(repeats: number, fn: () => Promise<unknown> | unknown): Promise<number> {
	const out: number[] = [];
	for (let i = 0; i < repeats; i++) {
		const t = performance.now();
		await fn();
		out.push(performance.now() - t);
	}
	return median(out);
}

async function peekBench(historyMiB: number, repeats: number, work: string, log: (l: string) => void) {
	const entryChars = 10_000;
	const count = Math.ceil((historyMiB * 1024 * 1024) / entryChars);
	const leaves: TranscriptEntry[] = Array.from({ length: count }, (_, i) => ({
		id: `e${i}`,
		message: { role: "toolResult", content: `${i} ${"lorem ipsum dolor sit amet ".repeat(entryChars / 27)}` } as never,
	}));
	const id = foldId(leaves);
	const leafIds = leaves.map((l) => l.id);
	log(`store: writing a fold over ${count} entries in both layouts...`);
	const manifestDir = mkdtempSync(join(work, "peek-manifest-"));
	const oldDir = mkdtempSync(join(work, "peek-old-"));
	const m = await new FoldStore(manifestDir, { durable: false }).putFold(id, leafBlobs(leaves));
	const o = await new FoldStore(oldDir, { durable: false }).put(foldSource(leaves));
	const record = (sha: string, bytes: number) =>
		({
			id,
			kind: "span",
			origin: "ladder",
			leafIds,
			sourceSha256: sha,
			sourceBytes: bytes,
			brief: "b",
		}) as unknown as FoldRecord;
	const view = {} as BranchView; // never read: both stores hold the fold's blob
	const peek = 64 * 1024;
	log("store: first 64 KB peek on a cold store object...");
	const manifestMs = await timed(repeats, () =>
		readBoundSlice(new FoldStore(manifestDir, { sweepTemp: false }), record(m.sha256, m.bytes), view, 0, peek),
	);
	const oldLayoutMs = await timed(Math.min(repeats, 3), () =>
		readBoundSlice(new FoldStore(oldDir, { sweepTemp: false }), record(o.sha256, o.bytes), view, 0, peek),
	);
	const verifierMs = await timed(repeats, () => readVerifiedRange(oldDir, o.sha256, 0, peek));
	return {
		historyBytes: m.bytes,
		entries: count,
		peekBytes: peek,
		manifestMs,
		oldLayoutMs,
		verifierMs,
		ratio: manifestMs / verifierMs,
	};
}

/** Runs both parts in a temp folder (removed afterwards). */
export async function runStoreBench(options: {
	historyMiB?: number;
	repeats?: number;
	log?: (line: string) => void;
}): Promise<StoreBenchResult> {
	const log = options.log ?? (() => {});
	const work = mkdtempSync(join(tmpdir(), "pi-fold-store-bench-"));
	try {
		const bytes: StoreBytesRow[] = [];
		for (const window of [64_000, 200_000]) {
			log(`store: a 200-step read-heavy session at ${window / 1000}k...`);
			bytes.push(await sessionBytes(window, work));
		}
		const peek = await peekBench(options.historyMiB ?? 100, options.repeats ?? 5, work, log);
		return { bytes, peek };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

/** The two tables, plain text. */
export function renderStoreTable(r: StoreBenchResult): string {
	const per = (n: number, h: number) => (n / h).toFixed(2);
	const rows = r.bytes.map(
		(b) =>
			`| ${b.window / 1000}k, ${b.folds} folds | ${(b.historyBytes / 1e6).toFixed(1)} MB | ${per(b.manifestStoreBytes, b.historyBytes)} | ${per(b.oldStoreBytes, b.historyBytes)} |`,
	);
	const p = r.peek;
	const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;
	return [
		"Fold store: bytes on disk per history byte (200-step read-heavy session)",
		"",
		"| session | history | manifests (each entry once) | old layout (each fold's whole source) |",
		"| --- | ---: | ---: | ---: |",
		...rows,
		"",
		`Fold store: first 64 KB peek of a fold over ${(p.historyBytes / 1e6).toFixed(0)} MB of history (${p.entries.toLocaleString("en-US")} entries), cold store object`,
		"",
		"| read | time |",
		"| --- | ---: |",
		`| peek, manifest layout (manifests on the path and the entries shown) | ${ms(p.manifestMs)} |`,
		`| peek, old layout (whole source read, hashed and parsed once) | ${ms(p.oldLayoutMs)} |`,
		`| verifier's bounded-range read of the same bytes (chunk tree) | ${ms(p.verifierMs)} |`,
		`| ratio peek (manifests) / verifier (target <= 2x) | ${p.ratio.toFixed(2)}x ${p.ratio <= 2 ? "met" : "MISSED"} |`,
		"",
	].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const r = await runStoreBench({ log: (l) => process.stderr.write(`bench: ${l}\n`) });
	process.stdout.write(renderStoreTable(r));
}
