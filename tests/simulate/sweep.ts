// Test helper: one session of the randomized sweep (shapes.ts) replayed through the runtime on the
// simulator, with every invariant checked: it completes (a batch larger than the window is shown as
// excerpts, never fenced, never compacted by Pi), no request exceeds the window, no tool result or
// call is orphaned in any request, no rewrite without a commit or a compaction (by the runtime's
// observer and by an independent comparison), what an expand restored shows and stays, the fold tree
// stays shallow (sweep-lossless.ts), every fold peekable with its stored source byte-exact. No Pi.

import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime } from "../../src/runtime/index.ts";
import {
	drive,
	MemoryStore,
	messageOf,
	type SimRequest,
	type SimResult,
	SimSession,
} from "../../src/simulate/index.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { foldProblems, pairingProblems, WindowWatch } from "../helpers/invariants.ts";
import { compactionOf, type Mode, messagesOf, modelOf, type Shape, systemPromptOf } from "./shapes.ts";
import { LosslessWatch } from "./sweep-lossless.ts";
import { searchableProblems } from "./sweep-searchable.ts";

/**
 * A fault injected at a point of the session: the fold store becomes unwritable (and, with `repairAt`,
 * writable again), or the model is switched to one whose window is the current one divided by `shrink`.
 * Both are shares of the session's messages.
 */
export interface Fault {
	readonly kind: "store" | "shrink";
	readonly at: number;
	readonly repairAt?: number | null;
	readonly shrink?: number;
}

/** What one session showed, for the sweep's totals. */
export interface Outcome {
	readonly problems: string[];
	readonly requests: number;
	readonly rewrites: number;
	/** Native compactions that ran, and how many of them with folds in force. */
	readonly compactions: number;
	readonly compactionsWithFolds: number;
	readonly folds: number;
	/** The human's `/fold-context` commands that ran. */
	readonly commands: number;
	readonly fenced: boolean;
	/** Results shown as excerpts (oversized-result folds), and requests that showed an expanded fold. */
	readonly excerpts: number;
	readonly expandedShown: number;
}

/** Every entry's original message on the branch, compacted ones included. */
function branchMessages(session: SimSession): Map<string, TranscriptMessage> {
	const out = new Map<string, TranscriptMessage>();
	for (const entry of session.entries) {
		const message = messageOf(entry, 0);
		if (message) out.set(entry.id, message);
	}
	return out;
}

/** Commits and native compactions on the branch: what may move the window. */
function moves(session: SimSession, decisionType: string): number {
	return session.entries.filter(
		(e) =>
			e.type === "compaction" ||
			(e.type === "custom" && e.customType === decisionType && (e.data as { kind?: string }).kind === "commit"),
	).length;
}

/** The checks of every request: inside the window, paired, attributed (observer and independent watch). */
function requestChecks(
	window: () => number,
	problems: string[],
	watch: WindowWatch,
	lossless: LosslessWatch,
	moved: () => number,
) {
	return (request: SimRequest, messages: readonly TranscriptMessage[]) => {
		lossless.request(request.at, messages);
		if (request.promptTokens > window())
			problems.push(`request ${request.at} is ${request.promptTokens} tokens, over the ${window()} window`);
		for (const p of pairingProblems(messages)) problems.push(`request ${request.at}: ${p}`);
		if (request.kind === "rewrite" && request.cause === null)
			problems.push(`request ${request.at}: a rewrite no commit or compaction explains`);
		watch.request(request.at, messages, moved());
	};
}

/**
 * How the session ended: completed, never fenced (no unit of a shape is too big for an excerpt), no
 * overflow compaction, and a batch larger than the window shown as excerpts with no compaction of Pi's
 * at the request that followed it.
 */
function endProblems(shape: Shape, result: SimResult, excerpts: number, fault: Fault | undefined): string[] {
	const problems: string[] = [];
	if (result.stopped) problems.push(`stopped: ${result.fence}`);
	// After a switch to a smaller window the last response may be larger than it: Pi's overflow path, as without pi-fold.
	if (fault?.kind !== "shrink")
		for (const c of result.compactions)
			if (c.reason === "overflow" && c.decision === "passed")
				problems.push(`Pi's overflow compaction ran after request ${c.afterRequests}`);
	// An unwritable store writes no excerpt: Pi's compaction or the fence takes the batch.
	if (shape.huge !== null && excerpts === 0 && fault?.kind !== "store")
		problems.push("a batch larger than the window was not shown as excerpts");
	return [...problems, ...result.errors.map((e) => `error: ${e}`)];
}

/** The driver's hook that injects `fault` at its point (and repairs the store at `repairAt`). */
function faultAt(
	fault: Fault,
	count: number,
	store: MemoryStore,
	shrinkTo: (window: number) => void,
	window: () => number,
): (index: number) => void {
	let applied = false;
	let repaired = false;
	return (index) => {
		if (!applied && index >= Math.floor(fault.at * count)) {
			applied = true;
			if (fault.kind === "store") store.failWrites("EPERM");
			else shrinkTo(Math.max(16_000, Math.round(window() / (fault.shrink ?? 2))));
		}
		const repairAt = fault.repairAt;
		if (
			applied &&
			!repaired &&
			fault.kind === "store" &&
			typeof repairAt === "number" &&
			index >= Math.floor(repairAt * count)
		) {
			repaired = true;
			store.failWrites(null);
		}
	};
}

/** Replays one shape in one mode (with a fault, when given) and lists every broken invariant. */
export async function sweep(shape: Shape, mode: Mode, fault?: Fault): Promise<Outcome> {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling: mode, summarizer: "deterministic" }), () => store);
	const model = modelOf(shape);
	const session = new SimSession({ model, systemPrompt: systemPromptOf(shape) });
	const decisionType = runtime.names.decisionEntryType;
	const host = session.host({ decisionEntryType: decisionType, receiptType: runtime.receiptType });
	const watch = new WindowWatch();
	const lossless = new LosslessWatch(runtime, host, session, decisionType);
	const problems: string[] = [];
	const messages = messagesOf(shape);
	let window = model.contextWindow;
	const result = await drive(runtime, session, messages, {
		compaction: compactionOf(shape),
		onRequest: requestChecks(
			() => window,
			problems,
			watch,
			lossless,
			() => moves(session, decisionType),
		),
		...(fault
			? {
					beforeMessage: faultAt(
						fault,
						messages.length,
						store,
						(w) => {
							window = w;
							session.setModel({ ...model, contextWindow: w, maxTokens: Math.min(model.maxTokens, Math.floor(w / 4)) });
						},
						() => window,
					),
				}
			: {}),
	});
	const excerpts = [...runtime.snapshot(host).known.values()].filter((f) => f.kind === "result").length;
	problems.push(...watch.problems, ...lossless.problems, ...endProblems(shape, result, excerpts, fault));
	const unattributed = runtime.telemetry.view().counters.unattributedRewrites;
	if (unattributed !== 0) problems.push(`${unattributed} unattributed rewrites`);
	const folds = await foldProblems(runtime, host, branchMessages(session));
	problems.push(...folds.problems, ...(await searchableProblems(runtime, host, result.compactions)));
	const ran = result.compactions.filter((c) => c.decision === "passed");
	return {
		problems,
		requests: result.requests.length,
		rewrites: watch.rewrites,
		compactions: ran.length,
		compactionsWithFolds: ran.filter((c) => c.folds > 0).length,
		folds: folds.folds,
		commands: result.human.length,
		fenced: result.stopped,
		excerpts,
		expandedShown: lossless.expandedShown,
	};
}
