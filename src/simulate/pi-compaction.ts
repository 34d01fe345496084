// Pi's native compaction arithmetic, mirrored for the simulator (pi-coding-agent 1.x
// core/compaction/compaction.js and agent-session's `_checkCompaction` /
// `_exceedsCompactionThreshold`): Pi's chars/4 estimate per message, the context estimate Pi
// compares with its threshold (the last response's usage plus what came after it, or a whole
// estimate once a context edit or a compaction followed that response), the trigger
// `shouldCompact`, and `prepareCompaction`'s cut point (walk back from the newest projected entry
// until keepRecentTokens, cut at a user-like or assistant message, never at a tool result).
// tests/simulate checks it against Pi's own functions on the same entries. Pure.

import type { TranscriptMessage } from "../transcript/index.ts";
import type { SimEntry } from "./entries.ts";
import { type ProjectedEntry, projectedEntries } from "./pi-projection.ts";

/** Pi's compaction settings (`SettingsManager.getCompactionSettings`). */
export interface CompactionSettings {
	readonly enabled: boolean;
	readonly reserveTokens: number;
	readonly keepRecentTokens: number;
}

/** Pi's DEFAULT_COMPACTION_SETTINGS. */
export const PI_COMPACTION_DEFAULTS: CompactionSettings = {
	enabled: true,
	reserveTokens: 16_384,
	keepRecentTokens: 20_000,
};

type Block = { type?: string; text?: string; thinking?: string; name?: string; arguments?: unknown };

function textChars(content: unknown): number {
	if (typeof content === "string") return content.length;
	if (!Array.isArray(content)) return 0;
	let chars = 0;
	for (const b of content as Block[]) {
		if (b.type === "text" && b.text) chars += b.text.length;
		else if (b.type === "image") chars += 4_800;
	}
	return chars;
}

/** Pi's `estimateTokens`: characters / 4 of what a message carries, by role. */
function piEstimateTokens(message: TranscriptMessage): number {
	switch (message.role) {
		case "assistant": {
			let chars = 0;
			for (const b of (Array.isArray(message.content) ? message.content : []) as Block[]) {
				if (b.type === "text") chars += (b.text ?? "").length;
				else if (b.type === "thinking") chars += (b.thinking ?? "").length;
				else if (b.type === "toolCall") chars += (b.name ?? "").length + JSON.stringify(b.arguments).length;
			}
			return Math.ceil(chars / 4);
		}
		case "system":
		case "user":
		case "custom":
		case "toolResult":
			return Math.ceil(textChars(message.content) / 4);
		case "compactionSummary":
		case "branchSummary":
			return Math.ceil(String(message.summary ?? "").length / 4);
		default:
			return 0;
	}
}

/** Pi's `shouldCompact`: the estimate is above the window less the reserve. */
export function shouldCompact(tokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	return settings.enabled && tokens > contextWindow - settings.reserveTokens;
}

/** What the estimate reads: the branch, the billed total of each answered request by assistant entry id, the system prompt. */
export interface EstimateInput {
	readonly entries: readonly SimEntry[];
	/** Provider usage total (input + output + cache) of each assistant entry. */
	readonly usage: ReadonlyMap<string, number>;
	readonly systemPrompt: string;
}

function wholeEstimate(projected: readonly ProjectedEntry[], systemPrompt: string): number {
	let tokens = systemPrompt ? Math.ceil(systemPrompt.length / 4) : 0;
	for (const p of projected) if (p.message) tokens += piEstimateTokens(p.message);
	return tokens;
}

/** Index in `entries` of the latest context edit or compaction, or -1. */
function latestInvalidating(entries: readonly SimEntry[]): number {
	for (let i = entries.length - 1; i >= 0; i--) {
		const type = (entries[i] as SimEntry).type;
		if (type === "context_edit" || type === "compaction") return i;
	}
	return -1;
}

/** Pi's `estimateProjectedContextTokens`: usage plus trailing estimates, unless an edit or compaction came later. */
export function projectedContextTokens(input: EstimateInput): number {
	const projected = projectedEntries(input.entries);
	let at = -1;
	for (let i = projected.length - 1; i >= 0 && at < 0; i--) {
		const p = projected[i] as ProjectedEntry;
		if (p.message?.role === "assistant" && (input.usage.get(p.entry.id) ?? 0) > 0) at = i;
	}
	if (at >= 0) {
		const id = (projected[at] as ProjectedEntry).entry.id;
		const usageIndex = input.entries.findIndex((e) => e.id === id);
		if (usageIndex > latestInvalidating(input.entries)) {
			let trailing = 0;
			for (const p of projected.slice(at + 1)) if (p.message) trailing += piEstimateTokens(p.message);
			return (input.usage.get(id) as number) + trailing;
		}
	}
	return wholeEstimate(projected, input.systemPrompt);
}

/**
 * Pi's `_checkCompaction` estimate for the threshold at the end of a run (and before the next):
 * the whole projected estimate when any context edit is in the window, else the last response's
 * usage total. Null when Pi skips the check: no response yet, or a compaction came after it.
 */
