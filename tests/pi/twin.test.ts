// The runtime makes the same decisions with or without Pi: a real in-process Pi session (faux
// provider, the automatic ladder, the agent's own folds, epoch and immediate scheduling) is recorded,
// then its messages are replayed through the simulator (src/simulate) with the same options and the
// same model window. Every decision record pi-fold wrote and every context edit it proposed are
// identical, pi-fold's own receipts named by their order (each host gives them its own entry ids, so
// the records' chain digests, which hash those ids, are left out of the comparison); and the context
// tool's replies read the same. A test below checks that receipts of earlier commits do leave.

import type { AssistantMessage, Message } from "@earendil-works/pi-ai";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { type PiFoldOptions, resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import { drive, MemoryStore, type ReplayMessage, SimSession } from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { PROBE_READ_ONLY, records } from "./epoch-helpers.ts";
import { callProbes, cleanupTempDirs, createHarness, type Harness, say, textOf } from "./harness.ts";

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

function piEdits(h: Harness): { targetId: string; replacement: unknown }[] {
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
	return { result, decisions, edits, entries: session.entries };
}

function receiptIds(entries: readonly { type: string; id: string; customType?: string }[], type: string): string[] {
	return entries.filter((e) => e.type === "custom_message" && e.customType === type).map((e) => e.id);
}

/** An edit with a receipt target named by its order (`receipt 0`, ...). */
function named<T extends { targetId: string }>(edit: T, receipts: readonly string[]): T {
	const n = receipts.indexOf(edit.targetId);
	return n < 0 ? edit : { ...edit, targetId: `receipt ${n}` };
}

/** A decision record's body (chain fields dropped: they hash the receipt ids), receipts named by order. */
function bodyOf(record: unknown, receipts: readonly string[]): unknown {
	const { digest: _d, prev: _p, mac: _m, ...body } = record as Record<string, unknown>;
	const edits = body.edits as { targetId: string }[] | undefined;
	return edits ? { ...body, edits: edits.map((e) => named(e, receipts)) } : body;
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
			// pi-fold's receipts get their ids from each host: compare by their order instead.
			const piReceipts = receiptIds(h.session.sessionManager.getBranch(), h.runtime.receiptType);
			const simReceipts = receiptIds(sim.entries, h.runtime.receiptType);
			expect(simReceipts.length).toBe(piReceipts.length);
			expect(sim.decisions.map((d) => bodyOf(d, simReceipts))).toEqual(pi.map((r) => bodyOf(r, piReceipts)));
			expect(sim.edits.map((e) => named(e, simReceipts))).toEqual(piEdits(h).map((e) => named(e, piReceipts)));
		});
	}

	it("lets the receipts of earlier commits leave with a later commit's rewrite, never before its first change", async () => {
		const options: PiFoldOptions = {
			foldScheduling: "epoch",
			readOnlyTools: PROBE_READ_ONLY,
			summarizer: "deterministic",
		};
		const h = await recordPiSession(options);
		const receipts = receiptIds(h.session.sessionManager.getBranch(), h.runtime.receiptType);
		const shown = (r: { messages: Message[] }) =>
			r.messages.filter((m) => m.role === "user" && textOf(m).startsWith("[active-context commit #")).length;
		expect(receipts.length).toBeGreaterThan(2);
		// Each request carries fewer receipts than commits so far: older ones were omitted at a commit.
		expect(shown(h.requests.at(-1) as { messages: Message[] })).toBeLessThan(receipts.length);
		const omitted = piEdits(h).filter((e) => receipts.includes(e.targetId));
		expect(omitted.length).toBeGreaterThan(0);
		expect(omitted.every((e) => e.replacement === null)).toBe(true);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});
