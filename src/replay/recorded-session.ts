// What happened in a recorded session, from the file's own usage: the requests (assistant replies
// with usage), their prompt and output tokens and cost, compaction and branch-summary requests,
// other usage (cache warming), Pi's compactions, the peak request, the messages compaction took out
// of the model's reach; the session's model; and the price per token type the file's own costs
// imply. Nothing estimated here. Pure over the parsed file.

import type { PriceTable } from "../policy/index.ts";
import type { FileEntry, FileMessage, FileUsage } from "./session-file.ts";

/** Token and cost sums of some usage records. */
interface UsageTotals {
	readonly calls: number;
	readonly input: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly output: number;
	readonly cost: number;
}

/**
 * Dollars per million tokens of each type, with the long-context tiers a model's table may have (a
 * request whose prompt is above a tier's `inputTokensAbove` is priced at that tier, as pi-ai bills).
 */
export type Prices = PriceTable;

export interface NativeFigures {
	/** The session's own requests: assistant replies that carry usage. */
	readonly requests: UsageTotals;
	/** Compaction and branch-summary requests. */
	readonly summaries: UsageTotals;
	/** Usage entries (cache warming and the like). */
	readonly other: UsageTotals;
	/** Everything billed on the branch. */
	readonly total: UsageTotals;
	/** Each request's prompt (input + cache read + cache write) and output, in order. */
	readonly prompts: readonly {
		readonly prompt: number;
		readonly input: number;
		readonly cacheRead: number;
		readonly cacheWrite: number;
		readonly output: number;
	}[];
	readonly peak: number;
	readonly compactions: number;
	/** Messages before the latest compaction's first kept entry: out of the model's reach at the end. */
	readonly summarizedAway: number;
	readonly model: string | undefined;
}

const EMPTY: UsageTotals = { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: 0 };

function add(t: UsageTotals, u: FileUsage): UsageTotals {
	return {
		calls: t.calls + 1,
		input: t.input + u.input,
		cacheRead: t.cacheRead + u.cacheRead,
		cacheWrite: t.cacheWrite + u.cacheWrite,
		output: t.output + u.output,
		cost: t.cost + (u.cost?.total ?? 0),
	};
}

/** A request's prompt tokens as its usage reports them. */
export function promptOf(u: FileUsage): number {
	return u.input + u.cacheRead + u.cacheWrite;
}

function sum(a: UsageTotals, b: UsageTotals): UsageTotals {
	return {
		calls: a.calls + b.calls,
		input: a.input + b.input,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		output: a.output + b.output,
		cost: a.cost + b.cost,
	};
}

/** The assistant messages of `entries` that carry usage (the billed requests), in order. */
export function billedReplies(
	entries: readonly FileEntry[],
): { entry: FileEntry; message: FileMessage; usage: FileUsage }[] {
	return entries.flatMap((e) =>
		e.type === "message" && e.message.role === "assistant" && e.message.usage
			? [{ entry: e, message: e.message, usage: e.message.usage }]
			: [],
	);
}

function summarizedAway(branch: readonly FileEntry[]): number {
	let latest = -1;
	branch.forEach((e, i) => {
		if (e.type === "compaction") latest = i;
	});
	const compaction = branch[latest];
	if (compaction?.type !== "compaction") return 0;
	const kept = branch.findIndex((e) => e.id === compaction.firstKeptEntryId);
	const end = kept >= 0 && kept < latest ? kept : latest;
	return branch.slice(0, end).filter((e) => e.type === "message" && e.message.role !== "system").length;
}

/** The most frequent `provider/model` of the session's replies. */
function modelOf(replies: readonly { message: FileMessage }[]): string | undefined {
	const counts = new Map<string, number>();
	for (const { message } of replies) {
		if (!message.model) continue;
		const key = message.provider ? `${message.provider}/${message.model}` : message.model;
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The recorded figures of `branch` (the entries Pi replays as the session). */
export function nativeFigures(branch: readonly FileEntry[]): NativeFigures {
	const replies = billedReplies(branch);
	let requests = EMPTY;
	for (const r of replies) requests = add(requests, r.usage);
	let summaries = EMPTY;
	let other = EMPTY;
	for (const e of branch) {
		if ((e.type === "compaction" || e.type === "branch_summary") && e.usage) summaries = add(summaries, e.usage);
		if (e.type === "usage") other = add(other, e.usage);
	}
	const prompts = replies.map((r) => ({
		prompt: promptOf(r.usage),
		input: r.usage.input,
		cacheRead: r.usage.cacheRead,
		cacheWrite: r.usage.cacheWrite,
		output: r.usage.output,
	}));
	return {
		requests,
		summaries,
		other,
		total: sum(sum(requests, summaries), other),
		prompts,
		peak: prompts.reduce((m, p) => Math.max(m, p.prompt), 0),
		compactions: branch.filter((e) => e.type === "compaction").length,
		summarizedAway: summarizedAway(branch),
		model: modelOf(replies),
	};
}

/**
 * The price per million tokens of each type, as the file's own costs imply: the lowest observed
 * cost per token among replies that bill that type (a long-context tier prices some requests
 * higher; the lowest is the base tier). Zero where the file records no cost.
 */
export function impliedPrices(branch: readonly FileEntry[]): Prices {
	const replies = billedReplies(branch);
	const lowest = (pick: (u: FileUsage) => [number, number]): number => {
		let best = Number.POSITIVE_INFINITY;
		for (const { usage } of replies) {
			const [tokens, dollars] = pick(usage);
			if (tokens > 0 && dollars > 0) best = Math.min(best, (dollars / tokens) * 1_000_000);
		}
		return Number.isFinite(best) ? Number(best.toPrecision(4)) : 0;
	};
	return {
		input: lowest((u) => [u.input, u.cost?.input ?? 0]),
		output: lowest((u) => [u.output, u.cost?.output ?? 0]),
		cacheRead: lowest((u) => [u.cacheRead, u.cost?.cacheRead ?? 0]),
		cacheWrite: lowest((u) => [u.cacheWrite, u.cost?.cacheWrite ?? 0]),
	};
}
