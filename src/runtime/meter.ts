// What the cost policy measures of a live session, from the requests it observes: how fast the
// window grows (estimated tokens appended per request, smoothed over pure appends), how the
// provider counts a request against pi-fold's estimate of it (a fixed overhead such as the tool
// definitions, plus a rate per estimated token), and when the last request left with how many
// tokens. The rate is the marginal one, measured on what pure appends added (the provider's tokens
// over the estimate's, summed over recent appends), and the overhead what the recent requests
// leave over at that rate: a least-squares line over requests whose sizes spread little trades its
// slope for its intercept (a rate of 1.1 and an overhead of -7,000 tokens, where the tools are
// +1,700), and a commit's rewrite is priced at the rate. Before any append it is least squares,
// and the provider may count up to the top of the rate's range (rateBound, for what must fit
// whatever the rate). Not durable: it restarts with the session. Pure in-memory.

import type { Calibration, MeterReading } from "../policy/index.ts";

/** Weight of the newest sample in the growth average. */
const METER_SMOOTHING = 0.3;
/** Requests the calibration is fitted over (the newest). */
const CALIBRATION_SAMPLES = 16;
/** The fitted rate stays within this range (an estimator far off is a bug, not a calibration). */
export const CALIBRATION_RANGE: readonly [number, number] = [0.5, 2];
/** Estimates must spread by this share of their mean before a rate is fitted (else: overhead only). */
const MIN_SPREAD = 0.1;

const UNCALIBRATED: Calibration = { overhead: 0, rate: 1 };

/** Estimated tokens pure appends must have added, summed, before their rate is used. */
const MIN_APPENDED_TOKENS = 2_000;

/** The provider's tokens per estimated token over what pure appends added, once they add MIN_APPENDED_TOKENS; else null. */
function appendedRate(appends: readonly (readonly [number, number])[]): number | null {
	const addedE = appends.reduce((s, [e]) => s + e, 0);
	const addedP = appends.reduce((s, [, p]) => s + p, 0);
	return addedE >= MIN_APPENDED_TOKENS && addedP > 0 ? addedP / addedE : null;
}

/**
 * The calibration over (estimate, provider) pairs: with `appends` ((estimate, provider) tokens that
 * pure appends added) summing to MIN_APPENDED_TOKENS, their rate and the overhead the pairs leave at
 * it; else least squares, the rate clamped, overhead only when estimates barely spread.
 */
export function fitCalibration(
	samples: readonly (readonly [number, number])[],
	appends: readonly (readonly [number, number])[] = [],
): Calibration {
	if (samples.length === 0) return UNCALIBRATED;
	const appended = appendedRate(appends);
	if (appended !== null) {
		const [lo, hi] = CALIBRATION_RANGE;
		const rate = Math.min(hi, Math.max(lo, appended));
		const overhead = samples.reduce((s, [e, p]) => s + p - rate * e, 0) / samples.length;
		return { overhead, rate };
	}
	const n = samples.length;
	const meanE = samples.reduce((s, [e]) => s + e, 0) / n;
	const meanP = samples.reduce((s, [, p]) => s + p, 0) / n;
	const spread = Math.max(...samples.map(([e]) => e)) - Math.min(...samples.map(([e]) => e));
	if (n < 2 || spread < MIN_SPREAD * meanE) return { overhead: meanP - meanE, rate: 1 };
	let cov = 0;
	let varE = 0;
	for (const [e, p] of samples) {
		cov += (e - meanE) * (p - meanP);
		varE += (e - meanE) ** 2;
	}
	const [lo, hi] = CALIBRATION_RANGE;
	const rate = Math.min(hi, Math.max(lo, cov / varE));
	return { overhead: meanP - rate * meanE, rate };
}

export class SessionMeter implements MeterReading {
	private growth: number | null = null;
	private samples: [number, number][] = [];
	/** What each recent pure append added: (estimated, provider) tokens. */
	private appends: [number, number][] = [];
	/** The last request's (estimate, provider) pair, once its usage came; and the one before a pure append. */
	private lastSample: [number, number] | null = null;
	private appendedTo: [number, number] | null = null;
	private fitted: Calibration = UNCALIBRATED;
	private lastTokens: number | null = null;
	private lastEstimate: number | null = null;
	private lastAt: number | null = null;

	/**
	 * A request about to be sent: `messageTokens` its estimated messages, `estimate` the same with the
	 * system prompt (what the provider bills), `appended` whether it extends the previous request.
	 */
	onRequest(messageTokens: number, estimate: number, appended: boolean, now: number): void {
		if (appended && this.lastTokens !== null)
			this.growth = smooth(this.growth, Math.max(0, messageTokens - this.lastTokens));
		this.lastTokens = messageTokens;
		this.lastEstimate = estimate;
		this.lastAt = now;
		this.appendedTo = appended ? this.lastSample : null;
		this.lastSample = null;
	}

	/** The provider's prompt tokens for the last request (input + cache read + cache write). */
	onUsage(promptTokens: number): void {
		if (this.lastEstimate === null || this.lastEstimate <= 0 || promptTokens <= 0) return;
		const sample: [number, number] = [this.lastEstimate, promptTokens];
		this.samples.push(sample);
		if (this.samples.length > CALIBRATION_SAMPLES) this.samples.shift();
		const before = this.appendedTo;
		if (before && sample[0] > before[0] && sample[1] > before[1]) {
			this.appends.push([sample[0] - before[0], sample[1] - before[1]]);
			if (this.appends.length > CALIBRATION_SAMPLES) this.appends.shift();
		}
		this.appendedTo = null;
		this.lastSample = sample;
		this.fitted = fitCalibration(this.samples, this.appends);
	}

	/** Estimated tokens the window grows per request, or `fallback` before any measurement. */
	growthTokens(fallback: number): number {
		return this.growth ?? fallback;
	}

	/** How the provider counts a request against pi-fold's estimate (no offset, rate 1 until measured). */
	get calibration(): Calibration {
		return this.fitted;
	}

	/**
	 * How many times the calibration's rate the provider may count per estimated token: 1 once pure
	 * appends measured the rate (MIN_APPENDED_TOKENS); before that the rate is a guess (1, or a
	 * least-squares line over a request or two), and the provider may count anything up to
	 * CALIBRATION_RANGE's top (an estimator further off is a bug): the faux provider's characters / 4
	 * is 1.27 of the estimate on the synthetic sessions' text. What must fit whatever the rate reads this.
	 */
	get rateBound(): number {
		if (appendedRate(this.appends) !== null) return 1;
		return Math.max(1, CALIBRATION_RANGE[1] / this.fitted.rate);
	}

	/** Estimated message tokens of the last request sent (null before the first). */
	get lastRequestTokens(): number | null {
		return this.lastTokens;
	}

	/** When the last request left (null before the first). */
	get lastRequestAt(): number | null {
		return this.lastAt;
	}
}

function smooth(previous: number | null, sample: number): number {
	return previous === null ? sample : previous + METER_SMOOTHING * (sample - previous);
}
