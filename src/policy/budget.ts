// The serving budget and occupancy: the total window less the output reservation actually in force.
// The per-request max-input descriptor a provider advertises assumes a full reservation and
// understates the real ceiling, so `providerTotalWindow` wins when supplied; otherwise the
// transport's descriptor (the model's contextWindow) is the honest default. Both are reported.
//
// The reservation in force is not the model's whole output cap: pi-ai sizes every request's output
// (`max_tokens`) to the room its prompt leaves in the window (`clampMaxTokensToContext`, in the
// shared options of every API it speaks), so a request reserves only what a reply needs at least.
// That is the room Pi itself keeps (its compaction `reserveTokens`, 16,384 by default, which also
// covers pi-ai's 4,096-token counting margin), or the model's output cap when that is smaller. The
// budget is therefore never tighter than Pi's own compaction threshold (window less reserveTokens).
// `budgetFor` reads a model's window, output cap and Pi's reserve (Pi's `Model` read structurally). Pure.

export interface BudgetInput {
	/** `providerTotalWindow` option, when the deployment knows the real ceiling. */
	readonly providerTotalWindow?: number | undefined;
	/** The transport's descriptor: the model's context window in tokens. */
	readonly descriptorWindow: number;
	/** Output tokens reserved for the response on each request (the reservation in force). */
	readonly outputReservation: number;
	/** Where the reservation comes from (default "given": a caller that states it outright). */
	readonly reservationFrom?: ReservationSource | undefined;
	/** The host's own reserve (Pi's compaction reserveTokens), when known: its threshold is reported. */
	readonly hostReserve?: number | undefined;
	/** The model's output cap (its catalog maxTokens), when known. */
	readonly outputCap?: number | undefined;
	/** Whether the host compacts on its own (Pi's compaction enabled), when known. */
	readonly hostCompaction?: boolean | undefined;
}

/**
 * Why the reservation is what it is: "reply-room" (the room a reply needs at least, Pi's reserve,
 * because pi-ai sizes each reply to the room left), "output-cap" (the model's output cap, smaller
 * than that room), "given" (stated by the caller).
 */
export type ReservationSource = "reply-room" | "output-cap" | "given";

export interface ServingBudget {
	readonly totalWindow: number;
	readonly totalWindowSource: "providerTotalWindow" | "descriptor";
	readonly descriptorWindow: number;
	readonly outputReservation: number;
	readonly reservationFrom: ReservationSource;
	/** The model's output cap (catalog maxTokens), or null when unknown. */
	readonly outputCap: number | null;
	/** The room the host keeps for a reply (Pi's compaction reserveTokens), or null when not known. */
	readonly hostReserve: number | null;
	/** Where the host compacts on its own (descriptor less its reserve), or null when not known. */
	readonly hostThreshold: number | null;
	/** Whether the host compacts on its own when a request nears or overflows the window (null: not known). */
	readonly hostCompacts: boolean | null;
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
		reservationFrom: input.reservationFrom ?? "given",
		outputCap: input.outputCap ?? null,
		hostReserve: input.hostReserve ?? null,
		hostThreshold: input.hostReserve === undefined ? null : input.descriptorWindow - input.hostReserve,
		hostCompacts: input.hostCompaction ?? null,
		budgetTokens: Math.max(1, totalWindow - reservation),
	};
}

/** Share of the budget `tokens` occupies (may exceed 1). */
export function occupancy(tokens: number, budget: ServingBudget): number {
	return tokens / budget.budgetTokens;
}

/** Used when the host has no model yet (no request can be sent then anyway). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/** The room Pi keeps for a reply when its settings say nothing else (Pi's default `compaction.reserveTokens`). */
export const PI_RESERVE_TOKENS = 16_384;

/** What the budget reads of a model: its context window and output cap (Pi's `Model` fits), and Pi's reserve. */
export interface ModelWindow {
	readonly contextWindow?: number | undefined;
	readonly maxTokens?: number | undefined;
	/** The room the host keeps for a reply (Pi's compaction reserveTokens for this model); default PI_RESERVE_TOKENS. */
	readonly replyReserve?: number | undefined;
	/** Whether the host compacts on its own (Pi's `compaction.enabled`), when known. */
	readonly hostCompaction?: boolean | undefined;
}

/**
 * The serving budget of `model`: the total window (`providerTotalWindow`, else the model's
 * contextWindow) less the output reservation a request actually makes: the room a reply needs
 * (Pi's reserve), or the model's output cap when that is smaller.
 */
export function budgetFor(model: ModelWindow | undefined, providerTotalWindow: number | undefined): ServingBudget {
	const descriptor = model?.contextWindow && model.contextWindow > 0 ? model.contextWindow : FALLBACK_CONTEXT_WINDOW;
	const reserve = Math.max(0, model?.replyReserve ?? PI_RESERVE_TOKENS);
	const cap = model?.maxTokens && model.maxTokens > 0 ? model.maxTokens : undefined;
	const capBinds = cap !== undefined && cap < reserve;
	return servingBudget({
		providerTotalWindow,
		descriptorWindow: descriptor,
		outputReservation: capBinds ? cap : reserve,
		reservationFrom: capBinds ? "output-cap" : "reply-room",
		hostReserve: reserve,
		outputCap: cap,
		hostCompaction: model?.hostCompaction,
	});
}
