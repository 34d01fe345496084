// Pi's native compaction in a simulated session, at the moments Pi compacts: before each follow-up
// request of a run (`_exceedsCompactionThreshold` on Pi's projected estimate), at the end of a run
// and again before the next (`_checkCompaction` on the last response: a response whose prompt
// overflowed the window compacts with reason "overflow", else the threshold), and a manual
// `/compact`. Each goes through Pi's order: prepare the cut (nothing to summarize: no compaction),
// then `session_before_compact`, which is the runtime's decision (a threshold compaction may be
// cancelled by pi-fold; manual and overflow pass), then a compaction entry appended as Pi appends
// it, with a summary standing in for the model's. The arithmetic is pi-compaction.ts. In-memory.

import type { FoldRuntime, Host } from "../runtime/index.ts";
import {
	type CompactionSettings,
	type EstimateInput,
	PI_COMPACTION_DEFAULTS,
	prepareCompaction,
	projectedContextTokens,
	runEndTokens,
	shouldCompact,
} from "./pi-compaction.ts";
import type { SimSession } from "./sim-session.ts";

/** One native compaction Pi would have run (or tried to), and what came of it. */
export interface NativeNote {
	readonly reason: "threshold" | "overflow" | "manual";
	readonly decision: "passed" | "cancelled" | "nothing to compact";
	/** Requests billed before it. */
	readonly afterRequests: number;
	/** pi-fold's folds in force when Pi prepared it. */
	readonly folds: number;
	readonly firstKeptEntryId?: string;
}

/** A billed response, as Pi's compaction checks read it. */
interface BilledResponse {
	readonly entryId: string;
	readonly promptTokens: number;
	readonly output: number;
	readonly stopReason: unknown;
}

export class NativeCompaction {
	readonly notes: NativeNote[] = [];
	/** The usage total each response billed, by its assistant entry id (what Pi's estimate reads). */
	readonly usage = new Map<string, number>();
	private last: BilledResponse | undefined;
	private requests = 0;
	private readonly runtime: FoldRuntime;
	private readonly session: SimSession;
	private readonly host: Host;
	private readonly settings: CompactionSettings | undefined;

	/** `settings` undefined: Pi's compaction is off (no threshold, no overflow; a manual /compact still runs). */
	constructor(runtime: FoldRuntime, session: SimSession, host: Host, settings: CompactionSettings | undefined) {
		this.runtime = runtime;
		this.session = session;
		this.host = host;
		this.settings = settings;
	}

	private input(): EstimateInput {
		return { entries: this.session.entries, usage: this.usage, systemPrompt: this.host.systemPrompt() };
	}

	private get window(): number {
		return this.host.model()?.contextWindow ?? 0;
	}

	/** A response landed (its usage total is what Pi's estimate reads from then on). */
	responded(response: BilledResponse): void {
		this.usage.set(response.entryId, response.promptTokens + response.output);
		this.last = response;
		this.requests++;
	}

	/** Before a follow-up request of a run: Pi's threshold on its projected estimate. */
	async beforeFollowUp(): Promise<void> {
		if (!this.settings?.enabled) return;
		if (shouldCompact(projectedContextTokens(this.input()), this.window, this.settings))
			await this.compact("threshold");
	}

	/** At the end of a run and before the next prompt: Pi's `_checkCompaction` on the last response. */
	async atRunEdge(): Promise<void> {
		const settings = this.settings;
		const last = this.last;
		if (!settings?.enabled || !last) return;
		const tokens = runEndTokens(this.input(), last.entryId);
		if (tokens === null) return;
		const at = this.session.entries.findIndex((e) => e.id === last.entryId);
		const editedSince = this.session.entries.slice(at + 1).some((e) => e.type === "context_edit");
		if (!editedSince && last.stopReason === "stop" && last.promptTokens > this.window)
			return void (await this.compact("overflow"));
		if (shouldCompact(tokens, this.window, settings)) await this.compact("threshold");
	}

	/** The human's `/compact`. */
	manual(): Promise<void> {
		return this.compact("manual");
	}

	private async compact(reason: NativeNote["reason"]): Promise<void> {
		const settings = this.settings ?? PI_COMPACTION_DEFAULTS;
		const plan = prepareCompaction(this.input(), settings);
		const at = { reason, afterRequests: this.requests, folds: this.runtime.snapshot(this.host).state.folds.size };
		if (!plan) return void this.notes.push({ ...at, decision: "nothing to compact" });
		const { decision } = this.runtime.compaction(this.host, reason);
		if (decision === "cancelled") return void this.notes.push({ ...at, decision });
		const summary = `Summary of the session so far (${plan.summarized} messages; simulated).`;
		this.session.appendCompaction(summary, plan.firstKeptEntryId, plan.tokensBefore);
		this.notes.push({ ...at, decision, firstKeptEntryId: plan.firstKeptEntryId });
	}
}
