// A tool batch larger than the whole window, end to end in a real Pi session at a 32k window with
// Pi's threshold compaction on and pi-fold's defaults: the turn that produced it ends with its largest
// results shown as bounded excerpts (as many as the window cannot hold at the highest rate the provider
// may count, the session not having measured it yet) before any request carries them, so Pi never compacts and no request exceeds the window; the agent's search finds a line of a result and its peek reads it; the next
// request after the batch is a pure append of the excerpts (the provider never saw the raw results).

import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type RecordedRequest,
	requestRelation,
	say,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const WINDOW = 32_000;

/** The prompt tokens the faux provider billed for a request. */
const promptOf = (r: RecordedRequest) => (r.usage ? r.usage.input + r.usage.cacheRead + r.usage.cacheWrite : 0);

describe("a batch larger than the window", () => {
	it("is shown as excerpts at the end of its turn: no compaction, searchable, peekable", async () => {
		const h = await createHarness({
			contextWindow: WINDOW,
			compaction: { enabled: true, reserveTokens: 4_096, keepRecentTokens: 8_000 },
			options: { foldScheduling: "cost", summarizer: "deterministic" },
		});
		// Three parallel reads of ~18k tokens each: ~55k tokens in one batch, at a ~28k-token budget.
		h.script([
			callProbes("a"),
			callProbes("huge1", "huge2", "huge3"),
			callTool({ action: "search", pattern: "probe huge2:" }),
			() => {
				const fold = [...h.runtime.snapshot(h.host()).state.folds.values()].find((f) => f.kind === "result");
				return callTool({ action: "peek", id: fold?.id ?? "", bytes: 2_000 });
			},
			say("done"),
		]);
		await h.run("go");
		const branch = h.session.sessionManager.getBranch();
		// The run went on to the end: nothing fenced, nothing compacted.
		expect(h.requests).toHaveLength(5);
		expect(h.runtime.telemetry.view().fenced.aborted).toBe(0);
		expect(branch.some((e) => e.type === "compaction")).toBe(false);
		for (const r of h.requests) expect(promptOf(r)).toBeLessThanOrEqual(WINDOW);
		// As many results as the window cannot hold reached the provider only as excerpts (the largest
		// first). The batch comes before any append measured how the provider counts against pi-fold's
		// estimate, so they are as many as it takes to fit at the top of the rate's range (twice the
		// estimate, src/runtime meter.ts rateBound): all three; one left whole would fit only below it.
		const excerpts = [...h.runtime.snapshot(h.host()).state.folds.values()].filter((f) => f.kind === "result");
		expect(excerpts).toHaveLength(3);
		const whole = (r: RecordedRequest) =>
			conversation(r).filter(
				(m) => m.role === "toolResult" && /(lorem ipsum dolor sit amet ){2000}/.test(JSON.stringify(m.content)),
			);
		for (const r of h.requests) expect(whole(r).length).toBeLessThanOrEqual(1);
		// The request after the batch appends the excerpts: the provider never saw the raw results.
		const afterBatch = h.requests[2] as RecordedRequest;
		expect(requestRelation(h.requests[1] as RecordedRequest, afterBatch).kind).toBe("append");
		expect(JSON.stringify(afterBatch.messages)).toContain("excerpt · fold f");
		const [search, peek] = toolTexts(h);
		expect(search).toMatch(/\b1 match\b/);
		expect(search).toContain("probe huge2:");
		expect(peek).toMatch(/^\[peek f[0-9a-f]{16} · bytes 0-\d+ of [\d]+ · sha256 [0-9a-f]{16}… verified/);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		expect(h.notices.some((n) => n.includes("too large for the window; the model sees an excerpt"))).toBe(true);
	});
});
