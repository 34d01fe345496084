// Epoch scheduling end to end in a real Pi session on the faux provider: a fold action records a
// free mark (the next request is a pure append, read whole from the faux prefix cache); nothing
// commits below 80% of the serving budget; crossing 80% with stale tool mass lands every mark in ONE
// rewrite; unmark withdraws; a protected mark refuses by name while the rest apply; a fresh-tail
// mark waits and lands once aged out; a mark at the very end applies at once; an expand with marks
// pending is one rewrite; every rewrite is attributed to a commit.

import { afterAll, describe, expect, it } from "vitest";
import { COMMIT_TARGET_SHARE } from "../../src/policy/index.ts";
import { RECEIPT_MAX_CHARS, renderStatus, type SchedulingStatus, statusModel } from "../../src/runtime/index.ts";
import { estimateTokens } from "../../src/wasm/index.ts";
import { commits, folded, PROBE_READ_ONLY, pending, relations } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	pairingProblems,
	type RecordedRequest,
	resultEntryId,
	say,
	textOf,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

/** 16k window, 4,096 reserved: a serving budget of 11,904 tokens; a "big" probe is ~1.4k tokens. */
const WINDOW = 16_000;

function epochHarness(extra: Record<string, unknown> = {}): Promise<Harness> {
	return createHarness({
		contextWindow: WINDOW,
		options: { foldScheduling: "epoch", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic", ...extra },
	});
}

function prompt(r: RecordedRequest): number {
	const u = r.usage;
	return u ? u.input + u.cacheRead + u.cacheWrite : 0;
}

function zeroUnattributed(h: Harness): void {
	expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	for (const request of h.requests) expect(pairingProblems(request.messages)).toEqual([]);
}

describe("epoch marks", () => {
	it("moves no byte: the request after a mark is a pure append read whole from cache, and nothing commits below 80%", async () => {
		const h = await epochHarness();
		h.script([
			callProbes("s1"),
			callProbes("s2"),
			callProbes("s3"),
			callProbes("s4"),
			callTool({ action: "fold", from: "call_s1", to: "call_s2" }),
			callProbes("s5"),
			say("done"),
		]);
		await h.run("go");
		expect(toolTexts(h)[0]).toMatch(/^Marked f[0-9a-f]{16} /);
		expect(
			relations(h)
				.slice(1)
				.every((k) => k === "append"),
		).toBe(true);
		for (let i = 1; i < h.requests.length; i++)
			expect(h.requests[i]?.usage?.cacheRead, `request ${i}`).toBe(prompt(h.requests[i - 1] as RecordedRequest));
		expect(commits(h)).toEqual([]);
		expect(pending(h)).toHaveLength(1);
		expect(h.runtime.telemetry.view().schedule?.reason).toMatch(/^holding 1 mark/);
		// Status shows the mark with its origin, what a commit would free and the prefix it rewrites.
		const status = renderStatus(statusModel(h.runtime, h.host()));
		const scheduling = status.details.scheduling as SchedulingStatus;
		expect(scheduling.marks).toEqual([
			{ id: pending(h)[0], origin: "agent", freedTokens: expect.any(Number), state: "waits (fresh tail)" },
		]);
		expect(scheduling.commitWouldFreeShare).toBeGreaterThan(0);
		expect(scheduling.prefixTokensRewritten).toBeGreaterThan(0);
		expect(status.text).toMatch(
			/Pending marks: 1 · a commit would free ~[\d,]+ tokens \([\d.]+% of the serving budget\) and rewrite from ~[\d,]+ prefix tokens on/,
		);
		expect(status.text).toMatch(/ {2}mark f[0-9a-f]{16} · agent · ~[\d,]+ tokens · waits \(fresh tail\)/);
		zeroUnattributed(h);
	});

	it("lives in durable session state: a resumed session still holds the mark and commits it", async () => {
		const first = await createHarness({
			persistent: true,
			contextWindow: WINDOW,
			options: { foldScheduling: "epoch", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		first.script([
			callProbes("big1"),
			callProbes("big2"),
			callProbes("big3"),
			callTool({ action: "fold", from: "call_big1", to: "call_big1" }),
			say("paused"),
		]);
		await first.run("go");
		const [mark] = pending(first);
		expect(mark).toBeDefined();
		const file = first.sessionFile() as string;
		first.session.dispose();
		const h = await createHarness({
			openFile: file,
			sessionDir: first.sessionDir,
			contextWindow: WINDOW,
			options: { foldScheduling: "epoch", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		expect(h.runtime.snapshot(h.host()).state.pendingMarks.get(mark as string)?.actor).toBe("agent");
		h.script([...["big4", "big5", "big6", "big7", "big8", "big9", "big10"].map((k) => callProbes(k)), say("done")]);
		await h.run("continue");
		expect(commits(h)[0]?.agentMarks).toEqual([mark]);
		zeroUnattributed(h);
	});

	it("unmark withdraws a pending mark and refuses one that is not pending", async () => {
		const h = await epochHarness();
		h.script([
			callProbes("s1"),
			callProbes("s2"),
			callProbes("s3"),
			callTool({ action: "fold", from: "call_s1", to: "call_s1" }),
			() => callTool({ action: "unmark", id: pending(h)[0] as string }),
			callTool({ action: "unmark", id: "f0123456789abcdef" }),
			say("done"),
		]);
		await h.run("go");
		const texts = toolTexts(h);
		expect(texts[1]).toMatch(/^Withdrew mark f[0-9a-f]{16} \(agent\)/);
		expect(texts[2]).toBe("unmark refused: f0123456789abcdef is not a pending mark on this branch");
		expect(pending(h)).toEqual([]);
		expect(
			relations(h)
				.slice(1)
				.every((k) => k === "append"),
		).toBe(true);
	});
});

describe("the epoch commit", () => {
	it("crossing 80% with stale tool mass lands every mark in one rewrite, topped up to a fifth of the window", async () => {
		const h = await epochHarness();
		const keys = ["big1", "big2", "big3", "big4", "big5", "big6", "big7", "big8", "big9", "big10"];
		h.script([
			callProbes("big1"),
			callProbes("big2"),
			callProbes("big3"),
			callTool({ action: "fold", from: "call_big1", to: "call_big1" }),
			...keys.slice(3).map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		// The first commit is the one that crosses 80%; later ones (the window grows back) are the same rule again.
		const all = commits(h);
		expect(all.length).toBeGreaterThanOrEqual(1);
		const commit = all[0] as (typeof all)[number];
		expect(commit.agentMarks).toHaveLength(1);
		expect(commit.topUpMarks.length).toBeGreaterThan(0);
		expect(commit.applied).toEqual(expect.arrayContaining([...commit.agentMarks, ...commit.topUpMarks]));
		expect(commit.reason).toMatch(/occupancy \d+% with stale tool mass/);
		expect(pending(h)).toEqual([]);
		expect(relations(h).filter((k) => k === "rewrite")).toHaveLength(all.length);
		// The top-up reaches a fifth of the serving budget, measured on the requests (the rewrite
		// request against the one before it, less what it appended), in pi-fold's estimated tokens.
		const budget = h.runtime.estimatedBudget(h.host());
		const at = relations(h).indexOf("rewrite");
		const size = (messages: unknown[]) => estimateTokens(JSON.stringify(messages));
		const before = (h.requests[at - 1] as RecordedRequest).messages;
		const after = (h.requests[at] as RecordedRequest).messages;
		const appended = after.slice(-3); // the turn's call, its result, and the receipt
		expect(size(before) - (size(after) - size(appended))).toBeGreaterThanOrEqual(COMMIT_TARGET_SHARE * budget);
		// The receipt rides the commit's own request, once, and later requests append after it.
		const receipts = after.filter(
			(m) => m.role === "user" && textOf(m).startsWith("[active-context commit #1, an automatic notice"),
		);
		expect(receipts).toHaveLength(1);
		expect(textOf(receipts[0]).length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS);
		const next = relations(h).indexOf("rewrite", at + 1);
		expect(
			relations(h)
				.slice(at + 1, next < 0 ? undefined : next)
				.every((k) => k === "append"),
		).toBe(true);
		zeroUnattributed(h);
	});
});

describe("epoch refinements", () => {
	it("a mark at the very end applies at once while a fresh-tail mark waits, then lands once aged out", async () => {
		const h = await epochHarness();
		const small = ["s1", "s2", "s3", "s4", "s5", "s6"];
		const big = ["big1", "big2", "big3", "big4", "big5", "big6", "big7", "big8"];
		h.script([
			...small.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_s4", to: "call_s4" }),
			callProbes("s7"),
			callTool({ action: "fold", from: "call_s7", to: "call_s7" }),
			...big.map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		const texts = toolTexts(h);
		expect(texts[0]).toContain("it waits until it ages out");
		const [first, second] = commits(h);
		expect(first?.reason).toContain("a mark at the end of the window applies at once");
		expect(first?.applied).toHaveLength(1);
		const waited = pending(h).length === 0 ? second?.agentMarks : [];
		// An automatic commit (80% with stale tool mass, or the backstop: the session's random entry ids
		// move the estimate by a few tokens) lands the mark that waited.
		expect(second?.reason).toMatch(/occupancy \d+% (with stale tool mass|at the pressure backstop)/);
		expect(waited?.length).toBe(1);
		expect(first?.applied).not.toEqual(waited);
		expect(folded(h)).toEqual(expect.arrayContaining([...(first?.applied ?? []), ...(waited ?? [])]));
		expect(relations(h).filter((k) => k === "rewrite")).toHaveLength(
			commits(h).filter((c) => c.edits.length > 0).length,
		);
		zeroUnattributed(h);
	});

	it("a protected mark is refused by name at commit while the other marks apply", async () => {
		const h = await epochHarness();
		h.script([
			callProbes("big1"),
			callProbes("big2"),
			callProbes("big3"),
			callTool(
				{ action: "fold", from: "call_big1", to: "call_big1" },
				{ action: "fold", from: "call_big2", to: "call_big2" },
			),
			() => callTool({ action: "protect", ids: [resultEntryId(h, "call_big2")] }),
			...["big4", "big5", "big6", "big7", "big8", "big9", "big10"].map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		const [commit] = commits(h);
		expect(commits(h).length).toBeGreaterThanOrEqual(1);
		const big2 = resultEntryId(h, "call_big2");
		expect(commit?.refused).toHaveLength(1);
		expect(commit?.refused[0]?.reason).toBe(`entry ${big2} is protected`);
		expect(commit?.agentMarks).toHaveLength(1);
		expect(commit?.applied).not.toContain(commit?.refused[0]?.foldId);
		expect(pending(h)).toEqual([]);
		const receipts = h.session.sessionManager
			.getBranch()
			.flatMap((e) => (e.type === "custom_message" ? [String(e.content)] : []));
		expect(receipts[0]).toContain(`refused ${commit?.refused[0]?.foldId} (entry ${big2} is protected)`);
		expect(
			h.notices.some((n) =>
				n.includes(`mark ${commit?.refused[0]?.foldId} refused at commit: entry ${big2} is protected`),
			),
		).toBe(true);
		zeroUnattributed(h);
	});

	it("an expand while marks are pending opens the epoch: the restore and the marks are one rewrite", async () => {
		const h = await epochHarness();
		h.script([
			...["s1", "s2", "s3", "s4", "s5"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_s5", to: "call_s5" }),
			...["s6", "s7", "s8", "s9", "s10", "s11"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_s1", to: "call_s2" }),
			() => callTool({ action: "expand", id: folded(h)[0] as string }),
			say("done"),
		]);
		await h.run("go");
		const [first, second] = commits(h);
		expect(commits(h)).toHaveLength(2);
		expect(second?.reason).toContain("an expand opened the epoch");
		expect(second?.edits.some((e) => e.action === "restore")).toBe(true);
		expect(second?.edits.some((e) => e.action === "brief")).toBe(true);
		expect(second?.agentMarks).toHaveLength(1);
		expect(first?.applied).toHaveLength(1);
		expect(relations(h).filter((k) => k === "rewrite")).toHaveLength(2);
		zeroUnattributed(h);
	});

	it("a peek result folds away at the next commit unless the agent expanded what it saw", async () => {
		const h = await epochHarness();
		h.script([
			...["s1", "s2", "s3", "s4", "s5"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_s5", to: "call_s5" }),
			() => callTool({ action: "peek", id: folded(h)[0] as string }),
			...["big1", "big2", "big3", "big4", "big5", "big6", "big7", "big8"].map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		const peekEntry = h.session.sessionManager
			.getBranch()
			.find((e) => e.type === "message" && e.message.role === "toolResult" && textOf(e.message).startsWith("[peek "));
		expect(peekEntry).toBeDefined();
		const [, second] = commits(h);
		const snap = h.runtime.snapshot(h.host());
		const holder = [...snap.state.folds.values()].find((f) => f.leafIds.includes(peekEntry?.id ?? ""));
		expect(holder?.origin).toBe("ladder");
		expect(second?.applied).toContain(holder?.id);
		const last = h.requests.at(-1) as RecordedRequest;
		expect(last.messages.some((m) => m.role === "toolResult" && textOf(m).startsWith("[peek "))).toBe(false);
		zeroUnattributed(h);
	});

	it("keeps a peek result raw at the commit when the agent expanded the fold it peeked", async () => {
		const h = await epochHarness();
		h.script([
			...["s1", "s2", "s3", "s4", "s5"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_s5", to: "call_s5" }),
			() => callTool({ action: "peek", id: folded(h)[0] as string }),
			() => callTool({ action: "expand", id: folded(h)[0] as string }),
			...["big1", "big2", "big3", "big4", "big5", "big6", "big7", "big8"].map((k) => callProbes(k)),
			say("done"),
		]);
		await h.run("go");
		expect(commits(h).length).toBeGreaterThanOrEqual(3);
		const last = h.requests.at(-1) as RecordedRequest;
		expect(last.messages.some((m) => m.role === "toolResult" && textOf(m).startsWith("[peek "))).toBe(true);
		zeroUnattributed(h);
	});
});
