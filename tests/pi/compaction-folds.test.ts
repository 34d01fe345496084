// Folds and Pi's native compaction living together, end to end in real in-process sessions, one per
// compaction path (threshold, overflow recovery, manual /compact), each over folds in force and a
// pending mark: the compaction's rewrite is attributed to it (zero unattributed rewrites), the mark
// whose entries were summarized is dropped with a note (an `unmark` record, one line to the human;
// never "refused at commit"), a fold whose entries were summarized stays peekable byte-exact from the
// fold store (and `search` finds its lines), and a fold whose entries the compaction kept stays
// expandable.

import type { Message } from "@earendil-works/pi-ai";
import { type FauxResponseStep, fauxAssistantMessage } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { isSummaryRequest } from "../../bench/session/compaction-summarizer.ts";
import { commits, folded, PROBE_READ_ONLY, pending, records } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	pairingProblems,
	probeResultText,
	resultEntryId,
	say,
	textOf,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const SMALL = ["s3", "s4", "s5", "s6", "s7"];
const SUMMARIES = [say("Summary of the session so far."), say("Summary of the turn prefix.")];

interface Scene {
	h: Harness;
	/** Committed fold of s1..s2: the compaction summarizes its entries. */
	early: string;
	/** Committed fold of s8: the compaction keeps its entries. */
	late: string;
	/** Pending mark of s3..s4: the compaction summarizes its entries. */
	mark: string;
}

/** A 16k-window epoch session with two folds in force and one pending mark. */
async function foldsAndAMark(reserveTokens: number, evidenceIngestion = true): Promise<Scene> {
	const h = await createHarness({
		contextWindow: 16_000,
		compaction: { enabled: true, reserveTokens, keepRecentTokens: 700 },
		options: {
			foldScheduling: "epoch",
			readOnlyTools: PROBE_READ_ONLY,
			summarizer: "deterministic",
			evidenceIngestion,
		},
	});
	h.script([
		callProbes("s1"),
		callProbes("s2"),
		callTool({ action: "fold", from: "call_s1", to: "call_s2", brief: "the first two small probes" }),
		...["big1", "big2", "big3", "big4"].map((k) => callProbes(k)),
		say("first run done"),
	]);
	await h.run("go");
	h.script([
		...SMALL.map((k) => callProbes(k)),
		callProbes("s8"),
		callTool({ action: "fold", from: "call_s8", to: "call_s8", brief: "the last small probe" }),
		callProbes("s9"),
		callTool({ action: "fold", from: "call_s3", to: "call_s4", brief: "the next two small probes" }),
		say("second run done"),
	]);
	await h.run("more");
	const [early, late] = folded(h);
	const [mark] = pending(h);
	if (!early || !late || !mark) throw new Error(`scene not set: folds ${folded(h)}, marks ${pending(h)}`);
	expect(commits(h)).toHaveLength(2);
	return { h, early, late, mark };
}

function compactions(h: Harness): number {
	return h.session.sessionManager.getBranch().filter((e) => e.type === "compaction").length;
}

/**
 * What every path must leave behind once the session goes on after the compaction. The mark was
 * still pending at the compaction ("dropped": withdrawn with a note) or a commit had applied it first.
 */
