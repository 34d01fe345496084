// Smoke test of the request-latency benchmark (bench/request-latency.ts) at a tiny size: both arms
// run a real Pi session to the end (pi-fold's with its tool, Pi alone's without), every request
// gives a step, and the report prints the rows, the first and last medians, both targets (met or
// MISSED) and the profile of pi-fold's own functions. No wall-clock figure is asserted: the
// benchmark reports them, it does not judge them here.

import { describe, expect, it } from "vitest";
import { edgesOf, measure, report, stepAt } from "../../bench/request-latency.ts";

describe("the request-latency benchmark", () => {
	it("runs both arms at a tiny size and prints its rows, targets and profile", async () => {
		const result = await measure({
			requests: [20, 40],
			length: 60,
			edge: 10,
			window: 65_536,
			profile: 30,
			json: false,
		});
		expect(result.pi.steps).toHaveLength(59);
		expect(result.piFold.steps).toHaveLength(59);
		expect(result.pi.lastMessages).toBe(result.piFold.lastMessages);
		expect(result.rows.map((r) => r.requests)).toEqual([20, 40]);
		for (const row of result.rows) expect(row.addedMs).toBeCloseTo(row.piFoldMs - row.piMs, 9);
		expect(result.targets.map((t) => t.bound)).toEqual([2, 1.5]);
		expect(result.profile?.top.length).toBeGreaterThan(0);
		expect(result.profile?.top.every((f) => f.name.includes("src/"))).toBe(true);
		const text = report(result);
		expect(text).toMatch(/\| 20 \| [\d.]+ ms \| [\d.]+ ms \| -?[\d.]+ ms \| [\d.]+x \|/);
		expect(text).toMatch(/\| 40 \| /);
		expect(text).toMatch(/\| with pi-fold \| [\d.]+ ms \| [\d.]+ ms \|/);
		expect(text).toMatch(/Pi alone's last steps: [\d.]+x, at most 2x: (met|MISSED)/);
		expect(text).toMatch(/its own first steps: [\d.]+x, at most 1.5x: (met|MISSED)/);
		expect(text).toMatch(/CPU profile of a 30-request pi-fold session/);
	});

	it("reads the median step near a length and at both edges of the target session", () => {
		// Step i ends at request i + 2; the steps ending within the last 50 requests before 100.
		const steps = Array.from({ length: 199 }, (_, i) => i);
		expect(stepAt(steps, 100)).toBe(73.5);
		expect(stepAt(steps, 10)).toBe(6);
		expect(edgesOf(steps, 101, 10)).toEqual({ first: 4.5, last: 94.5 });
	});
});
