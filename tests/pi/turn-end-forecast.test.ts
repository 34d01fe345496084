// pi-fold handles `turn_end` only where its boundary may commit (src/pi turn-end-forecast.ts): the
// forecast at the turn's last tool result must never say "nothing commits" of a boundary that
// commits (returns drafts or appends a record), and skipping the boundaries it rules out must change
// nothing the provider is sent. Each session is played twice on a real in-process Pi session (faux
// provider): once with the audit seam (the handler kept at every boundary, each turn's forecast
// reported beside what its boundary did), once as the package runs (the handler taken off where the
// forecast rules the boundary out); the two send the same number of requests, of the same number of
// messages, role for role (their text differs between any two plays of a session by the ids, times
// and durations Pi stamps, and what those bytes move in a brief, so the text is not compared; in the
// 32k shape and the scripted session two audited plays differ now and then in which spans a commit
// folds, a choice those few bytes tip, so there only the requests and the commits are counted). The
// sessions: the randomized sweep's generated shapes (cost, epoch and immediate scheduling, thinking,
// parallel batches, a result past the tail's share, one larger than the window) and a scripted one
// in which the agent folds, expands and searches through the tool.

import { afterAll, describe, expect, it } from "vitest";
import type { BoundaryAuditEntry } from "../../src/pi/index.ts";
import { runFoldCommand } from "../../src/runtime/index.ts";
import { type Mode, PLAIN_SHAPE, type Shape } from "../simulate/shapes.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { type Played, played, playShape } from "./forecast-play.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, say } from "./harness.ts";

afterAll(cleanupTempDirs);

/** Both plays agree, the forecast never ruled out a boundary that committed, and some were ruled out. */
function expectSound(audited: Played, plain: Played, roles = true): void {
	const missed = audited.audit.filter((e) => e.forecast === false && e.committed);
	expect(missed).toEqual([]);
	// The size the forecast reads is the size of the preview Pi built, at every boundary.
	expect(audited.audit.filter((e) => e.previewTokens !== e.trackedTokens)).toEqual([]);
	expect(audited.audit.filter((e) => e.forecast === false).length).toBeGreaterThan(0);
	expect(audited.commits).toBeGreaterThan(0);
	expect(plain.commits).toBe(audited.commits);
	expect(plain.requests.length).toBe(audited.requests.length);
	if (roles) expect(plain.requests).toEqual(audited.requests);
}

const base = PLAIN_SHAPE;

const SHAPES: { name: string; mode: Mode; shape: Shape; roles?: false }[] = [
	{
		name: "cost, 16k, thinking and a result past the tail's share",
		mode: "cost",
		shape: {
			...base,
			seed: 21,
			window: 16_000,
			prompts: 3,
			turnsPerPrompt: 8,
			maxBatch: 3,
			stepShare: 0.07,
			thinking: { chars: 300, share: 0.5 },
			sized: [{ turn: 5, share: 0.4 }],
		},
	},
	{
		name: "cost, 32k, parallel batches, one read larger than the window, Pi's threshold compaction on",
		mode: "cost",
		shape: {
			...base,
			seed: 22,
			window: 32_000,
			prompts: 2,
			turnsPerPrompt: 10,
			maxBatch: 4,
			stepShare: 0.06,
			huge: 7,
			compaction: { threshold: true, reserve: 0.2, keep: 0.1 },
		},
		roles: false,
	},
	{
		name: "epoch, 24k",
		mode: "epoch",
		shape: { ...base, seed: 23, window: 24_000, prompts: 3, turnsPerPrompt: 7, maxBatch: 5, stepShare: 0.08 },
	},
	{
		name: "immediate, 20k",
		mode: "immediate",
		shape: { ...base, seed: 24, window: 20_000, prompts: 2, turnsPerPrompt: 9, maxBatch: 2, stepShare: 0.06 },
	},
];

describe("turn_end only where the boundary may commit", () => {
	for (const { name, mode, shape, roles } of SHAPES)
		it(`never rules out a boundary that commits, and changes no request: ${name}`, async () => {
			const audited = await playShape(shape, mode, true);
			const plain = await playShape(shape, mode, false);
			expectSound(audited, plain, roles);
		});

	it("does the same where the agent folds, expands and searches through the tool", async () => {
		const play = async (audit: boolean): Promise<Played> => {
			const entries: BoundaryAuditEntry[] = [];
			const h = await createHarness({
				contextWindow: 16_000,
				// Immediate scheduling: the agent's fold lands at the next boundary, whatever the system
				// prompt's size (a checkout's path is in it), so the second prompt has it to expand.
				options: { foldScheduling: "immediate", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
				extras: audit ? { boundaryAudit: (entry) => entries.push(entry) } : {},
			});
			const reads = Array.from({ length: 14 }, (_, i) => callProbes(`big${i}`));
			h.script([
				...reads.slice(0, 6),
				callTool({ action: "fold", from: "call_big0", to: "call_big2", brief: "the first three reads" }),
				...reads.slice(6, 10),
				callTool({ action: "search", pattern: "big1" }),
				...reads.slice(10),
				say("done"),
			]);
			await h.run("Read them all.");
			// The agent's own fold (the same fold in every play; the ladder's differ now and then by the bytes of Pi's ids).
			const mine = [...h.runtime.snapshot(h.host()).state.folds.values()].find((f) => f.origin === "agent");
			expect(mine).toBeDefined();
			h.script([callTool({ action: "expand", id: mine?.id }), callProbes("big20"), callProbes("big21"), say("ok")]);
			await h.run("Look at the first fold again.");
			return played(h, entries);
		};
		const audited = await play(true);
		const plain = await play(false);
		// Two audited plays of this session differ now and then in which spans a commit folds: counts only.
		expectSound(audited, plain, false);
	});

	it("handles the boundary again when a decision is recorded after the forecast (the human's command while a tool runs)", async () => {
		let late: (() => Promise<unknown>) | null = null;
		const h = await createHarness({
			contextWindow: 16_000,
			options: { foldScheduling: "immediate", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
			// After pi-fold's own message_end handlers, so after the forecast of the turn.
			setup: (api) =>
				api.on("message_end", async (event) => {
					const m = event.message as { role?: string; toolCallId?: string };
					if (m.role === "toolResult" && m.toolCallId === "call_x6") await late?.();
				}),
		});
		late = () => runFoldCommand(h.runtime, h.host(), "fold call_x0 call_x0 the first read, folded by the human");
		h.script([...Array.from({ length: 8 }, (_, i) => callProbes(`x${i}`)), say("done")]);
		await h.run("Read eight.");
		// Request 7 follows x6's boundary: the human's fold landed there, not one turn later.
		const shown = h.requests.map((r) => JSON.stringify(r.messages).includes("folded by the human"));
		expect(shown.indexOf(true)).toBe(7);
	});
});
