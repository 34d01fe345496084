// The provider-window fence: before a request leaves, a request larger than the serving budget is
// aborted when no lossless fold can make room, and the human is told out of band. Pure arithmetic;
// the adapter aborts and notifies.

import type { ServingBudget } from "./budget.ts";

export interface FenceVerdict {
	readonly abort: boolean;
	readonly message: string | null;
}

/**
 * `requestTokens`: estimated size of the request about to be sent. `reclaimableTokens`: what the
 * folds that could still land before it would free (0 inside a request: folds land at boundaries).
 */
export function fence(requestTokens: number, reclaimableTokens: number, budget: ServingBudget): FenceVerdict {
	if (requestTokens <= budget.budgetTokens) return { abort: false, message: null };
	if (requestTokens - reclaimableTokens <= budget.budgetTokens) return { abort: false, message: null };
	return {
		abort: true,
		message: `request of ~${Math.round(requestTokens).toLocaleString("en-US")} tokens exceeds the serving budget of ${budget.budgetTokens.toLocaleString("en-US")} (window ${budget.totalWindow.toLocaleString("en-US")} less ${budget.outputReservation.toLocaleString("en-US")} reserved for output) and no lossless fold can make room; aborted before transmission`,
	};
}
