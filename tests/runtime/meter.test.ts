// The session meter's calibration (src/runtime/meter.ts): how the provider counts a request against
// pi-fold's estimate. A commit changes what the window is made of (briefs where raw reads were), and a
// least-squares line through requests before and after it trades its slope for its intercept; the rate
// a rewrite is priced at is the one appends bill at, so the meter measures it on pure appends and
// leaves the rest to the overhead. Before any append it is least squares, and what must fit whatever
// the rate (the excerpts of a batch larger than the window) plans for the top of the meter's range.

import { describe, expect, it } from "vitest";
import { CALIBRATION_RANGE, fitCalibration, SessionMeter } from "../../src/runtime/meter.ts";

/** The provider's count: the tools' 1,700 tokens, raw content at 1.0, briefs at 1.6 per estimated token. */
const billed = (raw: number, briefs: number) => 1_700 + raw + 1.6 * briefs;

/** Ten appends of 1,500 raw tokens, a commit that trades 12,000 raw for 3,000 of briefs, six appends more. */
function session(meter: SessionMeter): [number, number][] {
	const pairs: [number, number][] = [];
	let raw = 20_000;
	let briefs = 0;
	let t = 0;
	const send = (appended: boolean) => {
		const estimate = raw + briefs;
		t += 1_000;
		meter.onRequest(estimate, estimate, appended, t);
		meter.onUsage(billed(raw, briefs));
		pairs.push([estimate, billed(raw, briefs)]);
	};
	send(false);
	for (let i = 0; i < 10; i++) {
		raw += 1_500;
		send(true);
	}
	raw -= 12_000;
	briefs += 3_000;
	send(false);
	for (let i = 0; i < 6; i++) {
		raw += 1_500;
		send(true);
	}
	return pairs;
}

describe("the session meter's calibration", () => {
	it("prices what appends add at the rate appends bill, across a commit", () => {
		const meter = new SessionMeter();
		const pairs = session(meter);
		const { rate, overhead } = meter.calibration;
		expect(rate).toBeCloseTo(1, 6);
		// At that rate the newest request is counted exactly (its briefs are in the overhead now).
		const [e, p] = pairs.at(-1) as [number, number];
		expect(overhead + rate * e).toBeGreaterThan(p - 2_000);
		expect(overhead + rate * e).toBeLessThan(p + 2_000);
		// A 12,000-token rewrite of raw content is priced at 12,000; a least-squares line is more than 5% off.
		const line = fitCalibration(pairs.slice(-16));
		expect(Math.abs(line.rate * 12_000 - 12_000)).toBeGreaterThan(600);
		expect(Math.abs(rate * 12_000 - 12_000)).toBeLessThan(1);
	});

	it("is least squares before any append, and no calibration before any usage", () => {
		const meter = new SessionMeter();
		expect(meter.calibration).toEqual({ overhead: 0, rate: 1 });
		meter.onRequest(10_000, 10_000, false, 1);
		meter.onUsage(11_700);
		expect(meter.calibration).toEqual({ overhead: 1_700, rate: 1 });
		// A rewrite is not an append: the pair does not measure a rate.
		meter.onRequest(20_000, 20_000, false, 2);
		meter.onUsage(23_700);
		expect(meter.calibration.rate).toBeCloseTo(1.2, 6);
		expect(meter.calibration.overhead).toBeCloseTo(-300, 6);
	});

	it("waits for 2,000 appended tokens before it trusts their rate", () => {
		expect(fitCalibration([[10_000, 11_700]], [[1_000, 1_500]])).toEqual({ overhead: 1_700, rate: 1 });
		const pairs: [number, number][] = [
			[10_000, 11_700],
			[12_000, 14_700],
			[14_000, 15_000],
		];
		const fitted = fitCalibration(pairs, [[2_000, 3_000]]);
		expect(fitted.rate).toBeCloseTo(1.5, 6);
		expect(fitted.overhead).toBeCloseTo((11_700 - 15_000 + (14_700 - 18_000) + (15_000 - 21_000)) / 3, 6);
		// Without the appends, the same pairs give least squares' line.
		expect(fitCalibration(pairs).rate).toBeCloseTo(0.825, 6);
	});

	it("bounds the rate by the top of its range until appends measured it", () => {
		const meter = new SessionMeter();
		expect(meter.rateBound).toBe(CALIBRATION_RANGE[1]);
		meter.onRequest(50, 50, false, 1);
		meter.onUsage(58);
		expect(meter.rateBound).toBe(CALIBRATION_RANGE[1]);
		// The first append of 2,000 tokens or more measures the rate: from then on the calibration holds.
		meter.onRequest(10_050, 10_050, true, 2);
		meter.onUsage(12_758);
		expect(meter.calibration.rate).toBeCloseTo(1.27, 6);
		expect(meter.rateBound).toBe(1);
	});
});
