// The provider-window fence's measurement: the estimated size of the request about to be sent,
// cheaply. Between commits every request is the previous one plus appended messages, so a message
// whose digest is unchanged reuses the previous request's estimate and only new messages are
// estimated (the digests are the window observer's, computed once per request). The verdict is
// src/policy `fence`; the host adapter aborts the request and tells the human. Pure in-memory.

import { requestMessageTokens } from "../policy/index.ts";
import { estimateTokens } from "../wasm/index.ts";

/** Per-message estimates of the last request, by message digest, and the last system prompt's. */
export class RequestEstimator {
	private byDigest = new Map<string, number>();
	private system = "";
	private systemTokens = 0;

	/** Estimated tokens of `messages` (with their digests) and of `systemPrompt`. */
	estimate(
		messages: readonly unknown[],
		digests: readonly Uint8Array[],
		systemPrompt: string,
	): { messages: number; system: number } {
		const next = new Map<string, number>();
		let total = 0;
		messages.forEach((message, i) => {
			const key = Buffer.from(digests[i] as Uint8Array).toString("hex");
			const tokens = next.get(key) ?? this.byDigest.get(key) ?? requestMessageTokens([message]);
			next.set(key, tokens);
			total += tokens;
		});
		if (systemPrompt !== this.system) {
			this.system = systemPrompt;
			this.systemTokens = estimateTokens(systemPrompt);
		}
		this.byDigest = next;
		return { messages: total, system: this.systemTokens };
	}
}
