// Which results of the newest tool batch a boundary shows as excerpts: those too large for the
// window (oversize.ts) become oversized-result folds, one per result, each with a bounded excerpt
// as its brief (src/briefs excerpt.ts) and its source named by digest (fold-digest.ts). They are
// `fold` decisions in every scheduling mode (a batch too large as a whole is one excerpt of the
// batch: each remaining result's fold shows its place in it, and `batch` sums it up for the notice): the commit of this very boundary lands them, so no
// request ever carries the whole result. The sources of a session's excerpts count against
// EXCERPT_CAP_BYTES (512 MiB); past it a result is left whole (the rescue, Pi's compaction or the
// fence handle it) and the human is told. Pure: the runtime writes the sources.

import { batchExcerptBrief, excerptBrief } from "../briefs/index.ts";
import { type FoldRecord, fileReadsOf, foldId, foldSource } from "../lattice/index.ts";
import { contentText } from "../transcript/index.ts";
import { foldSourceDigest } from "./fold-digest.ts";
import { windowTokens } from "./ladder-input.ts";
import {
	BATCH_EXCERPT_TOKENS_ESTIMATE,
	EXCERPT_TOKENS_ESTIMATE,
	type OversizedResult,
	oversizedResults,
} from "./oversize.ts";
import type { Snapshot } from "./snapshot.ts";

/** Bytes of excerpted results' sources one session keeps at most (the evidence cap): 512 MiB. */
export const EXCERPT_CAP_BYTES = 512 * 1024 * 1024;

/** The excerpts of one boundary: the folds to record, the tokens they free, and what was left whole. */
export interface Excerpts {
	/** Each excerpt's fold record and the entry it holds (whose source the runtime writes). */
	readonly folds: readonly {
		readonly fold: FoldRecord;
		readonly entry: OversizedResult["entry"];
		/** Shown as its place in the batch excerpt (told once for the whole batch). */
		readonly inBatch?: boolean;
	}[];
	readonly freedTokens: number;
	/** Results left whole because the cap was reached, as "tool (N bytes)". */
	readonly overCap: readonly string[];
	/** The batch excerpt, when the batch was too large as a whole: its results shown by their start, their bytes. */
	readonly batch?: { readonly shown: number; readonly count: number; readonly bytes: number } | undefined;
}

/** No excerpt: automatic folding paused, evidence ingestion off, or a batch that fits. */
export const NO_EXCERPTS: Excerpts = { folds: [], freedTokens: 0, overCap: [] };

/** Bytes of the sources of this session's oversized-result folds so far, a source held by several counted once. */
export function excerptBytes(snap: Pick<Snapshot, "known">): number {
	let bytes = 0;
	const counted = new Set<string>();
	for (const fold of snap.known.values())
		if (fold.kind === "result" && !counted.has(fold.sourceSha256)) {
			counted.add(fold.sourceSha256);
			bytes += fold.sourceBytes;
		}
	return bytes;
}

/** The path or pattern a call was made with, for the excerpt's first line. */
function targetOf(call: OversizedResult["call"], callId: unknown): string | undefined {
	const blocks = Array.isArray(call.message.content) ? (call.message.content as Record<string, unknown>[]) : [];
	const block = blocks.find((b) => b.type === "toolCall" && b.id === callId);
	const args = (block?.arguments ?? {}) as Record<string, unknown>;
	for (const key of ["path", "file_path", "file", "pattern", "query", "command", "url"])
		if (typeof args[key] === "string" && (args[key] as string).length > 0) return args[key] as string;
	return undefined;
}

/** The fold record of one oversized result (its source's digest computed, not yet written). */
function excerptRecord(r: OversizedResult): FoldRecord {
	const leaves = [r.entry];
	const id = foldId(leaves);
	const { sha256, bytes } = foldSourceDigest(id, leaves);
	const tool = String(r.entry.message.toolName ?? "tool");
	const text = contentText(r.entry.message.content, "\n");
	const reads = fileReadsOf([r.call, r.entry]);
	return {
		id,
		kind: "result",
		origin: "ladder",
		leafIds: [r.entry.id],
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: r.batch
			? batchExcerptBrief(tool, targetOf(r.call, r.entry.message.toolCallId), text, r.tokens, r.batch)
			: excerptBrief(tool, targetOf(r.call, r.entry.message.toolCallId), text, r.tokens),
		briefSource: "deterministic",
		...(reads.length > 0 ? { reads } : {}),
	};
}

/**
 * The oversized results of the newest batch as fold records, given the next request's estimated
 * tokens and how far the provider may count above the calibration (`rateBound`, oversize.ts); none
 * when the batch fits.
 */
export function excerptPlan(snap: Snapshot, nextTokens: number, rateBound = 1): Excerpts {
	const folds: { fold: FoldRecord; entry: OversizedResult["entry"]; inBatch?: boolean }[] = [];
	const overCap: string[] = [];
	const plan = oversizedResults(snap, windowTokens(snap), nextTokens, rateBound);
	let used = excerptBytes(snap);
	let freed = 0;
	let count: number | null = null;
	for (const r of plan.results) {
		if (snap.state.folds.has(foldId([r.entry]))) continue;
		const bytes = Buffer.byteLength(foldSource([r.entry]), "utf8");
		if (used + bytes > EXCERPT_CAP_BYTES) {
			overCap.push(`${String(r.entry.message.toolName ?? "tool")} (${bytes.toLocaleString("en-US")} bytes)`);
			continue;
		}
		used += bytes;
		const fold = excerptRecord(r);
		folds.push({ fold, entry: r.entry });
		freed += Math.max(0, r.tokens - (r.batch ? BATCH_EXCERPT_TOKENS_ESTIMATE : EXCERPT_TOKENS_ESTIMATE));
		if (r.batch) count = r.batch.count;
	}
	if (count === null) return { folds, freedTokens: freed, overCap };
	// A batch too large as a whole: every excerpt of it (a place or, for the largest, a whole excerpt) told once.
	const bytes = folds.reduce((sum, f) => sum + f.fold.sourceBytes, 0);
	return {
		folds: folds.map((f) => ({ ...f, inBatch: true })),
		freedTokens: freed,
		overCap,
		batch: { shown: folds.length, count, bytes },
	};
}
