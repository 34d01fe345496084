// pi-ai's real Anthropic Messages client, thinking on, against a local server (tests/helpers/wire/),
// in a real in-process Pi session with pi-fold loaded at a 36k window: the ladder folds, the agent
// protects a spec it read, folds a stage by the tool_use ids it saw, peeks and expands by the fold
// handle it saw. Every recorded body: valid for the Messages API, byte-exact extensions between
// commits (cache_control aside), system and tools identical, an output cap the window allows. The
// stable-prefix breakpoint: held in place between commits, and, by Anthropic's lookback rule
// (lookback.ts), what lets each commit's first request read the unchanged prefix.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	allProblems,
	budgetShortfalls,
	invariantBreaks,
	relate,
	wireObserverDisagreements,
} from "../helpers/wire/checks.ts";
import { probeCalls, resultText } from "../helpers/wire/ids.ts";
import { extraBreakpoints, serveAll, tokensThrough, withoutExtraBreakpoints } from "../helpers/wire/lookback.ts";
import {
	expectFoldPeekExpand,
	foldPeekExpand,
	type Handled,
	probe,
	replyTo,
	runStage,
	stage,
	tool,
} from "../helpers/wire/scenario.ts";
import { codeText, createWireSession, type WireSession } from "../helpers/wire/session.ts";
import { cleanupTempDirs } from "../pi/harness.ts";

afterAll(cleanupTempDirs);

const API = "anthropic-messages";

/** The session: protect the spec, stages 2-4, fold the end of stage 4 by its ids, peek and expand the fold, stages 5-6. */
async function session(w: WireSession): Promise<Handled> {
	const handled: Handled = { folded: [], keys: [], foldReply: "", handle: "" };
	await runStage(w, "stage 1: read the spec and keep it", [
		probe("huge-spec", true),
		(req) => tool({ action: "protect", ids: [probeCalls(API, req.body, "huge-spec")[0]?.id] }, true),
		...stage(1, 4, { thinking: true }),
	]);
	for (let s = 2; s <= 4; s++) await runStage(w, `stage ${s}`, stage(s, 5, { huge: s === 3, thinking: true }));
	const five = stage(5, 4, { thinking: true });
	// Stage 4's last two probes: six units follow them (stage 5's four batches, the hand-in, the
	// prompt), so they lie just outside the fresh tail, which stays raw.
	const pick = (body: Record<string, unknown>) => probeCalls(API, body, "big-4-").slice(-2);
	await runStage(w, "stage 5: fold the end of stage 4, check it, then carry on", [
		...five.slice(0, 4),
		...foldPeekExpand(API, pick, handled, true),
		probe("huge-5", true),
		...five.slice(4),
	]);
	await runStage(w, "stage 6", stage(6, 3, { thinking: true }));
	return handled;
}

describe("pi-ai's Anthropic client on the wire (thinking on, 36k window)", () => {
	let w: WireSession;
	let handled: Handled;
	let agent: ReturnType<WireSession["agent"]>;
	beforeAll(async () => {
		w = await createWireSession({ api: API, thinking: true, contextWindow: 36_000 });
		handled = await session(w);
		agent = w.agent();
	});
	afterAll(() => w.close());

	it("commits several times, every request valid for the Messages API", () => {
		expect(agent.at(-1)?.commits ?? 0).toBeGreaterThanOrEqual(4);
		expect(allProblems(API, agent)).toEqual([]);
		expect(w.h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		expect(wireObserverDisagreements(API, agent, w.h.runtime.telemetry.view().wire)).toEqual([]);
	});

	it("between commits each body extends the previous byte for byte; system and tools never change", () => {
		expect(invariantBreaks(API, agent)).toEqual([]);
	});

	it("never caps output below what the window allows (after a commit included)", () => {
		const afterCommit = agent.filter((a, i) => i > 0 && a.commits !== agent[i - 1]?.commits);
		expect(afterCommit.length).toBeGreaterThanOrEqual(4);
		expect(budgetShortfalls(agent, w.contextWindow, w.maxTokens)).toEqual([]);
	});

	it("protects by the tool_use id the model saw", () => {
		const requests = agent.map((a) => a.request);
		expect(replyTo(API, requests, "protect").text).toMatch(/^Protected 1 entry: they stay raw/);
		expect(
			resultText(
				API,
				agent.at(-1)?.request.body ?? {},
				probeCalls(API, requests[2]?.body ?? {}, "huge-spec")[0]?.id ?? "",
			),
		).toBe(codeText("huge-spec"));
	});

	it("folds by the tool_use ids the model saw; peek and expand by the handle it saw", () => {
		expectFoldPeekExpand(
			API,
			agent.map((a) => a.request),
			handled,
		);
	});

	it("holds the stable-prefix breakpoint in place between commits, with at most four in all", () => {
		agent.forEach(({ request, commits }, i) => {
			expect((request.raw.match(/"cache_control":/g) ?? []).length).toBeLessThanOrEqual(4);
			const before = agent[i - 1];
			const held = before ? extraBreakpoints(before.request.body) : [];
			if (before && before.commits === commits && held.length > 0) expect(extraBreakpoints(request.body)).toEqual(held);
		});
		const marked = agent.filter((a) => extraBreakpoints(a.request.body).length === 1);
		expect(marked.length).toBeGreaterThan(agent.length / 2);
	});

	it("lets each commit's first request read the unchanged prefix, where pi-ai's breakpoints alone read only tools and system", () => {
		const bodies = agent.map((a) => a.request.body);
		const withExtra = serveAll(bodies);
		const bare = serveAll(bodies.map(withoutExtraBreakpoints));
		let served = 0;
		let gained = 0;
		agent.forEach(({ request, commits }, i) => {
			const before = agent[i - 1];
			if (!before || before.commits === commits) return;
			const divergence = relate(API, before.request.body, request.body).firstDivergence;
			const held = extraBreakpoints(before.request.body)[0];
			if (!held || held.message >= divergence) return;
			served++;
			expect(withExtra[i]?.readTokens ?? 0).toBeGreaterThanOrEqual(tokensThrough(request.body, held));
			// The protected spec (~7,000 tokens) lies in every unchanged prefix; pi-ai's breakpoints alone miss it.
			if ((withExtra[i]?.readTokens ?? 0) - (bare[i]?.readTokens ?? 0) > 6000) gained++;
		});
		expect(served).toBeGreaterThanOrEqual(4);
		expect(gained).toBeGreaterThanOrEqual(4);
	});
});
