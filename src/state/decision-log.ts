// The runtime's view of the decision log on the active branch: replays the branch's records into a
// FoldState incrementally (only records after the last synced one; a full replay when the branch
// changed under it, when its last record was refused, or when an adopt record arrives),
// trusting records signed with its key, and remembers every fold record an accepted decision named,
// so a dissolved or merged fold's source can still be found for a restore. It also chains new
// records with that key, each body validated against the record schema first. In-memory; reads no
// files.

import { escapeUnsafe } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";
import { type ChainKey, chainRecord } from "./chain.ts";
import { describeError } from "./record-check.ts";
import { emptyState, type FoldState, replay } from "./record-replay.ts";
import { type DecisionBody, type DecisionRecord, parseDecisionBody } from "./records.ts";

export interface LogRecord {
	readonly entryId: string;
	readonly data: unknown;
}

function isAdopt(record: LogRecord): boolean {
	return (record.data as { kind?: unknown } | null)?.kind === "adopt";
}

export class DecisionLog {
	/** The key this log trusts and signs with. */
	readonly key: ChainKey;
	private ids: string[] = [];
	private current: FoldState = emptyState();
	private knownFolds = new Map<string, FoldRecord>();
	private lastRefused = false;
	/** The records array the last sync read: the same array again (a host's unchanged view) is already synced. */
	private lastRecords: readonly LogRecord[] | null = null;

	constructor(key: ChainKey) {
		this.key = key;
	}

	get state(): FoldState {
		return this.current;
	}

	/** Every fold record an accepted decision on this branch named, dissolved ones included. */
	get known(): ReadonlyMap<string, FoldRecord> {
		return this.knownFolds;
	}

	/**
	 * `body` as the record that follows `prev`, signed with this log's key; a body the record schema
	 * refuses is never chained (the error names each bad field).
	 */
	chain(body: DecisionBody, prev: string | null): DecisionRecord {
		try {
			parseDecisionBody(body);
		} catch (error) {
			throw new Error(`${String(body.kind)} decision not recorded: ${describeError(error)}`);
		}
		return chainRecord(body, prev, this.key);
	}

	/** Brings the state up to `records` (the branch's decision records in order). */
	sync(records: readonly LogRecord[]): FoldState {
		if (records === this.lastRecords && !this.lastRefused) return this.current;
		this.lastRecords = records;
		let prefix = this.ids.length <= records.length && !this.lastRefused;
		for (let i = 0; prefix && i < this.ids.length; i++) if (this.ids[i] !== records[i]?.entryId) prefix = false;
		if (prefix && records.slice(this.ids.length).some(isAdopt)) prefix = false;
		if (!prefix) {
			this.ids = [];
			this.current = emptyState();
			this.knownFolds = new Map();
		}
		const fresh = records.slice(this.ids.length);
		if (fresh.length === 0) return this.current;
		const before = this.current.refusals.length;
		this.current = replay(fresh, this.current, this.key);
		const refused = new Set(this.current.refusals.slice(before).map((r) => r.entryId));
		for (const record of fresh) {
			this.ids.push(record.entryId);
			if (refused.has(record.entryId)) continue;
			const fold = (record.data as { fold?: FoldRecord } | null)?.fold;
			if (fold && typeof fold.id === "string")
				this.knownFolds.set(fold.id, { ...fold, brief: escapeUnsafe(fold.brief) });
		}
		// After a refused record replay relaxes the next link check, so the next sync replays in full; a
		// held record advanced the chain like an accepted one, so an incremental sync stays exact.
		const last = fresh.at(-1)?.entryId ?? "";
		this.lastRefused = this.current.refusals.some((r) => r.entryId === last && !r.held);
		return this.current;
	}
}
