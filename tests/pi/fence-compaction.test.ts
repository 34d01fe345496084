// The provider-window fence and native compaction, end to end: only a request whose newest unit is by
// itself larger than the window, even with its large results shown as excerpts, is aborted before transmission (the faux provider records no
// request), naming the unit; an over-budget request that fits goes on to native compaction, said once; Pi's automatic threshold compaction is cancelled with a reason while pi-fold can
// keep the window inside its band, while a manual /compact passes; an overflow compaction passes as
// the last resort, said out of band; each decision shows in status.

import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { renderStatus, statusModel } from "../../src/runtime/index.ts";
import { createProbeTool, probeText } from "../helpers/pi-session.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, resultEntryId, say } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("the fence", () => {
	it("stops only a request whose newest unit alone is larger than the window, naming it, and sends nothing", async () => {
		// Ninety parallel results of ~500 tokens each: every one under an excerpt's minimum, and together
		// larger than the whole window even as one excerpt of the batch (each result's start, size and
		// handle: forty would fit that way, tests/pi/batch-excerpt.test.ts; a single huge result is an
		// excerpt, tests/pi/oversize.test.ts).
		const h = await createHarness({
			contextWindow: 12_000,
			options: { foldScheduling: "epoch", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
			probe: createProbeTool((key) => probeText(key, key.startsWith("mid") ? 70 : 20)),
		});
		const before = h.notices.length;
		h.script([callProbes(...Array.from({ length: 90 }, (_, i) => `mid${i}`)), say("never sent")]);
		await h.run("go");
		// Only the first request left; the one carrying the huge result was aborted before transmission.
		expect(h.requests).toHaveLength(1);
		expect(h.faux.getPendingResponseCount()).toBe(1);
		expect(h.runtime.telemetry.view().fenced.total).toBe(1);
		const notice = h.notices.slice(before).find((n) => n.includes("larger than the whole"));
		expect(notice).toMatch(
			/one batch of 90 results of probe: ~[\d,]+ tokens by itself, larger than the whole 12,000-token window, .* aborted before transmission\. Make it smaller/,
		);
		// The window got nothing: no pi-fold text entered the transcript.
		const texts = JSON.stringify(h.session.sessionManager.getBranch());
		expect(texts).not.toContain("aborted before transmission");
	});

	it("lets an over-budget request that fits the window go (Pi's compaction off), saying so once", async () => {
		const h = await createHarness({
			contextWindow: 12_000,
			options: { foldScheduling: "epoch", readOnlyTools: new Set<string>(), summarizer: "deterministic" },
		});
		const before = h.notices.length;
		// Each result is protected as soon as it lands, so no fold, not even the rescue, may take it.
		const keys = ["big1", "big2", "big3", "big4", "big5", "big6", "big7"];
		const protect = (key: string) => () => callTool({ action: "protect", ids: [resultEntryId(h, `call_${key}`)] });
		h.script([...keys.flatMap((k) => [callProbes(k), protect(k)]), say("done")]);
		await h.run("go");
		// Every request was sent.
		expect(h.requests).toHaveLength(keys.length * 2 + 1);
		const notices = h.notices.slice(before).filter((n) => n.includes("over the serving budget"));
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(/after every lossless fold; it still fits the window, so it is sent/);
	});
});

describe("the fence with Pi's compaction off", () => {
	it("refuses before sending a request larger than the whole window that nothing can fold, naming its newest unit", async () => {
		const h = await createHarness({
			contextWindow: 12_000,
			options: { foldScheduling: "epoch", readOnlyTools: new Set<string>(), summarizer: "deterministic" },
		});
		const before = h.notices.length;
		// Each result is protected as soon as it lands: no fold may take it, and Pi would not compact.
		const keys = Array.from({ length: 14 }, (_, i) => `big${i + 1}`);
		const protect = (key: string) => () => callTool({ action: "protect", ids: [resultEntryId(h, `call_${key}`)] });
		h.script([...keys.flatMap((k) => [callProbes(k), protect(k)]), say("done")]);
		await h.run("go");
		expect(h.runtime.telemetry.view().fenced.aborted).toBe(1);
		const promptOf = (r: (typeof h.requests)[number]) =>
			r.usage ? r.usage.input + r.usage.cacheRead + r.usage.cacheWrite : 0;
		for (const r of h.requests) expect(promptOf(r)).toBeLessThanOrEqual(12_000);
		const refused = h.notices.slice(before).filter((n) => n.includes("refused before sending"));
		expect(refused).toHaveLength(1);
		expect(refused[0]).toMatch(
			/the request of ~[\d,]+ tokens is larger than the whole 12,000-token window after every lossless fold \(the result of (probe|active_context): ~[\d,]+ tokens\), and Pi's compaction is off, so the provider would reject it; refused before sending\. Run \/compact/,
		);
	});
});

describe("beside native compaction", () => {
	it("cancels threshold compaction while pi-fold can keep the band, and lets a manual /compact pass", async () => {
		const h = await createHarness({
			contextWindow: 16_000,
			compaction: { enabled: true, reserveTokens: 9_000, keepRecentTokens: 500 },
			options: { foldScheduling: "epoch", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		h.script([...["big1", "big2", "big3", "big4", "big5", "big6"].map((k) => callProbes(k)), say("done")]);
		await h.run("go");
		const threshold = h.runtime.telemetry.view().compactions.recent.filter((c) => c.reason === "threshold");
		expect(threshold.length).toBeGreaterThan(0);
		expect(threshold.every((c) => c.decision === "cancelled")).toBe(true);
		expect(threshold[0]?.why).toMatch(
			/keeps the window inside its band: \d+ fold\(s\) in force, ~[\d,]+ tokens reclaimable/,
		);
		expect(h.session.sessionManager.getBranch().some((e) => e.type === "compaction")).toBe(false);
		h.script([say("Summary of the session so far.")]);
		await h.session.compact();
		expect(h.runtime.telemetry.view().compactions.recent.at(-1)).toMatchObject({
			reason: "manual",
			decision: "passed",
		});
		expect(h.session.sessionManager.getBranch().some((e) => e.type === "compaction")).toBe(true);
		const status = renderStatus(statusModel(h.runtime, h.host())).text;
		expect(status).toContain("Native compaction (threshold): cancelled:");
		expect(status).toContain("Native compaction (manual): passed:");
	});

	it("lets an overflow compaction run as the last resort and says so out of band", async () => {
		const h = await createHarness({
			contextWindow: 16_000,
			compaction: { enabled: true, reserveTokens: 2_000, keepRecentTokens: 500 },
			options: { summarizer: "deterministic" },
		});
		const before = h.notices.length;
		h.script([
			callProbes("big1"),
			callProbes("big2"),
			fauxAssistantMessage("", {
				stopReason: "error",
				errorMessage: "prompt is too long: 213462 tokens > 200000 maximum",
			}),
			say("Summary of the session so far."),
			say("done after the retry"),
		]);
		await h.run("go");
		expect(h.runtime.telemetry.view().compactions.recent.at(-1)).toMatchObject({
			reason: "overflow",
			decision: "passed",
		});
		expect(
			h.notices.slice(before).some((n) => n.includes("letting Pi's native compaction run as the last resort")),
		).toBe(true);
		expect(h.session.sessionManager.getBranch().some((e) => e.type === "compaction")).toBe(true);
	});
});
