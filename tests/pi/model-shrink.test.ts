// A session built on a 64k model goes on with a 16k one: switched with setModel, or resumed on it.
// pi-fold folded nothing yet (the window sat under its quiet line on 64k), so the first request on
// 16k would be ~37k tokens: pi-fold must not hold Pi's compaction back on the promise of a commit
// that can only come after that request. Pi's compaction runs, the human is told in one line why, and
// no request the faux provider is sent is over the 16k window. Real in-process Pi sessions.

import { afterAll, describe, expect, it } from "vitest";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, cleanupTempDirs, createHarness, type Harness, type HarnessOptions, say } from "./harness.ts";
import { agentRequests, compactions, largest, overWindow, promptTokens, scripted } from "./safety-helpers.ts";

afterAll(cleanupTempDirs);

const SMALL = 16_000;

const settings: HarnessOptions = {
	ui: "tui",
	persistent: true,
	contextWindow: 64_000,
	extraModels: [{ id: "faux-16k", contextWindow: SMALL }],
	compaction: { enabled: true, reserveTokens: 4_096, keepRecentTokens: 4_000 },
	options: { foldScheduling: "immediate", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
};

const turns = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => callProbes(`big-${prefix}${i}`));

/** A 64k session of ~37k tokens that pi-fold had no reason to fold. */
async function grownOn64k(): Promise<Harness> {
	const h = await createHarness(settings);
	scripted(h, [...turns("a", 27), say("first part done")]);
	await h.run("read the first part");
	expect(largest(h)).toBeGreaterThan(30_000);
	expect(compactions(h)).toBe(0);
	return h;
}

/** Goes on for a few turns on the 16k model; what the provider was sent and what the human was told. */
async function goesOn(h: Harness) {
	const at = h.requests.length;
	const noticesAt = h.ui.notices.length;
	const decisionsAt = h.runtime.telemetry.view().compactions.recent.length;
	scripted(h, [...turns("b", 4), say("second part done")]);
	await h.run("read the second part");
	const sent = agentRequests(h, at).map(promptTokens);
	const decisions = h.runtime.telemetry.view().compactions.recent.slice(decisionsAt);
	const told = h.ui.notices.slice(noticesAt).map((n) => n.message);
	return { at, sent, decisions, told };
}

describe("a switch to a smaller model", () => {
	it("setModel 64k → 16k: Pi's compaction runs first, no request over the window", async () => {
		const h = await grownOn64k();
		const small = h.faux.getModel("faux-16k");
		if (!small) throw new Error("no 16k model");
		await h.session.setModel(small);
		const { at, sent, decisions, told } = await goesOn(h);
		expect(sent.length).toBeGreaterThan(0);
		expect(overWindow(h, SMALL, at)).toEqual([]);
		expect(compactions(h)).toBeGreaterThan(0);
		expect(decisions.some((d) => d.decision === "cancelled")).toBe(false);
		const why = told.filter((m) => m.includes("Pi's compaction runs because"));
		expect(why.length).toBeGreaterThan(0);
		expect(why[0]).toMatch(/over the serving budget of 11,904/);
		expect(why[0]).not.toContain("\n");
	});

	it("resumed on the 16k model: Pi's compaction runs first, no request over the window", async () => {
		const first = await grownOn64k();
		const file = first.sessionFile();
		if (!file) throw new Error("no session file");
		const h = await createHarness({ ...settings, openFile: file, sessionDir: first.sessionDir, modelId: "faux-16k" });
		expect(h.ctx().model?.contextWindow).toBe(SMALL);
		const { at, sent, decisions } = await goesOn(h);
		expect(sent.length).toBeGreaterThan(0);
		expect(overWindow(h, SMALL, at)).toEqual([]);
		expect(compactions(h)).toBeGreaterThan(0);
		expect(decisions.some((d) => d.decision === "cancelled")).toBe(false);
	});
});
