// The serving budget and occupancy: the total window less the output reservation actually in force.
// The per-request max-input descriptor a provider advertises assumes a full reservation and
// understates the real ceiling, so `providerTotalWindow` wins when supplied; otherwise the
// transport's descriptor (the model's contextWindow) is the honest default. Both are reported.
// `budgetFor` reads a model's window and output cap (Pi's `Model` read structurally). Pure.

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

/** Used when the host has no model yet (no request can be sent then anyway). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/** What the budget reads of a model: its context window and output cap (Pi's `Model` fits). */
export interface ModelWindow {
	readonly contextWindow?: number | undefined;
	readonly maxTokens?: number | undefined;
}

/**
 * The serving budget of `model`: the total window (`providerTotalWindow`, else the model's
 * contextWindow) less the output reservation every request makes (the model's maxTokens).
 */
export function budgetFor(model: ModelWindow | undefined, providerTotalWindow: number | undefined): ServingBudget {
	const descriptor = model?.contextWindow && model.contextWindow > 0 ? model.contextWindow : FALLBACK_CONTEXT_WINDOW;
	return servingBudget({
		providerTotalWindow,
		descriptorWindow: descriptor,
		outputReservation: Math.max(0, model?.maxTokens ?? 0),
	});
}
