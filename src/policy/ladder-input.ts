// Builds what the policy layer measures from one snapshot: the estimated tokens each transcript
// entry occupies in the window now (a collapsed fold counts its placeholder once), the ladder's
// input (units, chapters, folds in force, pending mark ranges, protections, fresh tail, which tool
// batches the tool rung may take), and the scheduler's view of every pending mark (freed tokens,
// protection, fresh tail). Pure over the snapshot (the window's and the shown tokens keep their last
// answer and measure only appended entries when the rest is unchanged); token counts come from the
// Wasm estimator.

import { nameIndexRoom, nameIndexSizeBound } from "../briefs/index.ts";
import { registerMemo } from "../common/memo-slots.ts";
import {
	extendsByAppending,
	isReadOnlyBatch,
	memoByMessage,
	type TranscriptEntry,
	toChapters,
	type Unit,
} from "../transcript/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import { keptRawRange, keptRawUnits } from "./kept-raw.ts";
import type { LadderInput } from "./ladder.ts";
import type { MarkView } from "./schedule.ts";
import type { Snapshot } from "./snapshot.ts";

/** The options the ladder's input depends on (a subset of pi-fold's resolved options). */
export interface LadderOptions {
	readonly readOnlyTools: ReadonlySet<string>;
	readonly foldPeekResults: boolean;
	readonly toolName: string;
}

/**
 * Estimated tokens one new fold's placeholder occupies: the header and the peek/expand line
 * (~200 characters) plus a typical brief (~400 characters), at ~4 characters per token.
 */
export const PLACEHOLDER_TOKENS_ESTIMATE = 160;

/**
 * Estimated tokens the placeholder of a new fold over entries [start, end) of `snap` (`spanTokens`
 * shown now) takes: PLACEHOLDER_TOKENS_ESTIMATE for its head, brief and handles, plus its name index
 * at most (src/briefs name-index.ts: the names its entries hold, within the index's room, at four
 * characters a token).
 */
export function placeholderEstimate(snap: Snapshot, start: number, end: number, spanTokens: number): number {
	const room = nameIndexRoom(spanTokens * 4, snap.budget.budgetTokens);
	const names = nameIndexSizeBound(snap.view.transcript.slice(start, end), room);
	return PLACEHOLDER_TOKENS_ESTIMATE + Math.ceil(names / 4);
}

/** Estimated tokens a new fold over entries [start, end) of `spanTokens` frees (its span less its placeholder). */
export function freedByFold(snap: Snapshot, start: number, end: number, spanTokens: number): number {
	return Math.max(0, spanTokens - placeholderEstimate(snap, start, end, spanTokens));
}

/** Per-message framing a provider adds around each message's content (role, separators), in tokens. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Estimated tokens of a request's messages: each message's content (not Pi's bookkeeping fields such
 * as usage or timestamps, which never reach a provider) plus MESSAGE_OVERHEAD_TOKENS.
 */
export function requestMessageTokens(messages: readonly unknown[]): number {
	let total = 0;
	for (const message of messages) {
		total += MESSAGE_OVERHEAD_TOKENS + (message !== null && typeof message === "object" ? requestTokensOf(message) : 0);
	}
	return total;
}

/** A request message's content tokens, memoized by the message object (src/transcript `memoByMessage`). */
const requestTokensOf = memoByMessage((message) => {
	const content = (message as { content?: unknown }).content;
	return estimateTokens(typeof content === "string" ? content : JSON.stringify(content ?? ""));
});

/** A transcript message's window tokens (its content as JSON), memoized by the message object. */
const windowTokensOf = memoByMessage((message) =>
	estimateTokens(JSON.stringify((message as { content?: unknown }).content ?? "")),
);

/** Estimated tokens per transcript entry as the window shows it now, with prefix sums. */
export interface WindowTokens {
	readonly perEntry: readonly number[];
	/** tokens(start, end): estimated tokens entries [start, end) occupy now. */
	readonly range: (start: number, end: number) => number;
	readonly total: number;
}

/**
 * A collapsed fold's placeholder as the window shows it: the replacement in force on its first leaf
 * when it has one (a committed fold: its real brief, handles and listing), else the estimate.
 */
function placeholderTokens(snap: Snapshot, foldId: string): number {
	const first = snap.lattice.get(foldId)?.record.leafIds[0];
	const shown = first === undefined ? undefined : snap.view.inForce.get(first);
	return shown ? estimateTokens(JSON.stringify(shown.content ?? "")) : PLACEHOLDER_TOKENS_ESTIMATE;
}

/** A replacement's window tokens (its content as JSON), memoized by the replacement object. */
const replacementTokensOf = memoByMessage((shown) =>
	estimateTokens(JSON.stringify((shown as { content?: unknown }).content ?? "")),
);

