// The serving budget of the session's model, as src/policy computes it: the total serving window
// (providerTotalWindow, else the transport's descriptor, the model's contextWindow) less the output
// reservation in force (the model's maxTokens, which every request reserves). Status reports the
// descriptor and the total either way; the scheduler, the ladder and the fence read the same numbers.
// Pure adapter from Pi's model to the policy layer.

import { type ServingBudget, servingBudget } from "../policy/index.ts";

export type { ServingBudget };

/** Used when Pi has no model yet (no request can be sent then anyway). */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

export function budgetFor(
	model: { contextWindow?: number; maxTokens?: number } | undefined,
	providerTotalWindow: number | undefined,
): ServingBudget {
	const descriptor = model?.contextWindow && model.contextWindow > 0 ? model.contextWindow : FALLBACK_CONTEXT_WINDOW;
	return servingBudget({
		providerTotalWindow,
		descriptorWindow: descriptor,
		outputReservation: Math.max(0, model?.maxTokens ?? 0),
	});
}
