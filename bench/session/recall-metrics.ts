// What recovering old facts cost a pi-fold arm, read from its session after the run: the context-tool calls that
// read folded history (search, peek, expand, status tree pages) and the bytes of fold source they showed (a search's
// excerpts, a peek's slice, an expanded fold's whole source), plus the shape of the fold tree at the end (its deepest
// fold and its leaf folds, against log2(leaves) + 2). The report divides these by the facts recovered from folds.
// Pure functions over the session's entries.

import type { AgentSession } from "@earendil-works/pi-coding-agent";
import { Lattice } from "../../src/lattice/index.ts";
import type { FoldState } from "../../src/state/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";

export interface RecallMetrics {
	searches: number;
	/** Bytes of fold source search results showed (their excerpts). */
	searchBytes: number;
	/** Peek slices' bytes are FoldMetrics.peekBytes; expanded folds' source bytes here. */
	expandBytes: number;
	/** `status` calls with detail "tree" (looking a fold up by its brief). */
	treePages: number;
	/** Calls that read folded history: search + peek + expand + tree pages. */
	recoveryCalls: number;
	/** Bytes of fold source they showed: search excerpts + peek slices + expanded sources. */
	sourceBytes: number;
	/** The deepest fold at the end (0 = top level) and the folds with no fold inside. */
	maxDepth: number;
	leafFolds: number;
}

/** pi-fold's tool, by the name the session registers (measurement keeps its own copy: it shares nothing with the agent). */
const CONTEXT_TOOL = "active_context";

/** The text blocks of a message's content. */
function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((b: { type?: string; text?: string }) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
		.join("\n");
}

const SHOWN = / · ([\d,]+) bytes of source shown\]/;
const PEEK_RANGE = /^\[peek f[0-9a-f]+ · bytes (\d+)-(\d+)/;

/** Depth and leaves of the fold tree over the session's branch (0 and 0 when the folds cannot be placed). */
function treeShape(session: AgentSession, state: FoldState): { maxDepth: number; leafFolds: number } {
	const entries: TranscriptEntry[] = session.sessionManager
		.getBranch()
		.flatMap((e) =>
			e.type === "message" ? [{ id: e.id, message: e.message as unknown as TranscriptEntry["message"] }] : [],
		);
	try {
		const folds = [...Lattice.build(entries, state.folds.values()).folds.values()];
		return {
			maxDepth: folds.reduce((m, f) => Math.max(m, f.depth), 0),
			leafFolds: folds.filter((f) => !f.children.some((c) => c.type === "fold")).length,
		};
	} catch {
		return { maxDepth: 0, leafFolds: 0 };
	}
}

/** The recall measures of a finished pi-fold session whose decision log replays to `state`. */
export function recallMetrics(session: AgentSession, state: FoldState): RecallMetrics {
	const calls = new Map<string, Record<string, unknown>>();
	const out = { searches: 0, searchBytes: 0, peeks: 0, peekBytes: 0, expands: 0, expandBytes: 0, treePages: 0 };
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type !== "message") continue;
		const m = entry.message;
		if (m.role === "assistant")
			for (const b of m.content) if (b.type === "toolCall") calls.set(b.id, b.arguments as Record<string, unknown>);
		if (m.role !== "toolResult" || m.toolName !== CONTEXT_TOOL || m.isError) continue;
		const args = calls.get(m.toolCallId);
		const text = textOf(m.content);
		if (args?.action === "search") {
			out.searches++;
			out.searchBytes += Number((SHOWN.exec(text)?.[1] ?? "0").replaceAll(",", ""));
		} else if (args?.action === "peek") {
			out.peeks++;
			const range = PEEK_RANGE.exec(text);
			if (range) out.peekBytes += Number(range[2]) - Number(range[1]);
		} else if (args?.action === "expand") {
			out.expands++;
			out.expandBytes += state.folds.get(String(args.id))?.sourceBytes ?? 0;
		} else if (args?.action === "status" && args.detail === "tree") out.treePages++;
	}
	return {
		searches: out.searches,
		searchBytes: out.searchBytes,
		expandBytes: out.expandBytes,
		treePages: out.treePages,
		recoveryCalls: out.searches + out.peeks + out.expands + out.treePages,
		sourceBytes: out.searchBytes + out.peekBytes + out.expandBytes,
		...treeShape(session, state),
	};
}
