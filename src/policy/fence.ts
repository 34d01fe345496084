// The provider-window fence: the last check before a request leaves. Folds land only at boundaries,
// and the boundary before already folded everything it could (the rescue included), so a request
// still over the serving budget goes on to the host's native compaction (the provider's overflow,
// which Pi's compaction recovers from). Only a request whose newest, indivisible unit is by itself
// larger than the whole window is stopped, because nothing can make room for it: the verdict names
// the unit and says what to do. When the host does not compact on its own (Pi's compaction off), a
// request larger than the whole window is stopped too: the provider would reject it and nothing
// would recover, so it is refused before sending, naming the newest unit and what to do. Pure
// arithmetic; the adapter aborts and notifies.

import type { ServingBudget } from "./budget.ts";

export interface FenceVerdict {
	/** Stop the request before transmission. */
	readonly abort: boolean;
	/** Over the serving budget: the host's native compaction is the remaining resort. */
	readonly overBudget: boolean;
	readonly message: string | null;
}

export interface FenceInput {
	/** Estimated tokens of the request about to be sent. */
	readonly requestTokens: number;
	/** Estimated tokens of its newest unit (the last user message, or the last tool call and its results). */
	readonly newestUnitTokens: number;
	/** What names that unit for a person ("the read result of call_7", "the user message"). */
	readonly newestUnitName: string;
	readonly budget: ServingBudget;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export function fence(input: FenceInput): FenceVerdict {
	const { requestTokens, budget } = input;
	if (requestTokens <= budget.budgetTokens) return { abort: false, overBudget: false, message: null };
	if (input.newestUnitTokens > budget.totalWindow)
		return {
			abort: true,
			overBudget: true,
			message: `${input.newestUnitName}: ~${fmt(input.newestUnitTokens)} tokens by itself, larger than the whole ${fmt(budget.totalWindow)}-token window, so neither a fold nor a compaction can make room; aborted before transmission. Make it smaller (read a range of the file, narrow the command's output) and try again`,
		};
	if (requestTokens > budget.totalWindow && budget.hostCompacts === false)
		return {
			abort: true,
			overBudget: true,
			message: `the request of ~${fmt(requestTokens)} tokens is larger than the whole ${fmt(budget.totalWindow)}-token window after every lossless fold (${input.newestUnitName}: ~${fmt(input.newestUnitTokens)} tokens), and Pi's compaction is off, so the provider would reject it; refused before sending. Run /compact, or turn Pi's compaction on, and try again`,
		};
	return {
		abort: false,
		overBudget: true,
		message: `the request of ~${fmt(requestTokens)} tokens is over the serving budget of ${fmt(budget.budgetTokens)} (window ${fmt(budget.totalWindow)} less ${fmt(budget.outputReservation)} kept for the reply) after every lossless fold; ${budget.hostCompacts === false ? "it still fits the window, so it is sent" : "Pi's native compaction takes over"}`,
	};
}
