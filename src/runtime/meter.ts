// What the cost policy measures of a live session, from the requests it observes: how fast the
// window grows (estimated tokens appended per request, smoothed over pure appends), how many
// provider tokens one estimated token is (the provider's reported prompt over pi-fold's estimate of
// the same request, smoothed), and when the last request left with how many tokens. Not durable: it
// restarts with the session. Pure in-memory.

/** Weight of the newest sample in the growth and calibration averages. */
export const METER_SMOOTHING = 0.3;
/** Calibration stays within this range of 1 (an estimator far off is a bug, not a calibration). */
export const CALIBRATION_RANGE: readonly [number, number] = [0.5, 2];

export class SessionMeter {
	private growth: number | null = null;
	private ratio: number | null = null;
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
	}

	/** The provider's prompt tokens for the last request (input + cache read + cache write). */
	onUsage(promptTokens: number): void {
		if (this.lastEstimate === null || this.lastEstimate <= 0 || promptTokens <= 0) return;
		const [lo, hi] = CALIBRATION_RANGE;
		this.ratio = smooth(this.ratio, Math.min(hi, Math.max(lo, promptTokens / this.lastEstimate)));
	}

	/** Estimated tokens the window grows per request, or `fallback` before any measurement. */
	growthTokens(fallback: number): number {
		return this.growth ?? fallback;
	}

	/** Provider tokens per estimated token (1 until measured). */
	get calibration(): number {
		return this.ratio ?? 1;
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
