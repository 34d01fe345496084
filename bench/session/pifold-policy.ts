// The scripted agent's pi-fold behaviour, decided from the window alone like the rest of the policy: mark the spans
// it has finished with (a handed-in stage; once a refusal has told it how many newest units stay raw, only spans that
// have aged out of them) with a short brief naming the stage, its files (with line counts) and its receipt; read receipts and line counts off visible briefs; search
// (search-route.ts); and, for a fact search did not settle, use a brief's handle: `peek` page by page (bounded),
// `expand` only when paging cannot settle it; a receipt whose fold no visible brief names is looked up in the fold
// tree (`status`, bounded pages). It imports nothing from pi-fold's source: what it knows of pi-fold is what the tool
// said in its window (tests/bench/session/agent-imports.test.ts). Pure functions.

import { countLines } from "./facts.ts";
import {
	briefReceipts,
	CONTEXT_TOOL,
	type Placeholder,
	peekedSources,
	placeholders,
	sourceMessages,
	sourceReads,
	sourceReceipts,
} from "./folds.ts";
import { RECEIPT_LINE } from "./protocol.ts";
import { textNames } from "./reuse-gate.ts";
import { answerFromFileText, questionTarget, type RecoveryRoute, type ToolCallSpec } from "./routes.ts";
import { callsSince, type QuestionView, type StageView, type WindowView } from "./window-view.ts";

/** Bytes per peek page the agent asks for at most (pi-fold's default is 12,000; its cap 64,000). */
export const PEEK_PAGE_BYTES = 32_000;
/** Share of its window one peek page may take (~4 bytes a token): 12,000 bytes at 60k, 32,000 from 160k. */
export const PEEK_WINDOW_SHARE = 0.05;

/** The page the agent asks for in a window of `windowTokens` (unknown: the largest). */
export function peekPageBytes(windowTokens: number | undefined): number {
	if (windowTokens === undefined) return PEEK_PAGE_BYTES;
	return Math.max(4_000, Math.min(PEEK_PAGE_BYTES, Math.round(windowTokens * 4 * PEEK_WINDOW_SHARE)));
}
/** Pages of one fold the agent reads for one question before it expands the fold instead. */
export const PEEK_MAX_PAGES = 4;
/** Window tokens per page the agent reads for one question: one page at 60k, the full four from 240k. */
export const WINDOW_TOKENS_PER_PAGE = 60_000;

/** Pages of one fold the agent reads for one question in a window of `windowTokens`. */
export function peekMaxPages(windowTokens: number | undefined): number {
	if (windowTokens === undefined) return PEEK_MAX_PAGES;
	return Math.max(1, Math.min(PEEK_MAX_PAGES, Math.floor(windowTokens / WINDOW_TOKENS_PER_PAGE)));
}
/** Characters of an agent-written brief at most (pi-fold refuses briefs over 1,200). */
export const AGENT_BRIEF_MAX_CHARS = 1_000;

