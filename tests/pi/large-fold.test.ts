// A large fold in a real Pi session (issue 10, item 6): a fold of hundreds of entries lands at the
// next request as exactly one brief at its first leaf with every other leaf omitted, every other
// message byte-identical; it takes exactly one `context_edit` per visible leaf (a brief, then
// omissions) and no more (a fold over an earlier fold re-edits only what is still visible); its
// source peeks back byte-exact and SHA-256-verified, and expanding restores the original window
// byte for byte. Also pins why a large fold lands fast: pi-fold has ONE handler per boundary event,
// because Pi re-applies every draft after each boundary handler (docs/runtime.md, "Large folds").

import type { Message } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { type FoldRecord, foldSource } from "../../src/lattice/index.ts";
import { registerPiFold } from "../../src/pi/index.ts";
import { renderPlaceholder } from "../../src/projection/index.ts";
import { manifestDigestOf } from "../../src/runtime/index.ts";
import { createProbeTool } from "../helpers/pi-session.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type Harness,
	messageBytes,
	pairingProblems,
	type RecordedRequest,
	relation,
	say,
	tempDir,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const BATCH = 60;
const NAMES = { brandNoun: "active-context", toolName: "active_context" };
/** A short result, so a batch of 60 stays small. */
const probe = createProbeTool((key) => `probe ${key}: ok`);

/** One assistant message calling `probe` BATCH times: one unit of BATCH + 1 entries. */
function batch(prefix: string) {
	return callProbes(...Array.from({ length: BATCH }, (_, i) => `${prefix}${i}`));
}

/** Four batches (a-d, 244 entries), then seven small turns so the batches leave the fresh tail. */
const HISTORY = [..."abcd"].map(batch).concat([..."tuvwxyz"].map((k) => callProbes(k)));

function contextEdits(h: Harness) {
	return h.session.sessionManager.getEntries().flatMap((e) => (e.type === "context_edit" ? [e] : []));
}

function folds(h: Harness): FoldRecord[] {
	return [...h.runtime.snapshot(h.host()).state.folds.values()];
}

function messageOf(h: Harness, id: string): Message {
	const entry = h.session.sessionManager.getEntry(id);
	if (entry?.type !== "message") throw new Error(`entry ${id} is not a message`);
	return entry.message as Message;
}

function request(h: Harness, i: number): RecordedRequest {
	const r = h.requests[i];
	if (!r) throw new Error(`no request ${i}`);
	return r;
}

/** The window the fold implies: `before` with its leaves replaced by one brief at the first leaf. */
function expectedWindow(h: Harness, before: Message[], fold: FoldRecord, at: number): string[] {
	const first = messageOf(h, fold.leafIds[0] as string);
	const brief = { ...first, content: [{ type: "text", text: renderPlaceholder(fold, NAMES) }] } as Message;
	return [...before.slice(0, at), brief, ...before.slice(at + fold.leafIds.length)].map(messageBytes);
}

