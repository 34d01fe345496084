// Folds of folds and the correction verbs: a span covering two adjacent folds becomes their parent
// (a consolidation); expansion goes outside-in one level at a time, nested folds staying collapsed;
// rebrief rewrites only its own placeholder; reboundary dissolves a fold back to raw bytes or
// merges adjacent folds; a protected fold is not absorbed. Plus the host integrations: evidence
// artifacts, projection candidates and the suggestion registrar.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SuggestionSource } from "../../src/options/index.ts";
import type { ProjectionCandidate } from "../../src/projection/index.ts";
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
	say,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];

function snap(h: Harness) {
	return h.runtime.snapshot(h.host());
}

/** The id of the fold whose first leaf answers / makes `callId`'s batch. */
function foldOf(h: Harness, callId: string): string {
	const s = snap(h);
	const entry = s.view.transcript.find(
		(e) => e.message.role === "assistant" && JSON.stringify(e.message.content).includes(`"id":"${callId}"`),
	);
	const fold = [...s.state.folds.values()].find((f) => f.leafIds[0] === entry?.id);
	if (!fold) throw new Error(`no fold starts at ${callId}`);
	return fold.id;
}

describe("folds of folds", () => {
	it("consolidate, expand outside-in one level at a time, and restore the exact bytes", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a" }, { action: "fold", from: "call_b", to: "call_b" }),
			() => callTool({ action: "fold", from: foldOf(h, "call_a"), to: foldOf(h, "call_b") }),
			() => {
				const parent = snap(h).lattice.get(foldOf(h, "call_a"))?.parent as string;
				return callTool({ action: "expand", id: foldOf(h, "call_a") }, { action: "expand", id: parent });
			},
			() => callTool({ action: "expand", id: foldOf(h, "call_a") }, { action: "status", detail: "tree" }),
			say("done"),
		]);
		await h.run("go");
		const texts = toolTexts(h);
		expect(texts[2]).toMatch(/^Folded f[0-9a-f]{16} \(consolidation, 4 entries/);
		expect(texts[3]).toMatch(/^expand refused: fold \S+ sits inside collapsed fold \S+; expand outside-in/);
		expect(texts[4]).toMatch(/Nested folds stay collapsed: f[0-9a-f]{16}, f[0-9a-f]{16}/);
		expect(texts[6]).toMatch(/Fold tree \(transcript order\)/);
		expect(texts[6]).toMatch(/\n {2}f[0-9a-f]{16} · tools · depth 1 · parent f/);
		// Before any fold (request 9) and after the last expand (request 13): a's batch is back byte
		// for byte, b's stays collapsed.
		const before = h.requests[9] as RecordedRequest;
		const after = h.requests[13] as RecordedRequest;
		const a = conversation(before).findIndex((m) => JSON.stringify(m).includes('"id":"call_a"'));
		expect(messageBytes(conversation(after)[a] as never)).toBe(messageBytes(conversation(before)[a] as never));
		expect(messageBytes(conversation(after)[a + 1] as never)).toBe(messageBytes(conversation(before)[a + 1] as never));
		expect(JSON.stringify(conversation(after)[a + 2])).toContain(`fold ${foldOf(h, "call_b")}`);
		for (const r of h.requests) expect(pairingProblems(r.messages)).toEqual([]);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});

describe("the correction verbs", () => {
	it("rebrief, dissolve and merge, and a protected fold is not absorbed", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool(
				{ action: "fold", from: "call_a", to: "call_a" },
				{ action: "fold", from: "call_b", to: "call_b" },
				{ action: "fold", from: "call_c", to: "call_c" },
			),
			() =>
				callTool(
					{ action: "rebrief", id: foldOf(h, "call_a"), brief: "Probe a: filler text, nothing of use." },
					{ action: "protect", id: foldOf(h, "call_c") },
					{ action: "fold", from: foldOf(h, "call_b"), to: foldOf(h, "call_c") },
					{ action: "reboundary", op: "merge", ids: [foldOf(h, "call_a"), foldOf(h, "call_b")] },
				),
			() => {
				const merged = [...snap(h).state.folds.values()].find((f) => f.leafIds.length === 4);
				return callTool({ action: "reboundary", op: "dissolve", ids: [merged?.id as string] });
			},
			say("done"),
		]);
		await h.run("go");
		const texts = toolTexts(h);
		expect(texts[3]).toMatch(/^New brief for /);
		expect(texts[5]).toMatch(/^fold refused: fold \S+ is protected and would be absorbed/);
		expect(texts[6]).toMatch(/^Merged f[0-9a-f]{16}, f[0-9a-f]{16} into f[0-9a-f]{16} \(4 entries\)/);
		expect(texts[7]).toMatch(/^Dissolved /);
		// The rebrief landed (request 11), and dissolving restored a and b byte for byte (request 12).
		expect(JSON.stringify(h.requests[11]?.messages)).toContain("Probe a: filler text, nothing of use.");
		const raw = conversation(h.requests[9] as RecordedRequest).map(messageBytes);
		const last = conversation(h.requests.at(-1) as RecordedRequest).map(messageBytes);
		expect(last.slice(0, 5)).toEqual(raw.slice(0, 5));
		expect(snap(h).state.folds.size).toBe(1);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});

describe("the host integrations", () => {
	it("write no evidence at tool_result time, provide candidates and accept suggestion sources", async () => {
		let provider: (() => ProjectionCandidate[]) | undefined;
		let registrar: ((source: SuggestionSource) => () => void) | undefined;
		const h = await createHarness({
			persistent: true,
			options: { setProjectionProvider: (p) => (provider = p), setSuggestionSourceRegistrar: (r) => (registrar = r) },
		});
		h.script([
			callProbes("huge1"),
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a" }),
			say("done"),
		]);
		await h.run("go");
		// A large result that fits the window is no evidence: nothing is written beside the fold store.
		expect(h.runtime.telemetry.view().evidence.written).toBe(0);
		expect(existsSync(join(h.sessionDir, "pi-fold-evidence"))).toBe(false);
		const candidates = provider?.() ?? [];
		expect(candidates).toHaveLength(1);
		expect(candidates[0]?.route).toEqual({
			tool: "active_context",
			arguments: { action: "expand", id: foldOf(h, "call_a") },
		});
		const unregister = registrar?.({ id: "test", suggest: () => [] });
		expect(typeof unregister).toBe("function");
	});
});
