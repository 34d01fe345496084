// The replay's working-set fidelity: how pi-fold's windows, and the session's own as it ran, held the
// facts the agent went on to use and the user's earlier messages (working-set.ts, working-set-tally.ts),
// and what the recalls pi-fold's missing facts call for would cost. A request missing a fact is priced
// as one recall: a search and a peek, two reads of that request's prompt from cache, RECALL_FRESH_TOKENS
// fresh (the calls and what they bring back) and RECALL_OUTPUT_TOKENS of output, at the replay's prices
// and the tier the prompt falls in. The total with them is put against the session as it ran, estimated
// the same way as pi-fold's figure (the estimator check's requests, plus its summary requests). Pure.

import { ratesAt } from "../policy/index.ts";
import type { ReplayMessage, SimEntry } from "../simulate/index.ts";
import type { EstimatedRequest, Pricing } from "./replay-bills.ts";
import type { FileEntry } from "./session-file.ts";
import { planWorkingSet, type WorkingSetPlan } from "./working-set.ts";
import { type WindowView, type WorkingSetFigures, WorkingSetTally, windowView } from "./working-set-tally.ts";

/** Fresh tokens a recall adds: the search and peek calls and what they bring back. */
export const RECALL_FRESH_TOKENS = 3_000;
/** Output tokens a recall's two calls take. */
export const RECALL_OUTPUT_TOKENS = 120;
/** Requests a recall adds, each reading the prompt from cache (a search, a peek). */
export const RECALL_REQUESTS = 2;

export type { WorkingSetFigures } from "./working-set-tally.ts";

export interface Fidelity {
	/** pi-fold's windows, as the replay sent them. */
	readonly pifold: WorkingSetFigures;
	/** The session's windows as it ran (its native compactions, and context edits if it ran pi-fold): the noise floor. */
	readonly asRan: WorkingSetFigures;
	readonly recalls: {
		/** pi-fold's requests that lacked a fact (as `pifold.recalls`), each priced as one recall. */
		readonly requests: number;
		readonly cost: number;
		/** pi-fold's total (requests and briefs) with the recalls. */
		readonly total: number;
		/** The session as it ran, estimated the same way: the estimator check's requests and the summary requests. */
		readonly asRan: number;
		/** pi-fold's total over `asRan`, with the recalls and without (null when `asRan` is 0). */
		readonly ratio: number | null;
		readonly ratioWithout: number | null;
	};
}

/** Dollars of one recall made at a request whose prompt is `prompt` tokens. */
export function recallCost(prompt: number, price: Pricing): number {
	const r = ratesAt(price.prices, prompt);
	const read = RECALL_REQUESTS * prompt * r.cacheRead;
	return (read + RECALL_FRESH_TOKENS * r[price.fresh] + RECALL_OUTPUT_TOKENS * r.output) / 1_000_000;
}

/** Watches one window series: `observe(at, entries)` at each request, before the reply at `at`. */
function watchWindows(
	plan: WorkingSetPlan,
	messages: readonly ReplayMessage[],
	originalOf: (entry: SimEntry) => number | undefined,
) {
	const tally = new WorkingSetTally(plan, messages);
	return {
		observe(at: number, entries: readonly SimEntry[]): WindowView {
			const view = windowView(entries, originalOf);
			tally.observe(at, view);
			return view;
		},
		figures: () => tally.figures(),
	};
}

/**
 * The two window series of a replay of `messages` (from `branch`): pi-fold's, where an original is
 * the replayed message object itself (a recall's search result sent in place of a reread is not),
 * and the session's as it ran, where an original is an entry of the file's that the replay also sends.
 */
export function watchFidelity(branch: readonly FileEntry[], messages: readonly ReplayMessage[], systemPrompt: string) {
	const at = new Map<string, number>();
	const replies = new Map<number, number>();
	messages.forEach((m, i) => {
		if (m.id !== undefined) at.set(m.id, i);
		if (m.message.role === "assistant") replies.set(i, replies.size + 1);
	});
	const users = new Set(branch.flatMap((e) => (e.type === "message" && e.message.role === "user" ? [e.id] : [])));
	const plan = planWorkingSet(messages, systemPrompt, (i) => users.has(messages[i]?.id ?? ""));
	const pifold = watchWindows(plan, messages, (entry) => {
		const i = entry.type === "message" ? at.get(entry.id) : undefined;
		return i !== undefined && messages[i]?.message === (entry as { message?: unknown }).message ? i : undefined;
	});
	const asRan = watchWindows(plan, messages, (entry) =>
		entry.type === "message" || entry.type === "custom_message" ? at.get(entry.id) : undefined,
	);
	return {
		plan,
		pifold,
		asRan,
		/** A replayed message's index, by its entry id. */
		indexOf: (id: string) => at.get(id),
		/** The reply (1-based, as in the session) at a replayed message's index. */
		replyOf: (i: number) => replies.get(i) ?? 0,
	};
}

/** The fidelity figures and the recalls' bill: `requests` are pi-fold's own (peeks left out), `total` its total. */
export function fidelityOf(
	pifold: WorkingSetFigures,
	asRan: WorkingSetFigures,
	requests: readonly EstimatedRequest[],
	price: Pricing,
	totals: { readonly pifold: number; readonly asRan: number },
): Fidelity {
	const prompt = new Map<number, number>();
	for (const r of requests) if (!prompt.has(r.reply)) prompt.set(r.reply, r.prompt);
	const cost = pifold.recalls.reduce((n, reply) => n + recallCost(prompt.get(reply) ?? 0, price), 0);
	const total = totals.pifold + cost;
	const over = (x: number) => (totals.asRan > 0 ? x / totals.asRan : null);
	return {
		pifold,
		asRan,
		recalls: {
			requests: pifold.recalls.length,
			cost,
			total,
			asRan: totals.asRan,
			ratio: over(total),
			ratioWithout: over(totals.pifold),
		},
	};
}
