// Shared by the "never worse than Pi alone" tests (store-failure, model-shrink, search-without-store):
// Pi's summary requests answered as they come while the agent's own steps keep their order, the
// prompt size the faux provider billed for each request it was actually sent (input + cache read +
// cache write, its chars/4 count), the agent's requests over a window, and the fold store's folder.

import type { FauxResponseStep } from "@earendil-works/pi-ai";
import { isSummaryRequest } from "../../bench/session/compaction-summarizer.ts";
import type { DecisionRecord } from "../../src/state/index.ts";
import type { Harness, RecordedRequest } from "./harness.ts";
import { say } from "./harness.ts";

/** Queues `steps` for the agent; Pi's compaction summary requests are answered in between. */
export function scripted(h: Harness, steps: FauxResponseStep[]): void {
	const queue = [...steps];
	const respond: FauxResponseStep = (context, ...rest) => {
		if (isSummaryRequest(context.messages)) return say("Summary of the session so far.");
		const step = queue.shift() ?? say("idle");
		return typeof step === "function" ? step(context, ...rest) : step;
	};
	h.faux.setResponses([]);
	h.script(Array.from({ length: steps.length + 12 }, () => respond));
}

/** The prompt tokens the faux provider billed for `request` (every prompt token is input, read or written). */
export function promptTokens(request: RecordedRequest): number {
	const u = request.usage;
	return u ? u.input + u.cacheRead + u.cacheWrite : 0;
}

/** The agent's requests (Pi's compaction summaries aside), from index `from` of the recorded requests. */
export function agentRequests(h: Harness, from = 0): RecordedRequest[] {
	return h.requests.slice(from).filter((r) => !isSummaryRequest(r.messages));
}

/** The billed sizes of the agent's requests larger than `window`, from request `from` on. */
export function overWindow(h: Harness, window: number, from = 0): number[] {
	return agentRequests(h, from)
		.map(promptTokens)
		.filter((t) => t > window);
}

/** The largest billed agent request from request `from` on. */
export function largest(h: Harness, from = 0): number {
	return Math.max(0, ...agentRequests(h, from).map(promptTokens));
}

/** Pi's compaction entries on the active branch. */
export function compactions(h: Harness): number {
	return h.session.sessionManager.getBranch().filter((e) => e.type === "compaction").length;
}

/** The fold store's folder (persisted sessions: `<sessionDir>/pi-fold-store`). */
export function storeDir(h: Harness): string {
	return (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
}

/** pi-fold's decision records on the active branch, in order. */
export function decisionRecords(h: Harness): DecisionRecord[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) =>
			e.type === "custom" && e.customType === h.runtime.names.decisionEntryType ? [e.data as DecisionRecord] : [],
		);
}

/** Every source digest a fold record on the branch names (what must be durably in the store). */
export function namedSources(h: Harness): { foldId: string; sha256: string }[] {
	return decisionRecords(h).flatMap((r) =>
		(r.kind === "fold" || r.kind === "mark" || r.kind === "reboundary") && r.fold
			? [{ foldId: r.fold.id, sha256: r.fold.sourceSha256 }]
			: [],
	);
}
