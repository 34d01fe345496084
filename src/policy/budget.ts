// The serving budget and occupancy: the total window less the output reservation actually in force.
// The per-request max-input descriptor a provider advertises assumes a full reservation and
// understates the real ceiling, so `providerTotalWindow` wins when supplied; otherwise the
// transport's descriptor (the model's contextWindow) is the honest default. Both are reported.
// Pure.

export interface BudgetInput {
	/** `providerTotalWindow` option, when the deployment knows the real ceiling. */
	readonly providerTotalWindow?: number | undefined;
	/** The transport's descriptor: the model's context window in tokens. */
	readonly descriptorWindow: number;
	/** Output tokens reserved for the response on each request (the reservation in force). */
	readonly outputReservation: number;
}

export interface ServingBudget {
	readonly totalWindow: number;
	readonly totalWindowSource: "providerTotalWindow" | "descriptor";
	readonly descriptorWindow: number;
	readonly outputReservation: number;
	/** Tokens a request may hold: total window minus the output reservation (at least 1). */
	readonly budgetTokens: number;
}

export function servingBudget(input: BudgetInput): ServingBudget {
	const supplied = input.providerTotalWindow !== undefined;
	const totalWindow = supplied ? (input.providerTotalWindow as number) : input.descriptorWindow;
	const reservation = Math.max(0, Math.min(input.outputReservation, totalWindow - 1));
	return {
		totalWindow,
		totalWindowSource: supplied ? "providerTotalWindow" : "descriptor",
		descriptorWindow: input.descriptorWindow,
		outputReservation: reservation,
		budgetTokens: Math.max(1, totalWindow - reservation),
	};
}

/** Share of the budget `tokens` occupies (may exceed 1). */
export function occupancy(tokens: number, budget: ServingBudget): number {
	return tokens / budget.budgetTokens;
}
