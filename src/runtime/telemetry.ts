// A session's telemetry: what pi-fold measured and decided, for status and benchmarks. One object
// with record methods and bounded history (nothing grows with session length): the window observer
// (per-message digests, each request classified as identical / append / rewrite, provider cache
// misses), the last boundary's scheduling decision, the last commit and its receipt, native
// compaction decisions, fenced requests, model-brief usage and evidence artifacts. Not durable
// session state: it restarts with the session (and at /tree navigation). Pure in-memory.

import type { CommitPrediction, ScheduleReading } from "../policy/index.ts";
import {
	type RequestObservation,
	type Usage,
	type WindowCounters,
	type WindowMoves,
	WindowObserver,
} from "../projection/index.ts";

/** Entries kept per history (compactions, fenced requests, observations keep their own bound). */
const HISTORY_LIMIT = 16;
/** Request observations kept (the newest). */
const OBSERVATION_HISTORY = 64;

/** The newest `limit` items of a stream, and how many there were in all. */
class Recent<T> {
	private items: T[] = [];
	private count = 0;
	private readonly limit: number;
	constructor(limit: number) {
		this.limit = limit;
	}
	push(item: T): void {
		this.count++;
		this.items.push(item);
		if (this.items.length > this.limit) this.items.shift();
	}
	get total(): number {
		return this.count;
	}
	/** A copy: what a caller keeps (a tool result's details, say) must not change under it later. */
	get recent(): readonly T[] {
		return [...this.items];
	}
}

/** What the last boundary's scheduler decided (the decision core's schedule note). */
export type ScheduleNote = ScheduleReading;

/** The last commit the runtime proposed. */
export interface CommitNote {
	readonly seq: number;
	readonly reason: string;
	readonly edits: number;
	readonly applied: readonly string[];
	/** The scheduler's estimate of the tokens the commit freed. */
	readonly freedTokens: number;
	/** Cost scheduling: the commit's predicted cost and saving (the commit record's `prediction`). */
	readonly prediction?: CommitPrediction | undefined;
	/** Conversation messages the window showed before the commit's first edit (window-position.ts). */
	readonly firstEdit?: number | null;
	/** What forced the commit whatever its economics (the record's `force`), if anything did. */
	readonly force?: "budget" | "price tier" | "expand" | "cold cache" | "rescue" | "oversize" | undefined;
}

/** One decision beside the host's native compaction. */
export interface CompactionNote {
	readonly reason: string;
	readonly decision: "cancelled" | "passed";
	readonly why: string;
}