/** Estimated tokens entries [from, end) of `transcript` show under the edits `inForce`. */
function shownTokensOf(
	transcript: readonly TranscriptEntry[],
	inForce: Snapshot["view"]["inForce"],
	from: number,
): number {
	let total = 0;
	for (let i = from; i < transcript.length; i++) {
		const entry = transcript[i] as TranscriptEntry;
		const shown = inForce.get(entry.id);
		if (shown === null) continue;
		total += shown === undefined ? windowTokensOf(entry.message) : replacementTokensOf(shown);
	}
	return total;
}

/**
 * The last shownTokens measured, with what it read: the same edits in force over a transcript that
 * only grew by appending show the old entries as they did, so only the appended ones are measured.
 */
let lastShown: {
	inForce: Snapshot["view"]["inForce"];
	transcript: readonly TranscriptEntry[];
	total: number;
} | null = null;
registerMemo(
	() => lastShown,
	(value) => {
		lastShown = value as typeof lastShown;
	},
);

/** Estimated tokens of the transcript as the edits in force show it (before any pending decision lands). */
export function shownTokens(snap: Snapshot): number {
	const { transcript, inForce } = snap.view;
	const last = lastShown;
	const total =
		last && last.inForce === inForce && extendsByAppending(last.transcript, transcript)
			? last.total + shownTokensOf(transcript, inForce, last.transcript.length)
			: shownTokensOf(transcript, inForce, 0);
	lastShown = { inForce, transcript, total };
	return total;
}

/**
 * The last windowTokens measured, with what it read. A transcript that only grew by appending keeps
 * its lattice's folds (snapshot.ts extends the lattice), its state and its edits in force: the old
 * entries show as they did, and the appended ones show raw, so only they are measured.
 */
let lastWindow: {
	key: readonly unknown[];
	transcript: readonly TranscriptEntry[];
	perEntry: number[];
	prefix: number[];
} | null = null;
registerMemo(
	() => lastWindow,
	(value) => {
		lastWindow = value as typeof lastWindow;
	},
);

export function windowTokens(snap: Snapshot): WindowTokens {
	const { transcript } = snap.view;
	const key = [snap.lattice.folds, snap.state, snap.view.inForce];
	const last = lastWindow;
	let perEntry: number[];
	let prefix: number[];
	if (last?.key.every((k, i) => k === key[i]) && extendsByAppending(last.transcript, transcript)) {
		perEntry = [...last.perEntry];
		prefix = [...last.prefix];
		for (let i = last.transcript.length; i < transcript.length; i++) {
			const message = (transcript[i] as TranscriptEntry).message;
			const t = windowTokensOf(message);
			perEntry.push(t);
			prefix.push((prefix.at(-1) as number) + t);
		}
	} else {
		perEntry = new Array<number>(transcript.length).fill(0);
		for (const item of snap.lattice.visible(snap.state.expanded)) {
			if (item.type === "entry") {
				const message = transcript[item.index]?.message;
				perEntry[item.index] = message ? windowTokensOf(message) : estimateTokens('""');
			} else perEntry[item.start] = placeholderTokens(snap, item.id);
		}
		prefix = [0];
		for (const t of perEntry) prefix.push((prefix.at(-1) as number) + t);
	}
	lastWindow = { key, transcript, perEntry, prefix };
	const sums = prefix;
	return {
		perEntry: [...perEntry],
		range: (start, end) => (sums[end] ?? 0) - (sums[start] ?? 0),
		total: sums.at(-1) as number,
	};
}

/** The fold ids a peek batch read, or null when `unit` is not a completed batch of peeks only. */
export function peekedFolds(unit: Unit, entries: readonly TranscriptEntry[], toolName: string): string[] | null {
	if (unit.kind !== "toolBatch" || !unit.complete || unit.toolNames.length === 0) return null;
	if (!unit.toolNames.every((n) => n === toolName)) return null;
	const content = entries[unit.start]?.message.content;
	if (!Array.isArray(content)) return null;
	const ids: string[] = [];
	for (const block of content as { type?: string; arguments?: { action?: unknown; id?: unknown } }[]) {
		if (block.type !== "toolCall") continue;
		if (block.arguments?.action !== "peek") return null;
		ids.push(String(block.arguments.id));
	}
	return ids.length > 0 ? ids : null;
}

/** Context-tool actions that only read (their results are completed reads like any read-only tool's). */
const READING_ACTIONS: ReadonlySet<string> = new Set(["peek", "status", "search"]);

/**
 * The fold ids a batch's context-tool reads named, when every call of the completed batch reads:
 * a `readOnlyTools` call or a reading action of the context tool. Null when any call does more.
 */
