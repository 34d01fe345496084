// The ledger: one record per provider request (usage as the faux provider reported it, plus what the harness saw:
// message count, prompt characters, whether the prompt was a pure append of the previous one) and the totals and
// costs computed from those records at the spec's price table. Pure functions.

/** Dollars per million tokens. Base tier, and the long-context tier applied to a whole request over the threshold. */
export const PRICES = {
	base: { input: 5.0, cacheRead: 0.5, output: 30.0 },
	long: { input: 10.0, cacheRead: 1.0, output: 45.0 },
	/** A request whose context is over this many tokens is priced at the long-context tier. */
	longContextThreshold: 272_000,
} as const;

export interface RequestRecord {
	/** 1-based sequence over every request of the arm (agent and summary requests). */
	seq: number;
	/** "agent": the session's own turn; "summary": a compaction summary request; "brief": a pi-fold brief request. */
	kind: "agent" | "summary" | "brief";
	/** Stage open when the request was sent (0 before stage 1). */
	stage: number;
	messages: number;
	/** Characters of the prompt as the provider joins it (role-prefixed messages, blank lines between). */
	chars: number;
	/** Request context in faux tokens: ceil(chars / 4). */
	context: number;
	input: number;
	cacheRead: number;
	cacheWrite: number;
	output: number;
	/** Agent requests: every message of the previous agent prompt is unchanged at the same position. Null for the first. */
	pureAppend: boolean | null;
	/** Over the window: rejected with a context-overflow error, nothing billed. */
	rejected: boolean;
	stopReason: string;
	/** Milliseconds from request to final message. */
	ms: number;
}

export interface LedgerTotals {
	requests: number;
	billedCalls: number;
	rejectedCalls: number;
	summaryCalls: number;
	/** Billed pi-fold brief requests (one per model-written fold brief). */
	briefCalls: number;
	totalTokens: number;
	freshInput: number;
	cacheRead: number;
	output: number;
	/** cacheRead / (fresh input + cacheRead) over billed requests. */
	cacheShare: number;
	peakContext: number;
	meanContext: number;
	/** Agent requests whose prompt was not a pure append of the previous one. */
	projectionRewrites: number;
	cost: number;
	flatCost: number;
	surcharge: number;
	surchargeRequests: number;
}

export function fresh(r: RequestRecord): number {
	return r.input + r.cacheWrite;
}

export function requestCost(r: RequestRecord, flat = false): number {
	if (r.rejected) return 0;
	const tier = !flat && r.context > PRICES.longContextThreshold ? PRICES.long : PRICES.base;
	return (fresh(r) * tier.input + r.cacheRead * tier.cacheRead + r.output * tier.output) / 1_000_000;
}

export function ledgerTotals(records: readonly RequestRecord[]): LedgerTotals {
	const billed = records.filter((r) => !r.rejected);
	const sum = (f: (r: RequestRecord) => number): number => billed.reduce((n, r) => n + f(r), 0);
	const freshInput = sum(fresh);
	const cacheRead = sum((r) => r.cacheRead);
	const output = sum((r) => r.output);
	const cost = sum((r) => requestCost(r));
	const flatCost = sum((r) => requestCost(r, true));
	const agent = billed.filter((r) => r.kind === "agent");
	return {
		requests: records.length,
		billedCalls: billed.length,
		rejectedCalls: records.length - billed.length,
		summaryCalls: billed.filter((r) => r.kind === "summary").length,
		briefCalls: billed.filter((r) => r.kind === "brief").length,
		totalTokens: freshInput + cacheRead + output,
		freshInput,
		cacheRead,
		output,
		cacheShare: freshInput + cacheRead === 0 ? 0 : cacheRead / (freshInput + cacheRead),
		peakContext: billed.reduce((m, r) => Math.max(m, r.context), 0),
		meanContext: agent.length === 0 ? 0 : agent.reduce((n, r) => n + r.context, 0) / agent.length,
		projectionRewrites: records.filter((r) => r.kind === "agent" && r.pureAppend === false).length,
		cost,
		flatCost,
		surcharge: cost - flatCost,
		surchargeRequests: billed.filter((r) => r.context > PRICES.longContextThreshold).length,
	};
}
