// The per-session folding controller, with no host of its own: every call takes a `Host` (ports.ts)
// that a Pi adapter or the simulator supplies. It owns the decision-log view, the fold store handle,
// the telemetry, the request estimator, the session meter and a lock that serializes decisions and
// commits. Tool actions decide (`decide` chains a record and appends it through the host);
// `boundary` is the one path that moves bytes: the decision core plans the boundary (src/policy
// `decideCommit`, pure), the commit pipeline carries the plan out (commit/pipeline.ts), and the
// drafts return (edits, the chained commit record, the bounded receipt). Writes only through the
// host and the fold store.

import { errorMessage, nounFor } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";
import { derivedNames, type ResolvedOptions } from "../options/index.ts";
import {
	budgetFor,
	buildSnapshot,
	type Calibration,
	type DecisionInput,
	decideCommit,
	type FenceVerdict,
	inEstimatedTokens,
	type Occupancy,
	pricesAssumed,
	type Snapshot,
	windowTokens,
} from "../policy/index.ts";
import type { RequestObservation, Usage } from "../projection/index.ts";
import { type Actor, type DecisionBody, DecisionLog, type DecisionRecord, type FoldState } from "../state/index.ts";
import { FoldStore, resolveStoreDir } from "../store/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import { forecastPlan, planActs } from "./boundary-forecast.ts";
import { chainKeyFor, processChainKey } from "./chain-key.ts";
import { type CommitOutcome, receiptType, runCommit } from "./commit/index.ts";
import { commitDrafts } from "./commit-drafts.ts";
import { compactionDecision } from "./compaction-decision.ts";
import { hostFacts } from "./host-facts.ts";
import { SessionMeter } from "./meter.ts";
import { OnceNotices } from "./once-notices.ts";
import type { BoundaryDraft, Host, SourceStore } from "./ports.ts";
import { RequestEstimator } from "./request-estimate.ts";
import { watchRequest } from "./request-watch.ts";
import { type StablePrefix, stablePrefix } from "./stable-prefix.ts";
import { StoreHealth, StoreWriteError } from "./store-health.ts";
import { type CompactionNote, Telemetry } from "./telemetry.ts";

/** Builds the fold store for a directory (tests substitute a store that fails on purpose). */
export type StoreFactory = (dir: string) => SourceStore;

/** Where a boundary is: the end of a turn (a tool batch answered), or the end of the agent's run. */
export type BoundaryKind = "turn_end" | "settle";

/** How a boundary names itself in records and status. */
export const BOUNDARY_NAMES: Record<BoundaryKind, string> = {
	turn_end: "end of a turn",
	settle: "end of the agent's run",
};

/** Appends one decision inside a runtime transaction (the lock held): chained after the branch's last record. */
export type Decide = (body: DecisionBody) => DecisionRecord;

export class FoldRuntime {
	#options: ResolvedOptions;
	#names: ReturnType<typeof derivedNames>;
	readonly telemetry = new Telemetry();
	private readonly storeFactory: StoreFactory;
	private log = new DecisionLog(processChainKey());
	private sourceStore: SourceStore | null = null;
	private storeDir: string | null = null;
	private estimator = new RequestEstimator();
	private meter = new SessionMeter();
	private tail: Promise<unknown> = Promise.resolve();
	private readonly notices = new OnceNotices();
	private actors = new Set<Actor>();
	/** Why the human paused automatic folding until this runtime loads again (expand-all), or null. */
	private automaticHold: string | null = null;
	/** Whether the fold store can be written (a failed write pauses automatic folding until a probe succeeds). */
	private readonly health = new StoreHealth();
	/** Told after each decision is recorded (onDecision), or null. */
	private decided: (() => void) | null = null;
	/** Why the last boundary failed, or null: native compaction is never held back on a failed commit. */
	private boundaryFailed: string | null = null;

	constructor(options: ResolvedOptions, storeFactory?: StoreFactory) {
		this.#options = options;
		this.#names = derivedNames(options);
		this.storeFactory = storeFactory ?? ((dir) => new FoldStore(dir));
	}

	/** The options in force (set at construction, replaced only by `reconfigure`). */
	get options(): ResolvedOptions {
		return this.#options;
	}

