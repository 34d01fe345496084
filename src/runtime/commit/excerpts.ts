// The step before the gate at the end of a turn: the results of the newest tool batch that are too
// large for the window (src/policy oversize.ts) become oversized-result folds, one per result, each
// with its exact source written to the fold store first and a bounded excerpt as its brief
// (src/briefs excerpt.ts). They are `fold` decisions in every scheduling mode: the commit of this very
// boundary lands them, so no request ever carries the whole result. The sources of a session's
// excerpts count against EXCERPT_CAP_BYTES (512 MiB); past it a result is left whole (the rescue,
// Pi's compaction or the fence handle it) and the human is told. The store does the I/O.

import { excerptBrief } from "../../briefs/index.ts";
import { type FoldRecord, fileReadsOf, foldId, foldSource } from "../../lattice/index.ts";
import {
	EXCERPT_TOKENS_ESTIMATE,
	type OversizedResult,
	oversizedResults,
	type Snapshot,
	windowTokens,
} from "../../policy/index.ts";
import type { DecisionBody } from "../../state/index.ts";
import { contentText } from "../../transcript/index.ts";
import { writeFoldSource } from "../fold-write.ts";
import type { SourceStore } from "../ports.ts";

/** Bytes of excerpted results' sources one session keeps at most (the evidence cap): 512 MiB. */
export const EXCERPT_CAP_BYTES = 512 * 1024 * 1024;

/** What the step did: the decisions to record, the tokens they free, and what it left whole. */
export interface Excerpts {
	readonly bodies: Extract<DecisionBody, { kind: "fold" }>[];
	readonly freedTokens: number;
	/** Results left whole because the cap was reached, as "tool (N bytes)". */
	readonly overCap: string[];
}

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

/** Writes the source of one oversized result and returns its fold record. */
async function excerptRecord(store: SourceStore, r: OversizedResult): Promise<FoldRecord> {
	const leaves = [r.entry];
	const { sha256, bytes } = await writeFoldSource(store, leaves);
	const tool = String(r.entry.message.toolName ?? "tool");
	const text = contentText(r.entry.message.content, "\n");
	const reads = fileReadsOf([r.call, r.entry]);
	return {
		id: foldId(leaves),
		kind: "result",
		origin: "ladder",
		leafIds: [r.entry.id],
		sourceSha256: sha256,
		sourceBytes: bytes,
		brief: excerptBrief(tool, targetOf(r.call, r.entry.message.toolCallId), text, r.tokens),
		briefSource: "deterministic",
		...(reads.length > 0 ? { reads } : {}),
	};
}

/**
 * The oversized results of the newest batch as fold decisions (sources durable), given the next
 * request's estimated tokens and how far the provider may count above the calibration (`rateBound`,
 * src/policy oversize.ts); none when the batch fits. The caller skips the step while automatic
 * folding is paused.
 */
export async function excerptOversized(
	snap: Snapshot,
	store: SourceStore,
	nextTokens: number,
	rateBound = 1,
): Promise<Excerpts> {
	const out: Excerpts = { bodies: [], freedTokens: 0, overCap: [] };
	const plan = oversizedResults(snap, windowTokens(snap), nextTokens, rateBound);
	let used = excerptBytes(snap);
	let freed = 0;
	for (const r of plan.results) {
		if (snap.state.folds.has(foldId([r.entry]))) continue;
		const bytes = Buffer.byteLength(foldSource([r.entry]), "utf8");
		if (used + bytes > EXCERPT_CAP_BYTES) {
			out.overCap.push(`${String(r.entry.message.toolName ?? "tool")} (${bytes.toLocaleString("en-US")} bytes)`);
			continue;
		}
		used += bytes;
		out.bodies.push({ kind: "fold", actor: "ladder", fold: await excerptRecord(store, r) });
		freed += Math.max(0, r.tokens - EXCERPT_TOKENS_ESTIMATE);
	}
	return { ...out, freedTokens: freed };
}
