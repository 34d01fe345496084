// One parallel batch of many small results, together larger than the window, end to end in a real Pi
// session at a 32k window: sixty results of ~700 tokens each (none large enough for an excerpt of
// its own). The turn that produced them ends with the batch shown as one excerpt of the batch (each
// result's start, its size and its handle, every call still answered), before any request carries
// them: no request exceeds the window, Pi's compaction never runs (on) and nothing is fenced (off),
// the notice names the batch, and the agent's search finds a line of the 30th result. Sixty results
// of ~3 KB of dense text, each large enough for an excerpt of its own but too many even as excerpts,
// become places in the batch excerpt too, told once (Pi compacted before).

import { afterAll, describe, expect, it } from "vitest";
import { createProbeTool, probeText } from "../helpers/pi-session.ts";
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
const KEYS = Array.from({ length: 60 }, (_, i) => `item${i + 1}`);

/** The prompt tokens the faux provider billed for a request. */
const promptOf = (r: RecordedRequest) => (r.usage ? r.usage.input + r.usage.cacheRead + r.usage.cacheWrite : 0);

/** Sixty results of ~2,700 characters (~700 tokens), each with a line of its own to search for. */
const probe = createProbeTool((key) =>
	key.startsWith("item") ? `${probeText(key, 100)}\nmarker line of ${key}: checksum-${key}-ok\n` : probeText(key, 20),
);

async function run(compaction: boolean) {
	const h = await createHarness({
		contextWindow: WINDOW,
		probe,
		...(compaction ? { compaction: { enabled: true } } : {}),
		options: { foldScheduling: "cost", summarizer: "deterministic" },
	});
	h.script([
		callProbes("a"),
		callProbes(...KEYS),
		callTool({ action: "search", pattern: "checksum-item30-ok" }),
		say("done"),
	]);
	await h.run("go");
	return h;
}

/** Sixty results of ~3 KB of dense text, each large enough for an excerpt of its own, but too many. */
const dense = createProbeTool((key) =>
	key.startsWith("item")
		? `${Array.from({ length: 120 }, (_, i) => `${key}:${(i * 7919).toString(36)}:${((i + 3) * 104729).toString(16)}`).join(" ")}\nmarker line of ${key}: checksum-${key}-ok\n`
		: probeText(key, 20),
);

describe("a batch too large as a whole", () => {
	it("of results each large enough for an excerpt of its own is folded as one excerpt of the batch too", async () => {
		const h = await createHarness({
			contextWindow: WINDOW,
			probe: dense,
			compaction: { enabled: true },
			options: { foldScheduling: "cost", summarizer: "deterministic" },
		});
		h.script([
			callProbes("a"),
			callProbes(...KEYS),
			callTool({ action: "search", pattern: "checksum-item30-ok" }),
			say("done"),
		]);
		await h.run("go");
		expect(h.requests).toHaveLength(4);
		for (const r of h.requests) expect(promptOf(r)).toBeLessThanOrEqual(WINDOW);
		expect(h.session.sessionManager.getBranch().some((e) => e.type === "compaction")).toBe(false);
		expect(h.runtime.telemetry.view().fenced.total).toBe(0);
		// One notice for the batch, none per result.
		expect(h.notices.some((n) => n.includes("a tool result of") && n.includes("too large for the window"))).toBe(false);
		const [search] = toolTexts(h);
		expect(search).toContain("checksum-item30-ok");
	});

	for (const compaction of [true, false])
		it(`is folded as one excerpt of the batch (Pi's compaction ${compaction ? "on" : "off"})`, async () => {
			const h = await run(compaction);
			const branch = h.session.sessionManager.getBranch();
			// The run went on to the end: nothing fenced, nothing compacted, no request over the window.
			expect(h.requests).toHaveLength(4);
			for (const r of h.requests) expect(promptOf(r)).toBeLessThanOrEqual(WINDOW);
			expect(branch.some((e) => e.type === "compaction")).toBe(false);
			expect(h.runtime.telemetry.view().fenced.total).toBe(0);
			// The request after the batch answers every call; most results by their start, size and handle.
			const afterBatch = h.requests[2] as RecordedRequest;
			expect(requestRelation(h.requests[1] as RecordedRequest, afterBatch).kind).toBe("append");
			const results = conversation(afterBatch).filter((m) => m.role === "toolResult");
			expect(results).toHaveLength(61);
			const placed = results.filter((m) =>
				/in a batch too large for the window as a whole/.test(JSON.stringify(m.content)),
			);
			expect(placed.length).toBeGreaterThanOrEqual(50);
			expect(JSON.stringify(placed[0]?.content)).toMatch(/Result \d+ of 60 .*Its start:\\nprobe item/);
			// Told once, naming the batch.
			const told = h.notices.filter((n) =>
				n.includes("one batch of 60 tool results is too large for the window as a whole"),
			);
			expect(told.length).toBeGreaterThanOrEqual(1);
			// The agent's search reaches a line of the 30th result.
			const [search] = toolTexts(h);
			expect(search).toMatch(/\b1 match\b/);
			expect(search).toContain("checksum-item30-ok");
		});
});