/** The source read back by the `pages` peeks before the last tool reply (each: header, slice, footer). */
function peekedSource(h: Harness, pages: number): string {
	return toolTexts(h)
		.slice(-pages - 1, -1)
		.map((text) => text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n")))
		.join("");
}

describe("a fold of hundreds of entries", () => {
	it("lands as one brief and one edit per leaf, peeks byte-exact and expands to the original window", async () => {
		const h = await createHarness({ probe });
		h.script([
			...HISTORY,
			callTool({ action: "fold", from: "call_a0", to: `call_d${BATCH - 1}`, brief: "Probed a0 to d59: all ok." }),
			say("folded"),
		]);
		await h.run("probe everything");
		const [fold] = folds(h);
		if (!fold) throw new Error(`no fold: ${toolTexts(h).at(-1)}`);
		expect(fold.leafIds).toHaveLength(4 * (BATCH + 1));

		// One context_edit per leaf: the brief on the first, omissions on the rest, in leaf order.
		const edits = contextEdits(h);
		expect(edits.map((e) => e.targetId)).toEqual(fold.leafIds);
		expect(edits[0]?.replacement).not.toBeNull();
		expect(edits.slice(1).every((e) => e.replacement === null)).toBe(true);

		// The next request is the previous one with the span replaced by the brief, byte for byte.
		const before = conversation(request(h, HISTORY.length));
		const folded = conversation(request(h, HISTORY.length + 1));
		const at = before.findIndex((m) => m.role === "assistant" && messageBytes(m).includes('"call_a0"'));
		expect(relation(request(h, HISTORY.length), request(h, HISTORY.length + 1))).toEqual({
			kind: "rewrite",
			firstDivergence: at,
		});
		const appended = folded.slice(before.length - fold.leafIds.length + 1).map(messageBytes);
		expect(folded.map(messageBytes)).toEqual([...expectedWindow(h, before, fold, at), ...appended]);
		expect(pairingProblems(folded)).toEqual([]);

		// Peek reads the exact source back; expand restores the original window byte for byte.
		const leaves = fold.leafIds.map((id) => ({ id, message: messageOf(h, id) as never }));
		const source = foldSource(leaves);
		// The record's digest is its manifest's root over these entries; its size, the source's.
		expect(manifestDigestOf(fold.id, leaves)).toBe(fold.sourceSha256);
		expect(Buffer.byteLength(source, "utf8")).toBe(fold.sourceBytes);
		const pages = Math.ceil(fold.sourceBytes / 64_000);
		h.script([
			...Array.from({ length: pages }, (_, p) =>
				callTool({ action: "peek", id: fold.id, offset: p * 64_000, bytes: 64_000 }),
			),
			callTool({ action: "expand", id: fold.id }),
			say("expanded"),
		]);
		const editsBefore = contextEdits(h).length;
		await h.run("read it back, then expand");
		expect(pages).toBeGreaterThan(1);
		expect(peekedSource(h, pages)).toBe(source);
		// Expanding restores each leaf: one restore edit per leaf.
		expect(contextEdits(h).length - editsBefore).toBe(fold.leafIds.length);
		const restored = conversation(h.requests.at(-1) as RecordedRequest);
		expect(restored.slice(0, before.length).map(messageBytes)).toEqual(before.map(messageBytes));
		expect(pairingProblems(restored)).toEqual([]);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});

	it("over an earlier fold edits only the entries still visible", async () => {
		const h = await createHarness({ probe });
		h.script([
			...HISTORY,
			callTool({ action: "fold", from: "call_a0", to: `call_a${BATCH - 1}` }),
			callTool({ action: "fold", from: "call_a0", to: `call_d${BATCH - 1}` }),
			callTool({ action: "fold", from: "call_a0", to: `call_d${BATCH - 1}` }),
			say("folded"),
		]);
		await h.run("probe everything");
		const all = contextEdits(h);
		// The inner fold: its BATCH + 1 leaves. The outer fold: the brief moves onto the shared first
		// leaf (one edit); the inner fold's other leaves stay omitted (no edit); batches b-d are omitted.
		expect(all).toHaveLength(BATCH + 1 + 1 + 3 * (BATCH + 1));
		const outer = all.slice(BATCH + 1);
		expect(outer[0]?.targetId).toBe(all[0]?.targetId);
		expect(outer.slice(1).every((e) => e.replacement === null)).toBe(true);
		expect(new Set(all.map((e) => e.targetId)).size).toBe(4 * (BATCH + 1));
		// Folding the same span again is the same fold: no edit at all.
		expect(toolTexts(h).at(-1)).toMatch(/^Already folded/);
		expect(folds(h)).toHaveLength(2);
	});
});

describe("pi-fold's boundary handlers", () => {
	it("are one per boundary event, so Pi applies a commit's drafts once for its preview", () => {
		const counts = new Map<string, number>();
		const api = new Proxy({} as ExtensionAPI, {
			get: (_target, key) =>
				key === "on" ? (event: string) => void counts.set(event, (counts.get(event) ?? 0) + 1) : () => undefined,
		});
		registerPiFold(api, {}, { agentDir: tempDir() });
		expect(counts.get("turn_end")).toBe(1);
		expect(counts.get("agent_before_settle")).toBe(1);
	});
});
