// The replay's requests in the session's tokens and dollars: each simulated request put in the
// session's tokens by the calibration (replay-calibration.ts) and priced at the tier its prompt falls
// in, with the recorded output of the reply it produced; and the peek request each recalled reread
// leads to (replay-rereads.ts), billed as a request of its own. Pure arithmetic.

import { ratesAt } from "../policy/index.ts";
import type { SimRequest } from "../simulate/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import type { NativeFigures, Prices, promptOf } from "./recorded-session.ts";
import { type Calibration, calibratedBill } from "./replay-calibration.ts";

/** One request of the pi-fold replay, in the session's tokens. */
export interface EstimatedRequest {
	/** Ordinal of the assistant reply it produced (1-based, as in the session). */
	readonly reply: number;
	readonly prompt: number;
	readonly fresh: number;
	readonly cacheRead: number;
	readonly output: number;
	readonly cost: number;
}

/** The rate fresh prompt tokens bill at: cache writes when the session mostly wrote the cache, else input. */
type FreshRate = "cacheWrite" | "input";
/** The prices, and the rate fresh prompt tokens are billed at. */
export type Pricing = { readonly prices: Prices; readonly fresh: FreshRate };

export function freshRate(native: NativeFigures): FreshRate {
	return native.requests.cacheWrite > native.requests.input ? "cacheWrite" : "input";
}

/** Dollars of one request, at the tier its prompt (fresh and cache read) falls in. */
export function costOf(fresh: number, cacheRead: number, output: number, prices: Prices, rate: FreshRate): number {
	const r = ratesAt(prices, fresh + cacheRead);
	return (fresh * r[rate] + cacheRead * r.cacheRead + output * r.output) / 1_000_000;
}

/** Each assistant message's ordinal among the replies (1-based, as in the session), by its index. */
function replyOrdinals(messages: readonly { message: TranscriptMessage }[]): Map<number, number> {
	const out = new Map<number, number>();
	let n = 0;
	messages.forEach((m, i) => {
		if (m.message.role === "assistant") out.set(i, ++n);
	});
	return out;
}

/** The replay's requests in the session's tokens, with the recorded output of the reply each produced. */
export function estimated(
	requests: readonly SimRequest[],
	messages: readonly { message: TranscriptMessage }[],
	calibration: Calibration,
	prices: Prices,
	rate: FreshRate,
): EstimatedRequest[] {
	const replyOrdinal = replyOrdinals(messages);
	return requests
		.filter((r) => !r.fenced)
		.map((r) => {
			const reply = messages[r.at]?.message as { usage?: Parameters<typeof promptOf>[0] } | undefined;
			const usage = reply?.usage;
			const output = usage?.output ?? 0;
			const { prompt, fresh, cacheRead } = calibratedBill(calibration, r);
			return {
				reply: replyOrdinal.get(r.at) ?? 0,
				prompt,
				fresh,
				cacheRead,
				output,
				cost: costOf(fresh, cacheRead, output, prices, rate),
			};
		});
}

/**
 * The peek request each recalled reread leads to (replay-rereads.ts), in the session's tokens: sent
 * just before the request that followed the reread, it reads that request's whole prompt from cache
 * and writes the peek call; the call and the peek's result are fresh in the request after it.
 */
export function peekRequests<M extends { message: TranscriptMessage }>(
	followUps: ReadonlyMap<M, { readonly call: number; readonly result: number }>,
	messages: readonly M[],
	requests: readonly SimRequest[],
	calibration: Calibration,
	price: Pricing,
): EstimatedRequest[] {
	const live = requests.filter((r) => !r.fenced);
	const ordinals = replyOrdinals(messages);
	const tokens = (chars: number) => (calibration.slope * chars) / 4;
	return messages.flatMap((m, i) => {
		const peek = followUps.get(m);
		const next = peek ? live.find((r) => r.at > i) : undefined;
		if (!peek || !next) return [];
		const cacheRead = calibratedBill(calibration, next).prompt;
		const fresh = tokens(peek.call + peek.result);
		const output = Math.round(tokens(peek.call));
		const reply = ordinals.get(next.at) ?? 0;
		const cost = costOf(fresh, cacheRead, output, price.prices, price.fresh);
		return [{ reply, prompt: cacheRead + fresh, fresh, cacheRead, output, cost }];
	});
}
