// One request about to be sent, as the provider is sent it (the host's system head, which carries
// the prompt and the tool schemas, then every message): the fence's verdict (recorded when it
// aborts); for a request that goes, the window observer's classification and the session meter's
// reading. Never changes the messages. One digest per message serves the estimate cache and the
// observer. The runtime's `request` hands in its parts; in-memory only.

import type { FenceVerdict, ServingBudget } from "../policy/index.ts";
import type { RequestObservation } from "../projection/index.ts";
import type { SessionMeter } from "./meter.ts";
import type { RequestEstimator } from "./request-estimate.ts";
import type { Telemetry } from "./telemetry.ts";

/** What moved the window since the last request: commits (by sequence) and the host's compactions. */
export interface WindowMoves {
	readonly commitSeq: number;
	readonly compactions: number;
}

/** The request `messages` under `budget`, read by the runtime's telemetry, estimator and meter. */
export function watchRequest(
	parts: { readonly telemetry: Telemetry; readonly estimator: RequestEstimator; readonly meter: SessionMeter },
	messages: readonly unknown[],
	request: { readonly systemPrompt: string; readonly budget: ServingBudget; readonly now: () => number },
	moves: () => WindowMoves,
): { verdict: FenceVerdict; observation: RequestObservation | null } {
	const { telemetry, estimator, meter } = parts;
	const digests = telemetry.digests(messages);
	const { verdict, size } = estimator.fence(messages, digests, request.systemPrompt, meter.calibration, request.budget);
	if (verdict.message) telemetry.recordFence(verdict.message, verdict.abort);
	if (verdict.abort) return { verdict, observation: null };
	// A rewrite is attributed to what moved the window: a commit (from its first edit on), or a native compaction.
	const observation = telemetry.observe(messages, moves(), digests);
	meter.onRequest(size.messages, size.messages + size.system, observation.kind === "append", request.now());
	return { verdict, observation };
}