export function runEndTokens(input: EstimateInput, lastAssistantId: string | undefined): number | null {
	if (lastAssistantId === undefined) return null;
	const at = input.entries.findIndex((e) => e.id === lastAssistantId);
	if (at < 0 || input.entries.slice(at + 1).some((e) => e.type === "compaction")) return null;
	const projected = projectedEntries(input.entries);
	if (projected.some((p) => p.entry.type === "context_edit")) return projectedContextTokens(input);
	return input.usage.get(lastAssistantId) ?? wholeEstimate(projected, input.systemPrompt);
}

const CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function isTurnStart(p: ProjectedEntry): boolean {
	return p.entry.type !== "compaction" && p.message !== null && TURN_START_ROLES.has(p.message.role);
}

function tokensOf(p: ProjectedEntry): number {
	return p.message ? piEstimateTokens(p.message) : 0;
}

/** Whether an entry projects a message before any edit (Pi's sessionEntryToContextMessages is non-empty). */
function intrinsicallyVisible(p: ProjectedEntry): boolean {
	return p.entry.type === "message" || p.entry.type === "custom_message" || p.entry.type === "compaction";
}

/** Pi's recovery-omission rule: a closed suffix of omitted attempts moves the cut one entry on. */
function recoverySuffix(suffix: readonly ProjectedEntry[]): boolean {
	const omitted = (p: ProjectedEntry) => intrinsicallyVisible(p) && p.message === null;
	const omittedIds = new Set(suffix.filter(omitted).map((p) => p.entry.id));
	const external = suffix.some(
		(p) => p.entry.type === "context_edit" && p.entry.replacement !== null && !omittedIds.has(p.entry.targetId),
	);
	return (
		!external &&
		suffix.some((p) => p.entry.type === "message" && p.entry.message.role === "assistant" && omitted(p)) &&
		suffix.every((p) => p.entry.type !== "compaction" && (!intrinsicallyVisible(p) || omitted(p)))
	);
}

/** Pi's `findProjectedCutPoint` over [start, end): the first kept index and the split turn's start. */
function cutPoint(entries: readonly ProjectedEntry[], start: number, end: number, keep: number) {
	const cuts: number[] = [];
	for (let i = start; i < end; i++) {
		const p = entries[i] as ProjectedEntry;
		if (p.entry.type !== "compaction" && p.message && CUT_ROLES.has(p.message.role)) cuts.push(i);
	}
	if (cuts.length === 0) return { first: start, turnStart: -1 };
	let accumulated = 0;
	let exceeded = false;
	let cut = cuts[0] as number;
	for (let i = end - 1; i >= start; i--) {
		const tokens = tokensOf(entries[i] as ProjectedEntry);
		if (tokens === 0) continue;
		accumulated += tokens;
		if (accumulated >= keep) {
			exceeded = true;
			cut = cuts.find((c) => c >= i) ?? (cuts.at(-1) as number);
			break;
		}
	}
	if (exceeded && recoverySuffix(entries.slice(cut + 1, end))) cut++;
	while (cut > start) {
		const previous = entries[cut - 1] as ProjectedEntry;
		if (previous.entry.type === "compaction" || previous.message !== null) break;
		cut--;
	}
	if (isTurnStart(entries[cut] as ProjectedEntry)) return { first: cut, turnStart: -1 };
	let turnStart = -1;
	for (let i = cut; i >= start && turnStart < 0; i--) if (isTurnStart(entries[i] as ProjectedEntry)) turnStart = i;
	return { first: cut, turnStart };
}

/** What a compaction of the branch would keep and what it would summarize. */
interface CompactionPlan {
	readonly firstKeptEntryId: string;
	readonly tokensBefore: number;
	/** Messages the summary replaces (the history and, for a split turn, the turn's prefix). */
	readonly summarized: number;
}

/** Pi's `prepareCompaction`: undefined when the branch ends in a compaction or there is nothing to summarize. */
export function prepareCompaction(input: EstimateInput, settings: CompactionSettings): CompactionPlan | undefined {
	if (input.entries.at(-1)?.type === "compaction") return undefined;
	const projected = projectedEntries(input.entries);
	const previous = projected.findIndex((p) => p.entry.type === "compaction" && p.message !== null);
	const start = previous >= 0 ? previous + 1 : 0;
	const cut = cutPoint(projected, start, projected.length, settings.keepRecentTokens);
	const first = projected[cut.first];
	if (!first) return undefined;
	const historyEnd = cut.turnStart >= 0 ? cut.turnStart : cut.first;
	const count = (from: number, to: number) =>
		projected
			.slice(from, to)
			.filter((p) => p.entry.type !== "compaction" && p.message !== null && p.message.role !== "system").length;
	const summarized = count(start, historyEnd) + (cut.turnStart >= 0 ? count(cut.turnStart, cut.first) : 0);
	if (summarized === 0) return undefined;
	return { firstKeptEntryId: first.entry.id, tokensBefore: projectedContextTokens(input), summarized };
}