export function readingBatch(
	unit: Unit,
	entries: readonly TranscriptEntry[],
	options: Pick<LadderOptions, "readOnlyTools" | "toolName">,
): string[] | null {
	if (unit.kind !== "toolBatch" || !unit.complete || unit.toolNames.length === 0) return null;
	const content = entries[unit.start]?.message.content;
	if (!Array.isArray(content)) return null;
	const ids: string[] = [];
	for (const block of content as { type?: string; name?: string; arguments?: { action?: unknown; id?: unknown } }[]) {
		if (block.type !== "toolCall") continue;
		if (block.name !== options.toolName) {
			if (!options.readOnlyTools.has(String(block.name))) return null;
			continue;
		}
		if (!READING_ACTIONS.has(String(block.arguments?.action))) return null;
		if (typeof block.arguments?.id === "string") ids.push(block.arguments.id);
	}
	return ids;
}

/**
 * Whether the tool rung may take `unit`: a completed batch of `readOnlyTools`, or (with
 * `foldPeekResults`) a completed batch whose calls only read, the context tool's peeks among them,
 * when the agent has not expanded a fold it peeked since.
 */
export function toolFoldableFor(snap: Snapshot, options: LadderOptions): (unit: Unit) => boolean {
	return (unit) => {
		if (isReadOnlyBatch(unit, options.readOnlyTools)) return true;
		if (!options.foldPeekResults) return false;
		const peeked = readingBatch(unit, snap.view.transcript, options);
		return peeked !== null && !peeked.some((id) => snap.state.expanded.has(id));
	};
}

/** Entry range [start, end) of a fold record on this transcript, or null when not all leaves are here. */
export function spanOf(snap: Snapshot, leafIds: readonly string[]): { start: number; end: number } | null {
	const start = snap.lattice.position.get(leafIds[0] ?? "");
	const last = snap.lattice.position.get(leafIds.at(-1) ?? "");
	if (start === undefined || last === undefined || last - start + 1 !== leafIds.length) return null;
	return { start, end: last + 1 };
}

export function ladderInput(
	snap: Snapshot,
	options: LadderOptions,
	tokens: WindowTokens,
	occupancy: number,
): LadderInput {
	const pendingRanges: { start: number; end: number }[] = [];
	for (const mark of snap.state.pendingMarks.values()) {
		const span = spanOf(snap, mark.fold.leafIds);
		if (span) pendingRanges.push(span);
	}
	return {
		entries: snap.view.transcript,
		units: snap.units,
		chapters: toChapters(snap.units),
		lattice: snap.lattice,
		expanded: snap.state.expanded,
		pendingRanges,
		protectedEntries: snap.state.protectedEntries,
		protectedFolds: snap.state.protectedFolds,
		keptRaw: keptRawRange(snap, keptRawUnits(snap, options.toolName)),
		freshStartUnit: snap.freshUnit,
		runningTurnUnit: snap.runningUnit,
		toolFoldable: toolFoldableFor(snap, options),
		visibleTokens: tokens.range,
		placeholderTokens: (start, end, spanTokens) => placeholderEstimate(snap, start, end, spanTokens),
		occupancy,
	};
}

/** Why a pending mark over [start, end) cannot apply (protected evidence), or null. */
function markProtection(snap: Snapshot, leafIds: readonly string[], start: number, end: number): string | null {
	const hit = leafIds.find((id) => snap.state.protectedEntries.has(id));
	if (hit) return `entry ${hit} is protected`;
	for (const fold of snap.lattice.folds.values()) {
		if (fold.start >= start && fold.end <= end && snap.state.protectedFolds.has(fold.record.id))
			return `fold ${fold.record.id} inside it is protected`;
	}
	return null;
}

/** The scheduler's view of every pending mark, in transcript order. */
export function markViews(snap: Snapshot, tokens: WindowTokens): MarkView[] {
	const out: (MarkView & { start: number })[] = [];
	for (const [id, mark] of snap.state.pendingMarks) {
		const span = spanOf(snap, mark.fold.leafIds);
		if (!span) {
			out.push({
				id,
				start: Number.MAX_SAFE_INTEGER,
				end: Number.MAX_SAFE_INTEGER,
				freedTokens: 0,
				actor: mark.actor,
				protectedBy: "its entries are no longer contiguous in the context",
				inFreshTail: false,
			});
			continue;
		}
		const unitOf = (i: number) => snap.units.find((u) => u.start <= i && i < u.end)?.index ?? -1;
		const lastUnit = unitOf(span.end - 1);
		const firstUnit = unitOf(span.start);
		const holdsRunning = snap.runningUnit >= firstUnit && snap.runningUnit <= lastUnit;
		out.push({
			id,
			start: span.start,
			end: span.end,
			freedTokens: freedByFold(snap, span.start, span.end, tokens.range(span.start, span.end)),
			actor: mark.actor,
			protectedBy: markProtection(snap, mark.fold.leafIds, span.start, span.end),
			inFreshTail: lastUnit >= snap.freshUnit || holdsRunning,
		});
	}
	return out.sort((a, b) => a.start - b.start);
}
