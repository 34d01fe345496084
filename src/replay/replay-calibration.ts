// From the simulator's count of a request to the session's own tokens: an intercept and a slope,
// fitted by least squares over the session's requests as it ran (the simulator's count of each,
// against the prompt tokens the file records). The slope is the tokenizer's ratio; the intercept is
// what every request carries that the file does not (the system prompt's tool schemas and the
// provider's framing), a constant a single factor misfits. A fit that would make the constant
// negative, or that has too few distinct points, falls back to the ratio alone. Pure arithmetic.

/** `recorded ≈ intercept + slope × simulated`, in tokens per request. */
export interface Calibration {
	readonly intercept: number;
	readonly slope: number;
}

/** Fits the calibration over `(simulated, recorded)` prompt sizes of the same requests. */
export function fitCalibration(
	points: readonly { readonly simulated: number; readonly recorded: number }[],
): Calibration {
	const n = points.length;
	const sx = points.reduce((s, p) => s + p.simulated, 0);
	const sy = points.reduce((s, p) => s + p.recorded, 0);
	const ratio = sx > 0 ? sy / sx : 1;
	if (n < 2) return { intercept: 0, slope: ratio };
	const mx = sx / n;
	const my = sy / n;
	let sxx = 0;
	let sxy = 0;
	for (const p of points) {
		sxx += (p.simulated - mx) ** 2;
		sxy += (p.simulated - mx) * (p.recorded - my);
	}
	if (sxx <= 0) return { intercept: 0, slope: ratio };
	const slope = sxy / sxx;
	const intercept = my - slope * mx;
	if (intercept < 0 || slope <= 0) return { intercept: 0, slope: ratio };
	return { intercept, slope };
}

/**
 * A simulated request's bill in the session's tokens: the constant is part of the cached prefix
 * whenever the request read anything from cache, else fresh with the rest.
 */
export function calibratedBill(
	c: Calibration,
	u: { readonly promptTokens: number; readonly cacheRead: number },
): { prompt: number; cacheRead: number; fresh: number } {
	const prompt = c.intercept + c.slope * u.promptTokens;
	const cacheRead = u.cacheRead > 0 ? c.intercept + c.slope * u.cacheRead : 0;
	return { prompt, cacheRead, fresh: prompt - cacheRead };
}
