// Test helper: the scripted model's moves for wire sessions. A probe batch (one `probe` call), a
// call to the context tool, a stage (probe batches, optionally a huge result near the end, then a
// hand-in reply), running one prompt to completion with its script fully consumed, and the agent's
// fold / peek / expand by the ids it read off the wire, with what that must leave on the wire. With
// `thinking` the model thinks before every tool call (Anthropic's rule for a tool-use turn when
// thinking is on).

import { expect } from "vitest";
import { spanBytes } from "./checks.ts";
import { callsOnWire, handleWithBrief, resultText, type WireCall } from "./ids.ts";
import type { ScriptedReply, Step, WireRequest } from "./server.ts";
import type { WireApi, WireSession } from "./session.ts";

/** One probe batch. */
export function probe(key: string, thinking = false): ScriptedReply {
	return { ...(thinking ? { thinking: `read ${key}` } : {}), calls: [{ name: "probe", args: { key } }] };
}

/** One call to the context tool. */
export function tool(args: Record<string, unknown>, thinking = false): ScriptedReply {
	return {
		...(thinking ? { thinking: `call ${String(args.action)}` } : {}),
		calls: [{ name: "active_context", args }],
	};
}

/** Stage `s`: `batches` big probe batches (a huge one before the last two when `huge`), then a hand-in reply. */
export function stage(s: number, batches: number, opts: { huge?: boolean; thinking?: boolean } = {}): Step[] {
	const steps: Step[] = [];
	for (let b = 0; b < batches; b++) steps.push(probe(`big-${s}-${b}`, opts.thinking));
	if (opts.huge) steps.splice(Math.max(0, steps.length - 2), 0, probe(`huge-${s}`, opts.thinking));
	return [...steps, { text: `stage ${s} handed in: receipt R-${s}` }];
}

/** Runs `prompt` with `steps` scripted, and checks the model used every step. */
export async function runStage(w: WireSession, prompt: string, steps: readonly Step[]): Promise<void> {
	w.server.script(steps);
	await w.h.run(prompt);
	expect(w.server.pending()).toBe(0);
}

/** What the agent did with the ids it read off the wire. */
export interface Handled {
	/** The call ids (as the API shows them) of the probes it folded as one span. */
	folded: string[];
	/** Their probe keys. */
	keys: string[];
	/** What the fold call answered. */
	foldReply: string;
	/** The fold's handle, read off its placeholder. */
	handle: string;
	/** The request the fold was asked from (the window before it). */
	beforeFold?: WireRequest;
}

/** The brief the agent gives its fold (found again on the wire to read the handle). */
export const FOLD_BRIEF = "probes handed in earlier: settings read and validated";

/**
 * Three moves: fold the probe calls `pick` chooses (by the ids the wire shows), peek the fold by the
 * handle its placeholder shows, expand it by that handle. Fills `handled` as they run.
 */
export function foldPeekExpand(
	api: WireApi,
	pick: (body: Record<string, unknown>) => WireCall[],
	handled: Handled,
	thinking = false,
): Step[] {
	return [
		(req) => {
			const calls = pick(req.body);
			handled.folded = calls.map((c) => c.id);
			handled.keys = calls.map((c) => String(c.args.key));
			handled.beforeFold = req;
			return tool({ action: "fold", from: calls[0]?.id, to: calls.at(-1)?.id, brief: FOLD_BRIEF }, thinking);
		},
		(req) => {
			handled.foldReply = resultText(api, req.body, callsOnWire(api, req.body).at(-1)?.id ?? "") ?? "";
			handled.handle = handleWithBrief(req.raw, FOLD_BRIEF);
			return tool({ action: "peek", id: handled.handle, bytes: 4000 }, thinking);
		},
		(req) => tool({ action: "expand", id: handleWithBrief(req.raw, FOLD_BRIEF) }, thinking),
	];
}

/** The reply to the first call of `action` the wire shows, and the request that carried it. */
export function replyTo(api: WireApi, requests: readonly WireRequest[], action: string) {
	const call = requests.flatMap((r) => callsOnWire(api, r.body)).find((c) => c.args.action === action);
	const request = requests.find((r) => resultText(api, r.body, call?.id ?? "") !== undefined);
	return { request, text: resultText(api, request?.body ?? {}, call?.id ?? "") ?? "" };
}

/** The fold landed, the peek returned its exact source, the expand restored its messages byte for byte. */
export function expectFoldPeekExpand(api: WireApi, requests: readonly WireRequest[], handled: Handled): void {
	expect(handled.folded.length).toBeGreaterThanOrEqual(2);
	expect(handled.foldReply).toMatch(/^Folded f[0-9a-f]{16} /);
	expect(handled.handle).toMatch(/^f[0-9a-f]{16}$/);
	expect(replyTo(api, requests, "peek").text).toContain(`// probe ${handled.keys[0]}`);
	const expanded = replyTo(api, requests, "expand");
	expect(expanded.text).toMatch(/^Expanding/);
	const span = (body: Record<string, unknown>) => spanBytes(api, body, handled.folded);
	const before = span(handled.beforeFold?.body ?? {});
	expect(before.length).toBeGreaterThanOrEqual(2 * handled.folded.length);
	expect(span(expanded.request?.body ?? {})).toEqual(before);
}