	/** The names derived from the options (entry types, the store's folder). */
	get names(): ReturnType<typeof derivedNames> {
		return this.#names;
	}

	/** Replaces the options (a project's settings file is read at session start); later calls read them. */
	reconfigure(options: ResolvedOptions): void {
		this.#options = options;
		this.#names = derivedNames(options);
	}

	/** Pauses automatic folding until this runtime loads again, saying why (the human's expand-all). */
	holdAutomatic(why: string): void {
		this.automaticHold = why;
	}

	/** Custom-message type of this runtime's commit receipts. */
	get receiptType(): string {
		return receiptType(this.options.entryTypePrefix);
	}

	/** Runs `fn` after every earlier decision or commit has finished (one at a time). */
	private exclusive<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.tail.then(fn, fn);
		this.tail = run.catch(() => undefined);
		return run;
	}

	/**
	 * Runs `fn` under the runtime's lock, after every earlier decision or commit has finished, with
	 * `decide`: the only way a decision is recorded outside a boundary.
	 */
	transaction<T>(
		host: Pick<Host, "branchRecords" | "appendRecord">,
		fn: (decide: Decide) => Promise<T> | T,
	): Promise<T> {
		return this.exclusive(async () => fn((body) => this.decide(host, body)));
	}

	/** The fold store of the host's session (opened at session start, or lazily). */
	store(host: Pick<Host, "session">): SourceStore {
		const session = host.session();
		const dir = resolveStoreDir({
			sessionDir: session.dir,
			sessionId: session.id,
			storeDirName: this.names.storeDirName,
		});
		if (!this.sourceStore || this.storeDir !== dir) {
			this.sourceStore = this.health.guard(this.storeFactory(dir), dir);
			this.storeDir = dir;
		}
		return this.sourceStore;
	}

	/** Rebuilds everything from the branch (session start of every reason, and /tree navigation). */
	rebuild(host: Host, why: string): void {
		this.log = new DecisionLog(chainKeyFor(host));
		this.estimator = new RequestEstimator();
		this.meter = new SessionMeter();
		this.telemetry.restartWindow(why);
		this.health.reset();
		this.boundaryFailed = null;
		this.sourceStore = null;
		this.store(host);
		this.sync(host);
		this.reportRefusals(host);
	}

	/** Brings the decision log up to the branch's records; returns the state. */
	sync(host: Pick<Host, "branchRecords">): FoldState {
		return this.log.sync(host.branchRecords());
	}

	/** One consistent picture of the branch for a decision or a commit. */
	snapshot(host: Pick<Host, "readBranch" | "model">): Snapshot {
		const view = host.readBranch();
		const state = this.log.sync(view.records);
		return buildSnapshot(view, state, this.log.known, budgetFor(host.model(), this.options.providerTotalWindow));
	}

	/** The first entry the next commit could change (stable-prefix.ts): a host caches the prefix before it. */
	stablePrefixEnd(host: Pick<Host, "readBranch" | "model">): StablePrefix {
		return stablePrefix(this.snapshot(host), this.options);
	}

	/** The fold state as of the last sync with the branch (tab completion reads it without a host). */
	foldState(): FoldState {
		return this.log.state;
	}

	/** Every fold record an accepted decision named (dissolved ones included). */
	knownFolds(): ReadonlyMap<string, FoldRecord> {
		return this.log.known;
	}

	/** Why automatic folding is paused (refused decision records, an unwritable store, the human's hold), or null. */
	pauseReason(): string | null {
		const refusals = this.log.state.refusals;
		const first = refusals[0];
		if (!first)
			return (
				this.health.pauseReason() ??
				(this.automaticHold === null ? null : `automatic folding paused: ${this.automaticHold}`)
			);
		const n = refusals.length;
		return `automatic folding paused: ${n} decision ${nounFor(n, "record")} refused (entry ${first.entryId}: ${first.reason})`;
	}

	/** Tells the human once per refused record, out of band. */
	reportRefusals(host: Pick<Host, "notify">): void {
		this.notices.refusals(host, this.log.state.refusals, this.pauseReason() ?? "");
	}

	/** Tells the human `message` out of band, once per `key` this session. */
	notifyOnce(host: Pick<Host, "notify">, key: string, message: string, level: "info" | "warning" | "error"): void {
		this.notices.once(host, key, message, level);
	}

	/** Chains `body` after the branch's last record and appends it (the lock held: `transaction`, `boundary`). */
	private decide(host: Pick<Host, "branchRecords" | "appendRecord">, body: DecisionBody): DecisionRecord {
		const state = this.sync(host);
		const record = this.log.chain(body, state.lastDigest);
		host.appendRecord(record);
		this.actors.add(body.actor);
		this.sync(host);
		this.decided?.();
		return record;
	}

	/** `listener` runs after each decision is recorded (a host that skipped a boundary handles it again). */
	onDecision(listener: () => void): void {
		this.decided = listener;
	}

	/**
	 * The boundary commit (turn_end / agent_before_settle): the scheduler decides whether this
	 * boundary commits; if it does, the drafts to append (context edits, the chained commit record
	 * and, for a commit the runtime chose the moment of, the bounded receipt); undefined when the
	 * window stays as it is. `nextRequest` is the host's preview of the next request's messages,
	 * whose estimated size is the occupancy the scheduler reads. A store that failed is probed first.
	 */
	boundary(host: Host, at: BoundaryKind, nextRequest?: readonly unknown[]): Promise<BoundaryDraft[] | undefined> {
		return this.exclusive(async () => {
			this.sync(host);
			this.reportRefusals(host);
			const store = this.store(host);
			await this.health.retry(store, host, this.options.brandNoun);
			try {
				return await this.commitOnce(host, store, at, nextRequest);
			} catch (error) {
				this.boundaryFailed = errorMessage(error);
				if (!(error instanceof StoreWriteError)) throw error;
				// A failed write pauses automatic folding (pauseReason) and the records appended name only
				// sources written; the explicit decisions (an expand, a refold, the human's marks) still
				// land at this boundary, in a commit that writes nothing.
				return await this.commitOnce(host, store, at, nextRequest).catch((again: unknown) => {
					this.boundaryFailed = errorMessage(again);
					if (!(again instanceof StoreWriteError)) throw again;
					return undefined;
				});
			} finally {
				// The store's failure (a write here, or an action's since), told once per episode.
				this.health.tell(this.options.brandNoun, host.notify);
			}
		});
	}

	/** What the decision core reads at a boundary `at` on `snap`, the next request's messages given. */
	private decisionInput(
		host: Host,
		snap: Snapshot,
		at: BoundaryKind,
		nextRequest?: readonly unknown[] | number,
	): DecisionInput {
		return {
			snap,
			options: this.options,
			meter: this.meter,
			host: hostFacts(host),
			occupancy: this.occupancy(host, nextRequest),
			paused: this.pauseReason() !== null,
			actors: this.actors,
			at: BOUNDARY_NAMES[at],
		};
	}

	/**
	 * Whether the boundary about to come may commit, decided as `boundary` will decide it before the
	 * host appends `pending` (boundary-forecast.ts); `nextRequest` is the estimated tokens of the next
	 * request's messages (as the preview's are counted), `pending` among them. What a skipped
	 * boundary would have noted is noted here. True when unsure: a store failure the boundary would
	 * retry, a failed boundary it would clear.
	 */
	forecast(host: Host, at: BoundaryKind, nextRequest: number, pending: readonly TranscriptMessage[]): Promise<boolean> {
		return this.exclusive(async () => {
			if (this.health.pauseReason() !== null || this.boundaryFailed !== null) return true;
			this.sync(host);
			this.reportRefusals(host);
			const decide = (snap: Snapshot) => decideCommit(this.decisionInput(host, snap, at, nextRequest));
			const plan = forecastPlan(this.snapshot(host), pending, decide);
			const acts = planActs(plan);
			if (!acts) this.telemetry.recordSchedule(plan.schedule);
			return acts;
		});
	}

	/** One decision and its commit at a boundary (boundary). */
	private async commitOnce(
		host: Host,
		store: SourceStore,
		at: BoundaryKind,
		nextRequest?: readonly unknown[],
	): Promise<BoundaryDraft[] | undefined> {
		const plan = decideCommit(this.decisionInput(host, this.snapshot(host), at, nextRequest));
		const planned = await runCommit(plan, {
			options: this.options,
			store,
			host,
			decide: (body) => void this.decide(host, body),
			snapshot: () => this.snapshot(host),
			recordSchedule: (note) => this.telemetry.recordSchedule(note),
			recordEvidence: (excerpt) => this.telemetry.recordEvidence(excerpt),
			notifyOnce: (key, message, level) => this.notifyOnce(host, key, message, level),
			reportCommitRefusals: (refused) => this.notices.commitRefusals(host, this.telemetry, refused),
		});
		this.boundaryFailed = null;
		return planned ? this.drafts(planned, this.pricesAssumed(host)) : undefined;
	}

	/**
	 * The estimated size of the next request: the boundary preview's messages and the system prompt
	 * (the whole request the provider bills) when given, else the host's own estimate.
	 */
	occupancy(host: Pick<Host, "contextTokens" | "systemPrompt">, nextRequest?: readonly unknown[] | number): Occupancy {
		return this.estimator.occupancy(
			host.systemPrompt(),
			nextRequest,
			nextRequest === undefined ? host.contextTokens() : null,
		);
	}

	/** The window's estimated tokens now: the transcript as it shows, and the system prompt. */
	windowEstimate(host: Pick<Host, "systemPrompt">, snap: Snapshot): number {
		return windowTokens(snap).total + this.estimator.systemTokensOf(host.systemPrompt());
	}

	/** Whether the cost arithmetic rests on assumed prices (neither the model nor the settings give any): then no dollars are printed. */
	pricesAssumed(host: Pick<Host, "model">): boolean {
		return pricesAssumed(host.model()?.cost, this.options.prices);
	}

	/** How the provider counts a request against pi-fold's estimate (meter.ts), for figures a person reads. */
	get calibration(): Calibration {
		return this.meter.calibration;
	}

	/** The serving budget in pi-fold's estimated tokens, as the policies read it (calibrated to the provider). */
	estimatedBudget(host: Pick<Host, "readBranch" | "model">): number {
		return inEstimatedTokens(this.snapshot(host), this.meter.calibration).budget.budgetTokens;
	}

	/** The proposal's drafts (commit-drafts.ts); the actors of the epoch it closes are forgotten. */
	private drafts(planned: CommitOutcome, assumedPrices: boolean): BoundaryDraft[] {
		this.actors.clear();
		return commitDrafts(planned, {
			options: this.options,
			chain: (body, last) => this.log.chain(body, last),
			decisionEntryType: this.names.decisionEntryType,
			receiptType: this.receiptType,
			telemetry: this.telemetry,
			assumedPrices,
		});
	}

	/** One request about to be sent, as the provider is sent it: the fence, then the observer (request-watch.ts). */
	request(
		host: Pick<Host, "branchRecords" | "compactionCount" | "model" | "systemPrompt" | "now">,
		messages: readonly unknown[],
	): { verdict: FenceVerdict; observation: RequestObservation | null } {
		const budget = budgetFor(host.model(), this.options.providerTotalWindow);
		const parts = { telemetry: this.telemetry, estimator: this.estimator, meter: this.meter };
		const request = { systemPrompt: host.systemPrompt(), budget, now: () => host.now() };
		const moves = () => ({ commitSeq: this.sync(host).commitSeq, compactions: host.compactionCount() });
		return watchRequest(parts, messages, request, moves);
	}

	/** Records the provider's usage for the last observed request. */
	recordUsage(usage: Usage): void {
		this.telemetry.recordUsage(usage);
		this.meter.onUsage(usage.input + usage.cacheRead + usage.cacheWrite);
	}

	/** Decides beside a native compaction of `reason` (recorded, its notice told): the request now, the model in force. */
	compaction(host: Host, reason: string): CompactionNote {
		const snap = this.snapshot(host);
		const tokens = this.calibration.overhead + this.windowEstimate(host, snap) * this.calibration.rate;
		const note = compactionDecision(reason, inEstimatedTokens(snap, this.calibration), {
			...this.options,
			paused: this.health.briefly(this.pauseReason()),
			boundaryFailed: this.boundaryFailed,
			request: { tokens, budget: snap.budget },
		});
		const { notice, ...kept } = note;
		this.telemetry.recordCompaction(kept);
		if (notice) host.notify(notice, "warning");
		return kept;
	}
}