/** Receipts and line counts named in visible briefs: pi-fold's placeholders, and the agent's own fold calls. */
export const briefRoute: RecoveryRoute = {
	name: "brief",
	resolve(q, view) {
		if (q.kind === "receipt" && q.aboutStage !== undefined) {
			const receipt = briefReceipts(view).get(q.aboutStage);
			return receipt ? { answer: receipt } : undefined;
		}
		const file = q.kind === "line-count" ? questionTarget(q).file : undefined;
		if (!file) return undefined;
		const named = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(([\\d,]+) lines?\\)`);
		const briefs = [
			...placeholders(view.messages).map((p) => p.brief),
			...view.results.flatMap((r) =>
				r.call?.name === CONTEXT_TOOL && typeof r.call.args.brief === "string" ? [r.call.args.brief] : [],
			),
		];
		for (const brief of briefs.reverse()) {
			const m = named.exec(brief);
			if (m) return { answer: (m[1] as string).replaceAll(",", "") };
		}
		return undefined;
	},
};

/** Does a brief say it covers `stage` ("Stage 5 ...", "stages 3-9")? */
export function briefCoversStage(brief: string, stage: number): boolean {
	for (const m of brief.matchAll(/\bstages? (\d+)(?:\s*[-–]\s*(\d+))?/gi)) {
		const from = Number(m[1]);
		const to = m[2] ? Number(m[2]) : from;
		if (stage >= from && stage <= to) return true;
	}
	return false;
}

/** Pages of `status` `detail: "tree"` the agent reads looking for a receipt's fold before it gives up. */
export const TREE_MAX_PAGES = 4;

const TREE_HEADER = /^Fold tree \(transcript order\) · page (\d+)\/(\d+):$/m;
const TREE_LINE = /^\s*(f[0-9a-f]{16}) · .* · "(.*)"$/gm;

/** Folds listed in visible `status` tree pages (every fold, nested ones included, with a brief excerpt). */
export function treeListing(view: WindowView): {
	folds: { id: string; excerpt: string }[];
	seen: Set<number>;
	pages: number;
} {
	const folds: { id: string; excerpt: string }[] = [];
	const seen = new Set<number>();
	let pages = 0;
	for (const r of view.results) {
		if (r.toolName !== CONTEXT_TOOL || r.isError) continue;
		const header = TREE_HEADER.exec(r.text);
		if (!header) continue;
		seen.add(Number(header[1]));
		pages = Number(header[2]);
		for (const m of r.text.matchAll(TREE_LINE)) folds.push({ id: m[1] as string, excerpt: m[2] as string });
	}
	return { folds, seen, pages };
}

/**
 * A receipt no visible brief covers may sit in a fold nested inside a consolidation whose brief is too short to
 * name it: the fold tree lists every fold with the start of its brief, so page through it (bounded) for one that
 * covers the stage. Returns the fold's id, a call for the next tree page, or nothing.
 */
function receiptFromTree(q: QuestionView, view: WindowView): { id: string } | { calls: ToolCallSpec[] } | undefined {
	if (q.kind !== "receipt" || q.aboutStage === undefined) return undefined;
	const tree = treeListing(view);
	const hit = [...tree.folds].reverse().find((f) => briefCoversStage(f.excerpt, q.aboutStage as number));
	if (hit) return { id: hit.id };
	const next = tree.pages === 0 ? 1 : [...Array(tree.pages).keys()].map((i) => i + 1).find((p) => !tree.seen.has(p));
	if (next === undefined || next > TREE_MAX_PAGES) return undefined;
	return { calls: [{ name: CONTEXT_TOOL, args: { action: "status", detail: "tree", page: next } }] };
}

/** The fold whose brief covers what `q` asks about (newest first, so a nested brief beats an old index). */
function targetFold(q: QuestionView, view: WindowView): Placeholder | undefined {
	const folds = placeholders(view.messages).reverse();
	if (q.kind === "receipt")
		return q.aboutStage === undefined
			? undefined
			: folds.find((p) => briefCoversStage(p.brief, q.aboutStage as number));
	const target = questionTarget(q);
	const paths = target.file ? [target.file] : target.candidates;
	const sources = peekedSources(view);
	const seen = new Set<string>(view.reads.keys());
	for (const source of sources.values()) for (const path of sourceReads(sourceMessages(source)).keys()) seen.add(path);
	for (const path of paths) {
		// A candidate whose text is already in view did not settle it (another candidate defines the symbol).
		if (seen.has(path)) continue;
		// A fold read to its end without the file does not hold it after all.
		const fold = folds.find((p) => textNames(p.brief, path) && sources.get(p.id)?.next !== undefined);
		const fresh = folds.find((p) => textNames(p.brief, path) && !sources.has(p.id));
		if (fold ?? fresh) return fold ?? fresh;
	}
	return undefined;
}

/** An answer from any visible peek page. */
function answerFromPeeks(q: QuestionView, view: WindowView): string | undefined {
	for (const source of peekedSources(view).values()) {
		const messages = sourceMessages(source);
		if (q.kind === "receipt") {
			const receipt = q.aboutStage === undefined ? undefined : sourceReceipts(messages).get(q.aboutStage);
			if (receipt) return receipt;
			continue;
		}
		for (const [path, text] of sourceReads(messages)) {
			const answer = answerFromFileText(q, path, text);
			if (answer !== undefined) return answer;
		}
	}
	return undefined;
}

/**
 * The brief's handle: answer from visible peek pages; else peek the fold whose brief covers the question, page by
 * page; after its pages (PEEK_MAX_PAGES, fewer in a small window: peekMaxPages) or when paging ended without the
 * fact, expand it once, then let the window answer.
 */
export const peekRoute: RecoveryRoute = {
	name: "peek",
	resolve(q, view, stage) {
		const answer = answerFromPeeks(q, view);
		if (answer !== undefined) return { answer };
		let fold: { id: string } | undefined = targetFold(q, view);
		if (!fold) {
			const fromTree = receiptFromTree(q, view);
			if (!fromTree || "calls" in fromTree) return fromTree;
			fold = fromTree;
		}
		const since = callsSince(view, stage.index).filter((c) => c.name === CONTEXT_TOOL);
		if (since.some((c) => c.args.action === "expand" && c.args.id === fold.id)) return undefined;
		const source = peekedSources(view).get(fold.id);
		const bytes = peekPageBytes(view.windowTokens);
		if (!source) return { calls: [peek(fold.id, 0, bytes)] };
		if (source.next !== undefined && source.pages < peekMaxPages(view.windowTokens))
			return { calls: [peek(fold.id, source.next, bytes)] };
		// Read to its end without the fact: the fold does not hold it (the next route rereads from disk).
		if (source.next === undefined) return undefined;
		return { calls: [{ name: CONTEXT_TOOL, args: { action: "expand", id: fold.id } }] };
	},
};

function peek(id: string, offset: number, bytes: number): ToolCallSpec {
	return { name: CONTEXT_TOOL, args: { action: "peek", id, offset, bytes } };
}

/**
 * The agent's brief for a finished stage: stage, files (with their line counts when it saw them), receipt. Bounded:
 * the file list is what shortens.
 */
export function stageBrief(
	stage: StageView,
	receipt: string | undefined,
	stageCount: number,
	lines: ReadonlyMap<string, number> = new Map(),
): string {
	const head = `Stage ${stage.stage} of ${stageCount}, handed in.`;
	const tail = receipt ? ` Receipt for stage ${stage.stage}: ${receipt}.` : "";
	let files = stage.files.map((f) => (lines.has(f) ? `${f} (${lines.get(f)} lines)` : f)).join(", ");
	const room = AGENT_BRIEF_MAX_CHARS - head.length - tail.length - 12;
	if (files.length > room) files = `${files.slice(0, Math.max(0, room - 3))}...`;
	return `${head} Read ${files || "no files"}.${tail}`;
}

/** How pi-fold refuses a fold that touches its fresh tail: "... (the newest 6 units stay raw)". */
const FRESH_TAIL_REFUSAL = /the newest (\d+) units? stays? raw/;

/**
 * How many newest units pi-fold keeps raw, as its latest visible refusal of a fold said; 0 when no refusal is in
 * view (the agent has not been told, so it tries).
 */
export function toldFreshTail(view: WindowView): number {
	let units = 0;
	for (const r of view.results) {
		if (r.toolName !== CONTEXT_TOOL || !r.isError) continue;
		const m = FRESH_TAIL_REFUSAL.exec(r.text);
		if (m) units = Number(m[1]);
	}
	return units;
}

/** Index of every unit start (a user message, or an assistant message with its results) in the window. */
function unitStarts(view: WindowView): number[] {
	const out: number[] = [];
	view.messages.forEach((m, i) => {
		if (m.role === "user" || m.role === "assistant") out.push(i);
	});
	return out;
}

function callIds(view: WindowView, index: number): string[] {
	const message = view.messages[index];
	if (message?.role !== "assistant") return [];
	return message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : []));
}

/**
 * Marks for every finished stage still raw in the window: the span from the call that opened the stage to the unit
 * before the call that opened the next one, with the agent's brief. Once a visible refusal has said how many newest
 * units stay raw (toldFreshTail), spans not yet aged out of them wait. Spans already marked (a visible fold call names
 * them) are skipped, so under epoch scheduling a pending mark is not repeated.
 */
export function markFinished(view: WindowView, current: StageView, briefs: BriefStyle = "receipts"): ToolCallSpec[] {
	const starts = unitStarts(view);
	const marked = new Set(
		view.results
			.filter((r) => r.call?.name === CONTEXT_TOOL && r.call.args.action === "fold" && !r.isError)
			.map((r) => String(r.call?.args.from)),
	);
	const keepRaw = toldFreshTail(view);
	const calls: ToolCallSpec[] = [];
	const stages = view.stages.filter((s) => s.index < current.index || s === current);
	for (let i = 0; i + 1 < stages.length; i++) {
		const s = stages[i] as StageView;
		const next = stages[i + 1] as StageView;
		const open = view.results.find((r) => r.index === s.index)?.call;
		const nextOpen = view.results.find((r) => r.index === next.index)?.call;
		if (!open || !nextOpen || marked.has(open.id)) continue;
		// Units after the span, plus the assistant message this mark is made in.
		const after = starts.filter((u) => u >= nextOpen.index).length + 1;
		if (after < keepRaw) continue;
		const last = starts.filter((u) => u < nextOpen.index).at(-1);
		const to = last === undefined ? undefined : callIds(view, last).at(-1);
		if (!to) continue;
		const stageText = view.results.find((r) => r.index === s.index)?.text ?? "";
		const receipt = [...stageText.matchAll(RECEIPT_LINE)].find((m) => Number(m[1]) === s.stage)?.[2];
		calls.push({
			name: CONTEXT_TOOL,
			args: {
				action: "fold",
				from: open.id,
				to,
				brief: stageBrief(s, briefs === "receipts" ? receipt : undefined, s.stageCount, lineCounts(view, s)),
			},
		});
	}
	return calls;
}

/** Line counts of the stage's files whose text the window shows. */
export function lineCounts(view: WindowView, stage: StageView): Map<string, number> {
	const out = new Map<string, number>();
	for (const f of stage.files) {
		const read = view.reads.get(f);
		if (read) out.set(f, countLines(read.text));
	}
	return out;
}

/** Refolds every fold the agent expanded that the window still shows expanded (an expand without a later refold). */
export function refoldExpanded(view: WindowView): ToolCallSpec[] {
	const open = new Map<string, number>();
	for (const r of view.results) {
		if (r.call?.name !== CONTEXT_TOOL || r.isError) continue;
		const id = String(r.call.args.id);
		if (r.call.args.action === "expand") open.set(id, r.index);
		if (r.call.args.action === "refold") open.delete(id);
	}
	return [...open.keys()].map((id) => ({ name: CONTEXT_TOOL, args: { action: "refold", id } }));
}

/** "receipts": the agent's briefs name the stage's receipt; "files": stage and files only (the receipt stays inside). */
export type BriefStyle = "receipts" | "files";

/** The agent arms' hand-in: mark finished spans, refold what it expanded. */
export function handIn(view: WindowView, stage: StageView): ToolCallSpec[] {
	return [...refoldExpanded(view), ...markFinished(view, stage)];
}

/** The hand-in with briefs that leave receipts out, so a receipt can only come back from the folds (search, peek). */
export function handInTerse(view: WindowView, stage: StageView): ToolCallSpec[] {
	return [...refoldExpanded(view), ...markFinished(view, stage, "files")];
}

/** Adds every file text held in visible peek pages to the view's reads (as a result of the context tool). */
export function addPeekedReads(view: WindowView): void {
	const lastPage = new Map<string, number>();
	for (const r of view.results) {
		const id = r.toolName === CONTEXT_TOOL && !r.isError ? /^\[peek (f[0-9a-f]{16}) /.exec(r.text)?.[1] : undefined;
		if (id) lastPage.set(id, r.index);
	}
	for (const source of peekedSources(view).values())
		for (const [path, text] of sourceReads(sourceMessages(source)))
			if (!view.reads.has(path))
				view.reads.set(path, {
					call: undefined,
					toolName: CONTEXT_TOOL,
					text,
					isError: false,
					index: lastPage.get(source.id) ?? 0,
				});
}
