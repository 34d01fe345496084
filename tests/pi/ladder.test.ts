// The automatic ladder wired into the boundary (immediate scheduling, the agent never calls the
// tool): quiet below 80% of the serving budget; crossing it with stale read-only tool mass records
// the ladder's folds (actor `ladder`) before ONE commit that lands them with a bounded receipt; and
// model-written chapter briefs: the session model's brief is recorded with "model" provenance, a
// failing or slow summarizer falls back to the deterministic brief, an unknown summarizer model
// says so out of band, and a custom summarizeContextSpan writes the chapter under cost scheduling.

import type { AssistantMessage, FauxResponseStep } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import type { PiFoldOptions } from "../../src/options/index.ts";
import { commits, PROBE_READ_ONLY, records, relations } from "./epoch-helpers.ts";
import { callProbes, cleanupTempDirs, createHarness, type Harness, pairingProblems, say } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("the ladder under immediate scheduling", () => {
	it("stays quiet below 80%, then lands its folds in one commit recorded before the edits", async () => {
		const h = await createHarness({
			contextWindow: 16_000,
			options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		const keys = Array.from({ length: 10 }, (_, i) => `big${i + 1}`);
		h.script([...keys.map((k) => callProbes(k)), say("done")]);
		await h.run("go");
		const all = records(h);
		const first = all.findIndex((r) => r.kind === "commit");
		expect(first).toBeGreaterThan(0);
		const ladderFolds = all.slice(0, first);
		expect(ladderFolds.every((r) => r.kind === "fold" && r.actor === "ladder" && r.fold.kind === "tools")).toBe(true);
		const commit = commits(h)[0];
		expect(commit?.actor).toBe("ladder");
		expect(commit?.applied).toEqual(ladderFolds.map((r) => (r.kind === "fold" ? r.fold.id : "")));
		// Every request before the commit was a pure append (quiet below 80%), and the commit is one rewrite.
		const kinds = relations(h);
		const at = kinds.indexOf("rewrite");
		expect(kinds.slice(1, at).every((k) => k === "append")).toBe(true);
		expect(kinds.filter((k) => k === "rewrite")).toHaveLength(commits(h).length);
		const receipts = h.session.sessionManager
			.getBranch()
			.flatMap((e) => (e.type === "custom_message" ? [String(e.content)] : []));
		expect(receipts[0]).toMatch(/^\[active-context commit #1, an automatic notice[^:]*: folded \d+ \(\d+ ladder\)/);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		for (const request of h.requests) expect(pairingProblems(request.messages)).toEqual([]);
	});
});

const SUMMARY_MARK = "You write the brief for a folded span";

/**
 * A harness whose faux queue routes: summarizer requests get `summary`, every other request the
 * next step of `plan`. Two prompts: a closed first chapter, then pressure past the backstop (no
 * read-only tools, so the chapter rung is what the ladder has).
 */
async function chapterRun(
	summary: () => AssistantMessage | Promise<AssistantMessage>,
	options: Partial<PiFoldOptions> = {},
	summaryTimeoutMs?: number,
): Promise<Harness> {
	const h = await createHarness({
		contextWindow: 16_000,
		options: { readOnlyTools: new Set<string>(), ...options },
		...(summaryTimeoutMs !== undefined ? { extras: { summaryTimeoutMs } } : {}),
	});
	const plan: AssistantMessage[] = [
		callProbes("big1"),
		callProbes("big2"),
		say("first part done"),
		...Array.from({ length: 10 }, (_, i) => callProbes(`big${i + 3}`)),
		say("done"),
	];
	let next = 0;
	const router: FauxResponseStep = (context) =>
		JSON.stringify(context.messages).includes(SUMMARY_MARK) ? summary() : (plan[next++] ?? say("idle"));
	h.faux.appendResponses(Array.from({ length: 40 }, () => router));
	await h.run("first");
	await h.run("second");
	return h;
}

function chapterFolds(h: Harness) {
	return [...h.runtime.snapshot(h.host()).state.folds.values()].filter((f) => f.kind === "chapter");
}

describe("model-written briefs", () => {
	it("records the session model's brief with model provenance and counts its usage", async () => {
		const h = await chapterRun(() => say("Chapter one probed big1 and big2; both returned lorem ipsum filler text."));
		const [chapter] = chapterFolds(h);
		expect(chapter?.briefSource).toBe("model");
		expect(chapter?.brief).toBe("Chapter one probed big1 and big2; both returned lorem ipsum filler text.");
		expect(h.runtime.telemetry.view().briefs.calls).toBeGreaterThan(0);
	});

	it("under cost scheduling, hands the chapter to a custom summarizeContextSpan", async () => {
		const asked: string[] = [];
		const h = await chapterRun(() => say("never asked: the custom summarizer answers"), {
			foldScheduling: "cost",
			summarizeContextSpan: async (request) => {
				asked.push(request.kind);
				return { brief: "The user's own summarizer wrote this.", provider: "local", model: "mine", toolCalls: 0 };
			},
		});
		const [chapter] = chapterFolds(h);
		expect(asked).toContain("chapter");
		expect(chapter?.briefSource).toBe("supplied");
		expect(chapter?.brief).toBe("The user's own summarizer wrote this.");
	});

	it("falls back to the deterministic brief when the summarizer fails", async () => {
		const h = await chapterRun(() => {
			throw new Error("summarizer provider down");
		});
		const [chapter] = chapterFolds(h);
		expect(chapter?.briefSource).toBe("deterministic");
		expect(h.runtime.telemetry.view().briefs.fallbacks).toBeGreaterThan(0);
		expect(h.runtime.telemetry.view().briefFallback).toMatch(/^summarizer failed: /);
	});

	it("falls back to the deterministic brief when the summarizer times out", async () => {
		const h = await chapterRun(
			() => new Promise((resolve) => setTimeout(() => resolve(say("too late, but a fine brief otherwise")), 400)),
			{},
			40,
		);
		const [chapter] = chapterFolds(h);
		expect(chapter?.briefSource).toBe("deterministic");
		expect(h.runtime.telemetry.view().briefFallback).toBe("summarizer failed: timed out after 40 ms");
	});

	it("says so out of band when the configured summarizer model is not in the registry", async () => {
		const h = await chapterRun(() => say("never asked"), { summarizer: { provider: "nowhere", model: "ghost" } });
		const [chapter] = chapterFolds(h);
		expect(chapter?.briefSource).toBe("deterministic");
		expect(h.notices.some((n) => n.includes("summarizer model nowhere/ghost is not in Pi's model registry"))).toBe(
			true,
		);
	});
});
