// pi-ai's real OpenAI Chat Completions client for a custom provider (models.json, `baseUrl` at a
// local server: tests/helpers/wire/), in a real in-process Pi session with pi-fold loaded at a 32k
// window and briefs written by the session model. The ladder folds tool batches and closed chapters;
// each chapter brief is a side request (no tools, never part of the agent's request chain). Every
// agent body: valid for the API, byte-exact extensions between commits, the system prompt and tools
// identical, an output cap the window allows, right after a commit included.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	allProblems,
	budgetShortfalls,
	invariantBreaks,
	outputCap,
	wireObserverDisagreements,
} from "../helpers/wire/checks.ts";
import { runStage, stage } from "../helpers/wire/scenario.ts";
import { SIDE_REPLY } from "../helpers/wire/server.ts";
import { createWireSession, type WireSession } from "../helpers/wire/session.ts";
import { cleanupTempDirs } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

const API = "openai-completions";

describe("pi-ai's Chat Completions client for a custom provider on the wire (32k window)", () => {
	let w: WireSession;
	let agent: ReturnType<WireSession["agent"]>;
	beforeAll(async () => {
		w = await createWireSession({ api: API, options: { summarizer: "session" } });
		for (let s = 1; s <= 7; s++) await runStage(w, `stage ${s}`, stage(s, 4, { huge: s % 3 === 0 }));
		agent = w.agent();
	});
	afterAll(() => w.close());

	it("commits several times, every agent request valid for the API, nothing unattributed", () => {
		expect(agent.at(-1)?.commits ?? 0).toBeGreaterThanOrEqual(4);
		expect(allProblems(API, agent)).toEqual([]);
		expect(w.h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		expect(wireObserverDisagreements(API, agent, w.h.runtime.telemetry.view().wire)).toEqual([]);
	});

	it("between commits each body extends the previous byte for byte; system and tools never change", () => {
		expect(invariantBreaks(API, agent)).toEqual([]);
	});

	it("never caps output below what the window allows (after a commit included)", () => {
		expect(budgetShortfalls(agent, w.contextWindow, w.maxTokens)).toEqual([]);
		const afterCommit = agent.filter((a, i) => i > 0 && a.commits !== agent[i - 1]?.commits);
		expect(afterCommit.map((a) => outputCap(a.request.body))).toEqual(afterCommit.map(() => w.maxTokens));
	});

	it("writes chapter briefs with the session model in side requests, and shows them in placeholders", () => {
		const side = w.server.requests.filter((r) => !r.agent);
		expect(side.length).toBeGreaterThanOrEqual(1);
		for (const r of side) expect(r.body.tools).toBeUndefined();
		expect(agent.some((a) => a.request.raw.includes(SIDE_REPLY))).toBe(true);
	});
});
