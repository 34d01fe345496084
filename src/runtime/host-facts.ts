// What the decision core reads of the host beside the branch (src/policy calibration.ts
// `HostFacts`): the session model's prices, the brief writer's when it is another model, the
// provider cache's lifetime and the time now. Read once per boundary, as plain values. Pure over the
// host's answers.

import type { HostFacts } from "../policy/index.ts";
import type { Host } from "./ports.ts";

/** The host's facts for one boundary's decision. */
export function hostFacts(host: Pick<Host, "model" | "briefModel" | "now">): HostFacts {
	const model = host.model();
	return {
		modelCost: model?.cost,
		briefModelCost: host.briefModel?.()?.cost,
		cacheTtlMs: model?.cacheTtlMs,
		now: host.now(),
	};
}
