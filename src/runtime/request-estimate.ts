// The provider-window fence's measurement: the estimated size of the request about to be sent,
// cheaply. Between commits every request is the previous one plus appended messages, so a message
// whose digest is unchanged reuses the previous request's estimate and only new messages are
// estimated (the digests are the window observer's, computed once per request). The verdict is
// src/policy `fence`, read in the provider's tokens (the session meter's calibration); the host
// adapter aborts the request and tells the human. Also the occupancy a boundary's scheduler reads.
// Pure in-memory.

import {
	type Calibration,
	type FenceVerdict,
	fence,
	type Occupancy,
	requestMessageTokens,
	type ServingBudget,
} from "../policy/index.ts";
import { estimateTokens } from "../wasm/index.ts";

/** What the fence read of one request: its verdict, its estimated size, its messages less system ones. */
export interface FencedRequest {
	readonly verdict: FenceVerdict;
	readonly size: { readonly messages: number; readonly system: number; readonly newestUnit: number };
}

/** Per-message estimates of the last request, by message digest, and the last system prompt's. */
export class RequestEstimator {
	private byDigest = new Map<string, number>();
	private system = "";
	private systemTokens = 0;

	/** Estimated tokens of `systemPrompt` (estimated once per distinct prompt). */
	systemTokensOf(systemPrompt: string): number {
		if (systemPrompt !== this.system) {
			this.system = systemPrompt;
			this.systemTokens = estimateTokens(systemPrompt);
		}
		return this.systemTokens;
	}

	/** Estimated tokens of `messages` (with their digests) and of `systemPrompt`. */
	estimate(
		messages: readonly unknown[],
		digests: readonly Uint8Array[],
		systemPrompt: string,
	): { messages: number; system: number; newestUnit: number } {
		const next = new Map<string, number>();
		const each: number[] = [];
		let total = 0;
		messages.forEach((message, i) => {
			const key = Buffer.from(digests[i] as Uint8Array).toString("hex");
			const tokens = next.get(key) ?? this.byDigest.get(key) ?? requestMessageTokens([message]);
			next.set(key, tokens);
			each.push(tokens);
			total += tokens;
		});
		this.systemTokensOf(systemPrompt);
		this.byDigest = next;
		const start = newestUnitStart(messages);
		const newestUnit = each.slice(start).reduce((sum, t) => sum + t, 0);
		return { messages: total, system: this.systemTokens, newestUnit };
	}

	/** The fence's verdict on `messages` (system messages skipped; `digests` index-aligned), in the provider's tokens. */
	fence(
		messages: readonly unknown[],
		digests: readonly Uint8Array[],
		systemPrompt: string,
		calibration: Calibration,
		budget: ServingBudget,
	): FencedRequest {
		const conversation: unknown[] = [];
		const conversationDigests: Uint8Array[] = [];
		messages.forEach((message, i) => {
			if ((message as { role?: unknown } | null)?.role === "system") return;
			conversation.push(message);
			conversationDigests.push(digests[i] as Uint8Array);
		});
		const size = this.estimate(conversation, conversationDigests, systemPrompt);
		const { overhead, rate } = calibration;
		const verdict = fence({
			requestTokens: overhead + (size.messages + size.system) * rate,
			newestUnitTokens: size.newestUnit * rate,
			newestUnitName: newestUnitName(conversation),
			budget,
		});
		return { verdict, size };
	}

	/**
	 * The estimated size of the next request: the boundary preview's messages (or their estimated
	 * tokens, counted the same way) and the system prompt (the whole request the provider bills) when
	 * given, else the host's own estimate.
	 */
	occupancy(
		systemPrompt: string,
		nextRequest: readonly unknown[] | number | undefined,
		hostTokens: number | null,
	): Occupancy {
		if (nextRequest !== undefined) {
			const systemTokens = this.systemTokensOf(systemPrompt);
			const messages = typeof nextRequest === "number" ? nextRequest : requestMessageTokens(nextRequest);
			const tokens = messages + systemTokens;
			return { tokens, systemTokens, source: "pi-fold's estimate of the next request" };
		}
		return hostTokens === null
			? { tokens: 0, source: "unknown" }
			: { tokens: hostTokens, source: "the host's context estimate" };
	}
}

/** Roles that belong to the unit before them: a call's results, and custom messages (pi-fold's own receipt). */
const TRAILING_ROLES = new Set(["toolResult", "custom"]);

/**
 * Index where the newest indivisible unit starts: the last message that is neither a tool result
 * nor a custom message. A commit's receipt (a custom message) lands right after the turn's
 * results, so it must not hide the tool batch before it from the fence; nor may another
 * extension's custom message.
 */
export function newestUnitStart(messages: readonly unknown[]): number {
	for (let i = messages.length - 1; i >= 0; i--)
		if (!TRAILING_ROLES.has((messages[i] as { role?: string } | null)?.role ?? "")) return i;
	return 0;
}

/** A person's name for the newest unit of a request: "one batch of 60 results of probe", "the result of read". */
export function newestUnitName(messages: readonly unknown[]): string {
	const start = newestUnitStart(messages);
	const first = messages[start] as { role?: string; content?: unknown } | undefined;
	if (first?.role !== "assistant") return "the newest message";
	const calls = Array.isArray(first.content)
		? (first.content as { type?: string; name?: string }[]).filter((b) => b.type === "toolCall").map((b) => b.name)
		: [];
	if (calls.length === 0) return "the newest reply";
	const tools = [...new Set(calls)].join(", ");
	return calls.length === 1 ? `the result of ${tools}` : `one batch of ${calls.length} results of ${tools}`;
}
