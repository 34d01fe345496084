// Smoke test of the request-latency benchmark (bench/request-latency.ts) at a tiny size: the three
// arms run a real Pi session to the end (pi-fold's with its tool, Pi alone's without, with its
// compaction on and off), every request gives a step, and the report prints the rows, the first and
// last medians, the three targets (met or MISSED) and the profile of pi-fold's own functions. No wall-clock figure is asserted: the
// benchmark reports them, it does not judge them here.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { edgesOf, measure, report, stepAt } from "../../bench/request-latency.ts";
import { runSession } from "../../bench/request-latency-session.ts";
import { isBriefRequest } from "../../bench/session/brief-writer.ts";

describe("the request-latency benchmark", () => {
	it("runs the three arms at a tiny size and prints its rows, targets and profile", async () => {
		const result = await measure({
			requests: [20, 40],
			length: 60,
			edge: 10,
			window: 65_536,
			profile: 30,
			json: false,
		});
		expect(result.piCompacting.steps).toHaveLength(59);
		expect(result.pi.steps).toHaveLength(59);
		expect(result.piFold.steps).toHaveLength(59);
		expect(result.pi.lastMessages).toBe(result.piFold.lastMessages);
		expect(result.piCompacting.lastMessages).toBe(result.pi.lastMessages);
		expect(result.rows.map((r) => r.requests)).toEqual([20, 40]);
		for (const row of result.rows) expect(row.addedMs).toBeCloseTo(row.piFoldMs - row.piCompactingMs, 9);
		expect(result.targets.map((t) => t.bound)).toEqual([2, 2, 1.5]);
		expect(result.profile?.top.length).toBeGreaterThan(0);
		expect(result.profile?.top.every((f) => f.name.includes("src/"))).toBe(true);
		const text = report(result);
		expect(text).toMatch(/\| 20 \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ ms \| -?[\d.]+ ms \| [\d.]+x \|/);
		expect(text).toMatch(/\| 40 \| /);
		expect(text).toMatch(/\| with pi-fold \| [\d.]+ ms \| [\d.]+ ms \|/);
		expect(text).toMatch(
			/Pi alone's last steps \(its compaction on, as users run it\): [\d.]+x, at most 2x: (met|MISSED)/,
		);
		expect(text).toMatch(
			/Pi alone's last steps \(its compaction off: the same history\): [\d.]+x, at most 2x: (met|MISSED)/,
		);
		expect(text).toMatch(/\| Pi alone, compaction on \| [\d.]+ ms \| [\d.]+ ms \|/);
		expect(text).toMatch(/its own first steps: [\d.]+x, at most 1.5x: (met|MISSED)/);
		expect(text).toMatch(/pi-fold's own hooks, last 10 ÷ first 10: [\d.]+x \(reported/);
		expect(text).toMatch(/CPU profile of a 30-request pi-fold session/);
	});

	it("compacts in Pi alone's arm with its compaction on, and keeps every read a request", async () => {
		const root = mkdtempSync(join(tmpdir(), "pi-fold-latency-compacting-"));
		try {
			const on = await runSession({
				requests: 150,
				window: 40_000,
				piFold: false,
				compaction: true,
				root: join(root, "on"),
			});
			const off = await runSession({ requests: 150, window: 40_000, piFold: false, root: join(root, "off") });
			expect(on.errors).toEqual([]);
			expect(on.requestTimes).toHaveLength(150);
			expect(on.compactions).toBeGreaterThan(0);
			expect(on.lastMessages).toBeLessThan(off.lastMessages);
			expect(off.compactions).toBe(0);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("keeps pi-fold's brief requests out of the agent's steps: every read made, the last request the agent's", async () => {
		const root = mkdtempSync(join(tmpdir(), "pi-fold-latency-briefs-"));
		try {
			let last: readonly { role: string; toolCallId?: string }[] = [];
			let briefsSeen = 0;
			const run = await runSession({
				requests: 300,
				window: 65_536,
				piFold: true,
				compaction: true,
				root,
				onRequest: (_i, context) => {
					if (isBriefRequest(context.messages)) briefsSeen++;
					last = context.messages as typeof last;
				},
			});
			expect(run.errors).toEqual([]);
			expect(run.contextEdits).toBeGreaterThan(0);
			expect(run.sideRequests).toBeGreaterThan(0);
			expect(briefsSeen).toBe(0);
			expect(run.requestTimes).toHaveLength(300);
			expect(last.filter((m) => m.role === "toolResult").at(-1)?.toolCallId).toBe("read_298");
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("reads the median step near a length and at both edges of the target session", () => {
		// Step i ends at request i + 2; the steps ending within the last 50 requests before 100.
		const steps = Array.from({ length: 199 }, (_, i) => i);
		expect(stepAt(steps, 100)).toBe(73.5);
		expect(stepAt(steps, 10)).toBe(6);
		expect(edgesOf(steps, 101, 10)).toEqual({ first: 4.5, last: 94.5 });
	});
});