/** Model-written brief requests and their usage. */
interface BriefUsage {
	readonly calls: number;
	readonly fallbacks: number;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** A tool result shown as an excerpt: its fold and the bytes of its stored source. */
interface ExcerptNote {
	readonly foldId: string;
	readonly bytes: number;
}

/** A read-only picture of the telemetry, for status. */
export interface TelemetryView {
	readonly baseline: string;
	readonly counters: WindowCounters;
	/** The same on the wire (the provider body as it left, src/pi wire-observer.ts); null when the host shows none. */
	readonly wire: WindowCounters | null;
	readonly observations: readonly RequestObservation[];
	readonly lastUsage: Usage | null;
	readonly schedule: ScheduleNote | null;
	readonly commit: CommitNote | null;
	readonly commitRefusals: readonly { foldId: string; reason: string }[];
	readonly receipt: string | null;
	readonly compactions: { readonly total: number; readonly recent: readonly CompactionNote[] };
	/** Requests over the budget at the fence (all of them), and how many it stopped. */
	readonly fenced: { readonly total: number; readonly aborted: number; readonly recent: readonly string[] };
	readonly briefs: BriefUsage;
	readonly briefFallback: string | null;
	/** Tool results too large for the window shown as excerpts (their exact text stored), and those left whole (the cap). */
	readonly evidence: { readonly written: number; readonly refused: number; readonly recent: readonly ExcerptNote[] };
}

export class Telemetry {
	private observer = new WindowObserver();
	private wire: WindowObserver | null = null;
	/** What had moved the window at the last observed request (the wire observer follows it). */
	private lastMoved = { commitSeq: 0, compactions: 0 };
	private observations = new Recent<RequestObservation>(OBSERVATION_HISTORY);
	private baseline = "since session start";
	private lastUsage: Usage | null = null;
	private schedule: ScheduleNote | null = null;
	private commit: CommitNote | null = null;
	private commitRefusals: readonly { foldId: string; reason: string }[] = [];
	private receipt: string | null = null;
	private compactions = new Recent<CompactionNote>(HISTORY_LIMIT);
	private fenced = new Recent<string>(HISTORY_LIMIT);
	private fenceAborts = 0;
	private briefs = { calls: 0, fallbacks: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	private briefFallback: string | null = null;
	private evidenceWritten = new Recent<ExcerptNote>(HISTORY_LIMIT);
	private evidenceRefused = 0;
	/** Where each recent commit first changed the window, by seq (the observer checks rewrites against it). */
	private firstEdits = new Map<number, number>();

	/** Restarts the window measurement (session start, /tree navigation); `why` says since when. */
	restartWindow(why: string): void {
		this.observer = new WindowObserver();
		this.wire = null;
		this.observations = new Recent<RequestObservation>(OBSERVATION_HISTORY);
		this.lastUsage = null;
		this.baseline = why;
	}

	/** Per-message digests of a request (shared by the fence's estimate cache and the observer). */
	digests(messages: readonly unknown[]): Uint8Array[] {
		return this.observer.digests(messages);
	}

	/**
	 * Classifies one request: `commitSeq` and `compactions` are the branch's latest commit and its
	 * native compactions; each commit's first edit is the one recorded with it (recordCommit).
	 */
	observe(
		messages: readonly unknown[],
		moved: { commitSeq: number; compactions: number },
		digests?: Uint8Array[],
	): RequestObservation {
		const moves: WindowMoves = { ...moved, firstEdit: (seq) => this.firstEdits.get(seq) ?? null };
		this.lastMoved = { ...moved };
		const observation = this.observer.observe(messages, moves, digests);
		this.observations.push(observation);
		return observation;
	}

	/**
	 * The same request as its body left for the provider (`parts`: a head part with role "system",
	 * then the body's conversation items). A wire rewrite is explained only where the window observer
	 * explained this request's rewrite (positions on the wire are the API's own, so a commit or a
	 * compaction that explains the request explains the body); on a request the window observer saw
	 * as an append, a wire rewrite is a body change nothing explains.
	 */
	observeWire(parts: readonly unknown[]): RequestObservation {
		this.wire ??= new WindowObserver();
		const request = this.observer.lastObservation();
		const explained = request?.kind === "rewrite" && request.cause !== null;
		const moves: WindowMoves = explained
			? { ...this.lastMoved, firstEdit: () => 0 }
			: { commitSeq: 0, compactions: 0, firstEdit: () => null };
		return this.wire.observe(parts, moves);
	}

	/** The provider's usage for the last observed request. */
	recordUsage(usage: Usage): void {
		this.lastUsage = usage;
		this.observer.recordUsage(usage);
		this.wire?.recordUsage(usage);
	}

	recordSchedule(note: ScheduleNote): void {
		this.schedule = note;
	}

	recordCommit(note: CommitNote, receipt: string | null): void {
		this.commit = note;
		if (note.firstEdit !== undefined && note.firstEdit !== null) this.firstEdits.set(note.seq, note.firstEdit);
		for (const seq of this.firstEdits.keys()) if (seq <= note.seq - HISTORY_LIMIT) this.firstEdits.delete(seq);
		if (receipt !== null) this.receipt = receipt;
	}

	recordCommitRefusals(refused: readonly { foldId: string; reason: string }[]): void {
		this.commitRefusals = refused;
	}

	recordCompaction(note: CompactionNote): void {
		this.compactions.push(note);
	}

	/** A request the fence found over the budget; `aborted` when it stopped it. */
	recordFence(message: string, aborted: boolean): void {
		this.fenced.push(message);
		if (aborted) this.fenceAborts++;
	}

	/** One model-brief attempt: a model brief (with its usage) or a deterministic fallback (with why). */
	recordBrief(outcome: {
		fellBack: boolean;
		reason?: string | undefined;
		usage?: Omit<BriefUsage, "calls" | "fallbacks">;
	}): void {
		if (outcome.fellBack) {
			this.briefs.fallbacks++;
			this.briefFallback = outcome.reason ?? null;
		} else this.briefs.calls++;
		const u = outcome.usage;
		if (!u) return;
		this.briefs.input += u.input;
		this.briefs.output += u.output;
		this.briefs.cacheRead += u.cacheRead;
		this.briefs.cacheWrite += u.cacheWrite;
	}

	/** A result shown as an excerpt (its note), or one left whole because of the cap (null). */
	recordEvidence(record: ExcerptNote | null): void {
		if (record) this.evidenceWritten.push(record);
		else this.evidenceRefused++;
	}

	view(): TelemetryView {
		return {
			baseline: this.baseline,
			counters: this.observer.counts(),
			wire: this.wire?.counts() ?? null,
			observations: this.observations.recent,
			lastUsage: this.lastUsage,
			schedule: this.schedule,
			commit: this.commit,
			commitRefusals: this.commitRefusals,
			receipt: this.receipt,
			compactions: { total: this.compactions.total, recent: this.compactions.recent },
			fenced: { total: this.fenced.total, aborted: this.fenceAborts, recent: this.fenced.recent },
			briefs: { ...this.briefs },
			briefFallback: this.briefFallback,
			evidence: {
				written: this.evidenceWritten.total,
				refused: this.evidenceRefused,
				recent: this.evidenceWritten.recent,
			},
		};
	}
}
