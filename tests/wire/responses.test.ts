// pi-ai's real OpenAI Responses client against a local server (tests/helpers/wire/), in a real
// in-process Pi session with pi-fold loaded at a 32k window. Pi stores a Responses tool call's id as
// `call_id|item_id`; the model sees `call_id` (and the item id apart, as `id`). Every id the agent
// names here is one it read off the wire: it protects a result and folds a span by `call_id`, peeks
// and expands by the handle a placeholder shows. Every recorded body: valid for the Responses API,
// byte-exact extensions between commits, the system prompt and tools identical, an output cap the
// window allows.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allProblems, budgetShortfalls, invariantBreaks, wireObserverDisagreements } from "../helpers/wire/checks.ts";
import { callsOnWire, probeCalls, resultText } from "../helpers/wire/ids.ts";
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

const API = "openai-responses";

/** Protect a result by its call_id, five stages (one huge result), fold / peek / expand by wire ids. */
async function session(w: WireSession): Promise<Handled> {
	const handled: Handled = { folded: [], keys: [], foldReply: "", handle: "" };
	await runStage(w, "stage 1: read the spec and keep it", [
		probe("huge-spec"),
		(req) => tool({ action: "protect", ids: [probeCalls(API, req.body, "huge-spec")[0]?.id] }),
		...stage(1, 3),
	]);
	for (let s = 2; s <= 3; s++) await runStage(w, `stage ${s}`, stage(s, 5, { huge: s === 3 }));
	const four = stage(4, 4);
	await runStage(w, "stage 4: fold the end of stage 3, check it, then carry on", [
		...four.slice(0, 4),
		...foldPeekExpand(API, (body) => probeCalls(API, body, "big-3-").slice(-2), handled),
		...four.slice(4),
	]);
	await runStage(w, "stage 5", stage(5, 4));
	return handled;
}

describe("pi-ai's OpenAI Responses client on the wire (32k window)", () => {
	let w: WireSession;
	let handled: Handled;
	let agent: ReturnType<WireSession["agent"]>;
	beforeAll(async () => {
		w = await createWireSession({ api: API });
		handled = await session(w);
		agent = w.agent();
	});
	afterAll(() => w.close());

	it("commits several times, every request valid for the Responses API, nothing unattributed", () => {
		expect(agent.at(-1)?.commits ?? 0).toBeGreaterThanOrEqual(3);
		expect(allProblems(API, agent)).toEqual([]);
		expect(w.h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		expect(wireObserverDisagreements(API, agent, w.h.runtime.telemetry.view().wire)).toEqual([]);
	});

	it("between commits each body extends the previous byte for byte; system and tools never change", () => {
		expect(invariantBreaks(API, agent)).toEqual([]);
	});

	it("never caps output below what the window allows (after a commit included)", () => {
		expect(budgetShortfalls(agent, w.contextWindow, w.maxTokens)).toEqual([]);
	});

	it("shows the model call_id while Pi stores call_id|item_id", () => {
		const calls = callsOnWire(API, agent.at(-1)?.request.body ?? {});
		expect(calls.length).toBeGreaterThan(0);
		for (const c of calls) expect(c.id).toMatch(/^call_[0-9a-z]+$/);
		const stored = w.h.session.sessionManager
			.getBranch()
			.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message.toolCallId] : []));
		expect(stored.length).toBeGreaterThan(0);
		for (const id of stored) expect(id).toMatch(/^call_[0-9a-z]+\|fc_[0-9a-z]+$/);
	});

	it("protects by the call_id the model saw", () => {
		const requests = agent.map((a) => a.request);
		expect(replyTo(API, requests, "protect").text).toMatch(/^Protected 1 entry: they stay raw/);
		const spec = probeCalls(API, requests[1]?.body ?? {}, "huge-spec")[0]?.id ?? "";
		expect(resultText(API, agent.at(-1)?.request.body ?? {}, spec)).toBe(codeText("huge-spec"));
	});

	it("folds from/to the call_ids the model saw; peeks and expands by the handle it saw", () => {
		expectFoldPeekExpand(
			API,
			agent.map((a) => a.request),
			handled,
		);
	});
});
