// The runtime makes the same decisions with or without Pi: a real in-process Pi session (faux
// provider, the automatic ladder, the agent's own folds, epoch and immediate scheduling) is recorded,
// then its messages are replayed through the simulator (src/simulate) with the same options and the
// same model window. Every decision record pi-fold wrote (hash-chained, so one differing byte
// anywhere breaks the chain) and every context edit it proposed are identical, and the context
// tool's replies read the same.

import type { AssistantMessage } from "@earendil-works/pi-ai";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { type PiFoldOptions, resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { PROBE_READ_ONLY, records } from "./epoch-helpers.ts";
import { callProbes, cleanupTempDirs, createHarness, type Harness, say } from "./harness.ts";

afterAll(cleanupTempDirs);

const WINDOW = 16_000;

/** The agent folds the span of its first two probe batches, by its own tool call ids. */
function foldFirstBatches(): AssistantMessage {
	return fauxAssistantMessage(
		[
			fauxToolCall(
				"active_context",
				{ action: "fold", from: "call_big1", to: "call_big2", brief: "read big1 and big2, both lorem ipsum filler" },
				{ id: "ctx_fold" },
			),
		],
		{ stopReason: "toolUse" },
	);
}

async function recordPiSession(options: PiFoldOptions): Promise<Harness> {
	const h = await createHarness({ contextWindow: WINDOW, options });
	const keys = Array.from({ length: 16 }, (_, i) => `big${i + 1}`);
	h.script([
		callProbes("big1"),
		callProbes("big2"),
		callProbes("big3"),
		foldFirstBatches(),
		...keys.slice(3).map((k) => callProbes(k)),
		say("done"),
	]);
	await h.run("go");
	return h;
}

/** The Pi session's messages as the simulator replays them (same entry ids and messages). */
function recorded(h: Harness): ReplayMessage[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) => (e.type === "message" ? [{ id: e.id, message: e.message as unknown as TranscriptMessage }] : []));
}

function piEdits(h: Harness): unknown[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) => (e.type === "context_edit" ? [{ targetId: e.targetId, replacement: e.replacement }] : []));
}

async function replay(h: Harness, options: PiFoldOptions) {
	const runtime = new FoldRuntime(resolveOptions(options), () => new MemoryStore());
	// The agent directory Pi's host reads (tests/setup/agent-dir.ts): the same key signs both sides' records.
	const session = new SimSession({
		model: { contextWindow: WINDOW, maxTokens: 4096 },
		systemPrompt: h.session.systemPrompt,
		agentDir: process.env.PI_CODING_AGENT_DIR,
	});
	const result = await drive(runtime, session, recorded(h), { usage: "recorded" });
	const decisions = session.entries.flatMap((e) =>
		e.type === "custom" && e.customType === runtime.names.decisionEntryType ? [e.data] : [],
	);
	const edits = session.entries.flatMap((e) =>
		e.type === "context_edit" ? [{ targetId: e.targetId, replacement: e.replacement }] : [],
	);
	return { result, decisions, edits };
}

describe("the runtime without Pi and in Pi", () => {
	for (const foldScheduling of ["immediate", "epoch"] as const) {
		it(`makes the same decisions and edits on the same transcript (${foldScheduling} scheduling)`, async () => {
			const options: PiFoldOptions = { foldScheduling, readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" };
			const h = await recordPiSession(options);
			const pi = records(h);
			expect(pi.filter((r) => r.kind === "commit").length).toBeGreaterThan(0);
			expect(pi.some((r) => (r.kind === "fold" || r.kind === "mark") && r.actor === "agent")).toBe(true);
			expect(pi.some((r) => (r.kind === "fold" || r.kind === "mark") && r.actor === "ladder")).toBe(true);
			const sim = await replay(h, options);
			expect(sim.result.errors).toEqual([]);
			expect(sim.result.divergences).toEqual([]);
			expect(sim.decisions.map((d) => (d as { digest: string }).digest)).toEqual(pi.map((r) => r.digest));
			expect(sim.edits).toEqual(piEdits(h));
		});
	}
});