async function livesWithTheCompaction(scene: Scene, before: number, mark: "dropped" | "committed"): Promise<void> {
	const { h, early } = scene;
	expect(compactions(h)).toBe(1);
	// A fold whose entries the compaction kept (the late one, unless later folds nest over it).
	const snap = h.runtime.snapshot(h.host());
	const kept = [...snap.state.folds.keys()].findLast((id) => snap.lattice.get(id) !== undefined);
	if (!kept) throw new Error("no fold survived the compaction in the window");
	const keptLeaves = snap.view.transcript.filter((e) => snap.lattice.get(kept)?.record.leafIds.includes(e.id));
	h.script([
		callTool({ action: "peek", id: early }),
		callTool({ action: "peek", id: scene.mark }),
		callTool({ action: "expand", id: early }),
		callTool({ action: "expand", id: kept }),
		callTool({ action: "search", pattern: "probe s2:" }),
		say("carrying on"),
	]);
	await h.run("carry on");
	const unmark = records(h).find((r) => r.kind === "unmark" && r.foldId === scene.mark);
	const notices = h.notices.slice(before);
	const dropped = notices.filter((n) => n.includes(`mark ${scene.mark} dropped`));
	if (mark === "dropped") {
		// Dropped with a note, once: an unmark record and one line to the human.
		expect(unmark).toMatchObject({ actor: "ladder", note: "its entries were summarized by Pi's native compaction" });
		expect(dropped).toHaveLength(1);
	} else {
		expect(unmark).toBeUndefined();
		expect(dropped).toEqual([]);
	}
	expect(pending(h)).toEqual([]);
	expect(notices.some((n) => n.includes("refused at commit"))).toBe(false);
	const [peekEarly, peekMark, expandEarly, expandKept, search] = toolTexts(h).slice(-5);
	// The agent's search still finds a line of the fold made before the compaction, in that fold.
	expect(search).toMatch(new RegExp(`^1\\. ${early} · .*\\n.*«probe s2:»`, "m"));
	// The early fold's entries are summarized, its source is not: peek reads it byte-exact, and expand
	// says why it cannot show it and how to read it.
	expect(peekEarly).toContain(probeResultText("s1"));
	expect(peekEarly).toContain(probeResultText("s2"));
	expect(expandEarly).toMatch(
		new RegExp(
			`^expand refused: fold ${early} cannot be shown here: entry \\w+ is no longer in the context; Pi's native compaction summarized its entries, so there is no place to restore it; .*"peek".* still reads its original`,
		),
	);
	// The mark's source was stored when it was made: even dropped, it reads back exactly.
	expect(peekMark).toContain(probeResultText("s3"));
	// A fold whose entries are still in the window expands: its originals are back in the next request.
	expect(expandKept).toMatch(/^Expanding /);
	const last = h.requests.at(-1)?.messages ?? [];
	const texts = new Set(last.map((m) => textOf(m)));
	for (const leaf of keptLeaves) expect(texts.has(textOf(leaf.message as Message))).toBe(true);
	// Every rewrite the provider saw has an owner: a commit or the compaction.
	expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	for (const request of h.requests) expect(pairingProblems(request.messages)).toEqual([]);
}

describe("folds in force across a native compaction", () => {
	it("a manual /compact: passes, and the session goes on with its folds", async () => {
		const scene = await foldsAndAMark(2_000);
		const before = scene.h.notices.length;
		scene.h.script(SUMMARIES);
		await scene.h.session.compact();
		expect(scene.h.runtime.telemetry.view().compactions.recent.at(-1)).toMatchObject({ reason: "manual" });
		await livesWithTheCompaction(scene, before, "dropped");
	});

	it("an overflow recovery: Pi compacts as the last resort and retries; the folds live on", async () => {
		const scene = await foldsAndAMark(2_000);
		const { h } = scene;
		const before = h.notices.length;
		h.script([
			fauxAssistantMessage("", {
				stopReason: "error",
				errorMessage: "prompt is too long: 213462 tokens > 200000 maximum",
			}),
			...SUMMARIES,
			say("done after the retry"),
		]);
		await h.run("one more thing");
		expect(h.runtime.telemetry.view().compactions.recent.at(-1)).toMatchObject({
			reason: "overflow",
			decision: "passed",
		});
		await livesWithTheCompaction(scene, before, "dropped");
	});

	it("a threshold compaction pi-fold cannot avoid (protected results): passes; the folds live on", async () => {
		// Results too large for the window would show as excerpts (no compaction needed): off here, so the
		// protected results leave pi-fold nothing to fold.
		const scene = await foldsAndAMark(2_000, false);
		const { h } = scene;
		const before = h.notices.length;
		const bigs = ["big5", "big6", "big7", "big8", "big9", "big10"];
		const protect = (key: string) => () => callTool({ action: "protect", ids: [resultEntryId(h, `call_${key}`)] });
		// Pi compacts before the next assistant response, mid-run: its summary requests are answered
		// as they come, and the agent's own steps keep their order.
		const steps: FauxResponseStep[] = [
			callTool({ action: "protect", ids: ["big1", "big2", "big3", "big4"].map((k) => resultEntryId(h, `call_${k}`)) }),
			...bigs.flatMap((k) => [callProbes(k), protect(k)]),
			callProbes("s10"),
			callTool({ action: "fold", from: "call_s10", to: "call_s10", brief: "one more small probe" }),
			say("protected everything"),
		];
		const respond: FauxResponseStep = (context, ...rest) => {
			if (isSummaryRequest(context.messages)) return say("Summary of the session so far.");
			const step = steps.shift() ?? say("idle");
			return typeof step === "function" ? step(context, ...rest) : step;
		};
		h.script(Array.from({ length: steps.length + SUMMARIES.length }, () => respond));
		await h.run("read and keep");
		h.faux.setResponses([]);
		expect(steps).toEqual([]);
		// The pressure backstop committed the mark before Pi's threshold check ran: it is a fold now.
		expect(folded(h)).toContain(scene.mark);
		const threshold = h.runtime.telemetry.view().compactions.recent.filter((c) => c.reason === "threshold");
		expect(threshold.at(-1)).toMatchObject({ decision: "passed" });
		await livesWithTheCompaction(scene, before, "committed");
	});
});
