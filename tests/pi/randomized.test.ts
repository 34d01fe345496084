// The randomized sweep's smaller set on a real in-process Pi AgentSession (faux provider, pi-fold
// registered as the package does): a handful of the sweep's session shapes (tests/simulate/shapes.ts)
// played by Pi's agent loop, the human's `/fold-context` commands typed between runs, Pi's own
// threshold compaction and a manual `/compact` with folds in force (their summary requests answered
// by the faux provider like any other). The same invariants as the Pi-free sweep: each session
// completes (a result larger than the window is shown as an excerpt: no fence), no request the provider
// got exceeds the window, no tool result or call is orphaned, no rewrite without a commit or a
// compaction, every fold peekable with its stored source byte-exact and, after a native
// compaction, found by the agent's search.

import { type AssistantMessage, type Context, fauxAssistantMessage } from "@earendil-works/pi-ai";
import { type SessionEntry, sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { commandWords, type HumanStep, type ReplayMessage } from "../../src/simulate/index.ts";
import { contentText, type TranscriptMessage } from "../../src/transcript/index.ts";
import { foldProblems, pairingProblems, WindowWatch } from "../helpers/invariants.ts";
import { compactionOf, type Mode, messagesOf, modelOf, PLAIN_SHAPE, type Shape } from "../simulate/shapes.ts";
import { searchableProblems } from "../simulate/sweep-searchable.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { probeFor } from "./forecast-play.ts";
import { cleanupTempDirs, createHarness, type Harness } from "./harness.ts";

afterAll(cleanupTempDirs);

/** One agent run: the human's steps before it, its prompt, the assistant replies Pi's loop will get. */
interface Run {
	readonly before: readonly HumanStep[];
	readonly prompt: string;
	readonly replies: AssistantMessage[];
}

/** The runs of a replayed session, and each tool call's result text by call id. */
function runsOf(messages: readonly ReplayMessage[]): { runs: Run[]; results: Map<string, string> } {
	const runs: Run[] = [];
	const results = new Map<string, string>();
	for (const { message, before } of messages) {
		if (message.role === "user") runs.push({ before: before ?? [], prompt: String(message.content), replies: [] });
		else if (message.role === "toolResult") results.set(String(message.toolCallId), contentText(message.content));
		else if (message.role === "assistant") {
			if (before) throw new Error("the Pi sweep types commands between runs only");
			const content = message.content as AssistantMessage["content"];
			runs.at(-1)?.replies.push(fauxAssistantMessage(content, { stopReason: message.stopReason as "stop" }));
		}
	}
	return { runs, results };
}

/** A compaction's summary request (Pi serializes the conversation into one user message). */
function isSummaryRequest(context: Context): boolean {
	return context.messages.some(
		(m) => m.role === "user" && /^(<conversation>|# Conversation)\n/.test(contentText(m.content as unknown)),
	);
}

/** Commits and native compactions on the branch: what may move the window. */
function moves(h: Harness): number {
	return h.session.sessionManager
		.getBranch()
		.filter(
			(e) =>
				e.type === "compaction" ||
				(e.type === "custom" &&
					e.customType === h.runtime.names.decisionEntryType &&
					(e.data as { kind?: string }).kind === "commit"),
		).length;
}

/** Every entry's original message on the branch (pi-fold's transcript messages), compacted ones included. */
function branchMessages(entries: readonly SessionEntry[]): Map<string, TranscriptMessage> {
	const out = new Map<string, TranscriptMessage>();
	for (const entry of entries) {
		const messages = sessionEntryToContextMessages(entry).filter((m) => m.role !== "system");
		if (messages.length === 1) out.set(entry.id, messages[0] as unknown as TranscriptMessage);
	}
	return out;
}

/** What a played session showed. */
interface Played {
	readonly problems: string[];
	readonly fenced: boolean;
	readonly compactions: number;
	/** Results shown as excerpts (oversized-result folds). */
	readonly excerpts: number;
	/** Folds in force when a native compaction ran. */
	readonly foldsAtCompaction: number[];
	/** pi-fold's decisions beside Pi's compaction, as `reason:decision`. */
	readonly native: string[];
}

/**
 * The faux provider's side of a session: every request checked as it arrives (paired, attributed),
 * a compaction's summary request answered with a summary, any other with the next scripted reply.
 */
class Player {
	readonly problems: string[] = [];
	readonly summaries = new Set<number>();
	readonly foldsAtCompaction: number[] = [];
	readonly watch = new WindowWatch();
	played = 0;
	private readonly h: Harness;
	private readonly replies: readonly AssistantMessage[];

	constructor(h: Harness, replies: readonly AssistantMessage[]) {
		this.h = h;
		this.replies = replies;
	}

	get complete(): boolean {
		return this.played === this.replies.length;
	}

	readonly step = (context: Context): AssistantMessage => {
		const at = this.h.requests.length - 1;
		if (isSummaryRequest(context)) {
			this.summaries.add(at);
			this.foldsAtCompaction.push(this.h.runtime.snapshot(this.h.host()).state.folds.size);
			return fauxAssistantMessage("Summary of the session so far.");
		}
		const conversation = context.messages.filter((m) => m.role !== "system");
		for (const p of pairingProblems(conversation)) this.problems.push(`request ${at}: ${p}`);
		this.watch.request(at, conversation, moves(this.h));
		return this.replies[this.played++] ?? fauxAssistantMessage("out of script");
	};
}

/** The human's steps before a run: `/fold-context` typed as Pi's prompt takes a command, `/compact`. */
async function humanSteps(h: Harness, steps: readonly HumanStep[]): Promise<void> {
	for (const s of steps) {
		if (s.kind === "compact") await h.session.compact();
		else {
			const words = commandWords(h.runtime, h.host(), s.command);
			if (words) await h.session.prompt(`/${h.runtime.options.commandNames.fold} ${words}`);
		}
	}
}

const FENCE_NOTICE =
	/(the result of probe|one batch of \d+ results of probe): ~[\d,]+ tokens by itself, larger than the whole [\d,]+-token window/;

/** The invariants checked once the session is over. */
async function endProblems(h: Harness, player: Player, window: number): Promise<string[]> {
	const problems = [...player.problems, ...player.watch.problems];
	h.requests.forEach((r, i) => {
		const prompt = (r.usage?.input ?? 0) + (r.usage?.cacheRead ?? 0) + (r.usage?.cacheWrite ?? 0);
		if (!player.summaries.has(i) && prompt > window)
			problems.push(`request ${i} is ${prompt} tokens, over the ${window} window`);
	});
	const telemetry = h.runtime.telemetry.view();
	const fenced = telemetry.fenced.aborted > 0;
	if (!fenced && !player.complete) problems.push(`the session stopped after ${player.played} replies`);
	if (fenced) {
		const notice = h.ui.notices.map((n) => n.message).find((n) => n.includes("aborted before transmission"));
		if (!FENCE_NOTICE.test(notice ?? "")) problems.push(`the fence did not name the unit: ${notice}`);
	}
	if (telemetry.counters.unattributedRewrites !== 0)
		problems.push(`${telemetry.counters.unattributedRewrites} unattributed rewrites`);
	const folds = await foldProblems(h.runtime, h.host(), branchMessages(h.session.sessionManager.getBranch()));
	const searchable = await searchableProblems(h.runtime, h.host(), telemetry.compactions.recent);
	return [...problems, ...folds.problems, ...searchable];
}

/** Plays `shape` in `mode` on a real Pi session and checks every invariant. */
async function play(shape: Shape, mode: Mode): Promise<Played> {
	const { runs, results } = runsOf(messagesOf(shape, { read: "probe", write: "probe" }));
	const h = await createHarness({
		contextWindow: modelOf(shape).contextWindow,
		ui: "tui",
		probe: probeFor(results),
		compaction: compactionOf(shape),
		options: { foldScheduling: mode, readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
	});
	const replies = runs.flatMap((r) => r.replies);
	const player = new Player(h, replies);
	// Room for the summary requests of the compactions the session may run.
	h.script(Array.from({ length: replies.length + 8 }, () => player.step));
	for (const run of runs) {
		await humanSteps(h, run.before);
		await h.run(run.prompt);
		if (h.runtime.telemetry.view().fenced.aborted > 0) break;
	}
	return {
		problems: await endProblems(h, player, modelOf(shape).contextWindow),
		fenced: h.runtime.telemetry.view().fenced.aborted > 0,
		compactions: h.session.sessionManager.getBranch().filter((e) => e.type === "compaction").length,
		foldsAtCompaction: player.foldsAtCompaction,
		native: h.runtime.telemetry.view().compactions.recent.map((c) => `${c.reason}:${c.decision}`),
		excerpts: [...h.runtime.snapshot(h.host()).known.values()].filter((f) => f.kind === "result").length,
	};
}

const base = PLAIN_SHAPE;

describe("the randomized sweep on real Pi", () => {
	it("cost: a result past the tail's share, thinking, commands, then a manual /compact with folds in force", async () => {
		const shape: Shape = {
			...base,
			seed: 11,
			window: 16_000,
			prompts: 3,
			turnsPerPrompt: 6,
			maxBatch: 3,
			stepShare: 0.07,
			thinking: { chars: 300, share: 0.5 },
			sized: [{ turn: 4, share: 0.4 }],
			human: [
				{ turn: 6, step: { kind: "command", command: { verb: "fold", from: "call_0_0", to: "call_2_0" } } },
				{ turn: 12, step: { kind: "compact" } },
			],
		};
		const out = await play(shape, "cost");
		expect(out.problems).toEqual([]);
		expect(out.compactions).toBe(1);
		expect(out.native).toEqual(["manual:passed"]);
		expect(out.foldsAtCompaction[0]).toBeGreaterThan(0);
	});

	it("epoch: parallel batches, Pi's threshold compaction beside the folds, an expand between runs", async () => {
		const shape: Shape = {
			...base,
			seed: 12,
			window: 24_000,
			prompts: 3,
			turnsPerPrompt: 7,
			maxBatch: 5,
			stepShare: 0.08,
			compaction: { threshold: true, reserve: 0.4, keep: 0.1 },
			human: [
				{ turn: 7, step: { kind: "command", command: { verb: "expand", pick: 0 } } },
				{ turn: 14, step: { kind: "command", command: { verb: "refold", pick: 0 } } },
			],
		};
		const out = await play(shape, "epoch");
		expect(out.problems).toEqual([]);
		expect(out.native).toContain("threshold:cancelled");
	});

	it("immediate: a result larger than the window is shown as an excerpt, never fenced, never compacted", async () => {
		const shape: Shape = {
			...base,
			seed: 13,
			window: 20_000,
			prompts: 2,
			turnsPerPrompt: 5,
			maxBatch: 2,
			stepShare: 0.06,
			huge: 6,
		};
		const out = await play(shape, "immediate");
		expect(out.problems).toEqual([]);
		expect(out.fenced).toBe(false);
		expect(out.excerpts).toBe(1);
		expect(out.compactions).toBe(0);
	});

	it("cost: one parallel read larger than the whole 32k window is shown as excerpts, with no compaction", async () => {
		const shape: Shape = {
			...base,
			seed: 16,
			window: 32_000,
			prompts: 2,
			turnsPerPrompt: 5,
			maxBatch: 2,
			stepShare: 0.06,
			huge: 3,
			hugeBatch: 3,
			compaction: { threshold: true, reserve: 0.2, keep: 0.1 },
		};
		const out = await play(shape, "cost");
		expect(out.problems).toEqual([]);
		expect(out.fenced).toBe(false);
		expect(out.excerpts).toBeGreaterThan(0);
		expect(out.compactions).toBe(0);
	});

	it("cost: a 64k window, thinking, peeks and a search between runs, Pi's threshold compaction", async () => {
		const shape: Shape = {
			...base,
			seed: 14,
			window: 64_000,
			prompts: 3,
			turnsPerPrompt: 8,
			maxBatch: 6,
			stepShare: 0.06,
			thinking: { chars: 1_500, share: 0.7 },
			sized: [{ turn: 9, share: 0.5 }],
			compaction: { threshold: true, reserve: 0.1, keep: 0.05 },
			human: [
				{ turn: 8, step: { kind: "command", command: { verb: "peek", pick: 1 } } },
				{ turn: 16, step: { kind: "command", command: { verb: "search", text: "gamma" } } },
			],
		};
		const out = await play(shape, "cost");
		expect(out.problems).toEqual([]);
	});

	it("immediate: a fresh result that fills the budget mid-run, folds in force, is an excerpt; Pi's compaction is not needed", async () => {
		const shape: Shape = {
			...base,
			seed: 15,
			window: 24_000,
			prompts: 2,
			turnsPerPrompt: 6,
			maxBatch: 2,
			stepShare: 0.06,
			sized: [{ turn: 8, share: 1.04 }],
			compaction: { threshold: true, reserve: 0.2, keep: 0.05 },
		};
		const out = await play(shape, "immediate");
		expect(out.problems).toEqual([]);
		expect(out.excerpts).toBe(1);
		expect(out.compactions).toBe(0);
		expect(out.native).not.toContain("threshold:passed");
	});
});
