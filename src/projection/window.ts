// Measures the invariant on every request: per-message SHA-256 digests of what the provider is sent
// (the system head that carries the prompt and the tool schemas, then every message), each request
// classified against the previous one as identical, pure append, or rewrite (with the first
// divergent index), and a rewrite attributed to what moved the window or counted as unattributed (a
// bug). A native compaction explains a rewrite anywhere; a commit explains one only from its own
// first edit on: a rewrite that starts before the commit's first changed message is something else's.
// Provider usage is then compared with the previous prompt, so a cache miss on a request pi-fold did
// not rewrite is reported as provider-side. Pure in-memory.

import { sha256Many } from "../wasm/index.ts";

type RequestKind = "first" | "identical" | "append" | "rewrite";

/** What explained a rewrite: a commit of pi-fold's, or a native compaction of the host's. */
type RewriteCause = "commit" | "compaction";

export interface RequestObservation {
	readonly index: number;
	readonly kind: RequestKind;
	readonly messages: number;
	/** First message index whose digest differs from the previous request (rewrites only). */
	readonly firstDivergent: number | null;
	/** The commit a rewrite is attributed to, or null (appends, a compaction, or an unattributed rewrite). */
	readonly commitSeq: number | null;
	/** What explained a rewrite, or null (appends, or an unattributed rewrite). */
	readonly cause: RewriteCause | null;
}

export interface WindowCounters {
	readonly requests: number;
	readonly identical: number;
	readonly appends: number;
	readonly rewrites: number;
	readonly unattributedRewrites: number;
	/** Requests the runtime did not rewrite whose cacheRead fell short of the previous prompt. */
	readonly providerCacheMisses: number;
}

/** Share of the previous prompt a pure append may fail to read before it counts as a provider miss. */
const CACHE_MISS_TOLERANCE = 0.01;

export interface Usage {
	readonly input: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** What may have moved the window since the last request, as the branch records it. */
export interface WindowMoves {
	/** The latest commit on the branch (0 before the first). */
	readonly commitSeq: number;
	/** Native compactions on the branch. */
	readonly compactions: number;
	/**
	 * Where commit `seq` first changed the window: how many conversation messages (system messages
	 * not counted) the window showed before its first edit; null when not known.
	 */
	readonly firstEdit: (seq: number) => number | null;
}

/** No move at all: a request stream with no commits and no compactions (tests, peers). */
export const NO_MOVES: WindowMoves = { commitSeq: 0, compactions: 0, firstEdit: () => null };

/**
 * The bytes digested for one message: its JSON, except that a system message's `timestamp` is left
 * out (pi-fold's own output-budget edit raises it, src/pi output-budget.ts, and no provider is sent it).
 */
function digestText(message: unknown): string {
	if (message !== null && typeof message === "object" && (message as { role?: unknown }).role === "system") {
		const { timestamp: _t, ...rest } = message as Record<string, unknown>;
		return JSON.stringify(rest);
	}
	return JSON.stringify(message) ?? "null";
}

function isSystem(message: unknown): boolean {
	return (message as { role?: unknown } | null)?.role === "system";
}

export class WindowObserver {
	private previous: Uint8Array[] = [];
	private digestCache = new WeakMap<object, Uint8Array>();
	private seenCommit = 0;
	private seenCompactions = 0;
	private lastPromptTokens: number | null = null;
	private last: RequestObservation | null = null;
	private counters = {
		requests: 0,
		identical: 0,
		appends: 0,
		rewrites: 0,
		unattributedRewrites: 0,
		providerCacheMisses: 0,
	};

	/** Per-message digests of `messages` (see digestText), cached by message identity. */
	digests(messages: readonly unknown[]): Uint8Array[] {
		const out: Uint8Array[] = new Array(messages.length);
		const missing: number[] = [];
		messages.forEach((message, i) => {
			const cached = message !== null && typeof message === "object" ? this.digestCache.get(message) : undefined;
			if (cached) out[i] = cached;
			else missing.push(i);
		});
		if (missing.length > 0) {
			const fresh = sha256Many(missing.map((i) => digestText(messages[i])));
			missing.forEach((i, k) => {
				const digest = fresh[k] as Uint8Array;
				out[i] = digest;
				const message = messages[i];
				if (message !== null && typeof message === "object") this.digestCache.set(message, digest);
			});
		}
		return out;
	}

	/**
	 * Classifies the request about to be sent; `moves` says what moved the window (commits and
	 * compactions on the branch). `digests`, when the caller already computed them with
	 * `digests(messages)`, are reused.
	 */
	observe(messages: readonly unknown[], moves: WindowMoves, digests?: Uint8Array[]): RequestObservation {
		const next = digests ?? this.digests(messages);
		const prev = this.previous;
		let firstDivergent: number | null = null;
		const shared = Math.min(prev.length, next.length);
		for (let i = 0; i < shared; i++) {
			if (!equal(prev[i] as Uint8Array, next[i] as Uint8Array)) {
				firstDivergent = i;
				break;
			}
		}
		if (firstDivergent === null && next.length < prev.length) firstDivergent = next.length;
		let kind: RequestKind;
		if (this.counters.requests === 0) kind = "first";
		else if (firstDivergent !== null) kind = "rewrite";
		else kind = next.length === prev.length ? "identical" : "append";
		const cause = kind === "rewrite" ? this.causeOf(messages, firstDivergent as number, moves) : null;
		this.count(kind, cause);
		this.seenCommit = Math.max(this.seenCommit, moves.commitSeq);
		this.seenCompactions = Math.max(this.seenCompactions, moves.compactions);
		this.previous = next;
		this.last = {
			index: this.counters.requests - 1,
			kind,
			messages: next.length,
			firstDivergent,
			commitSeq: cause === "commit" ? moves.commitSeq : null,
			cause,
		};
		return this.last;
	}

	/**
	 * What explains a rewrite first diverging at `at`: a compaction since the last request, else a
	 * commit since it whose first edit is at or before the divergence (counted in conversation
	 * messages, as the commit counted them); null when nothing does.
	 */
	private causeOf(messages: readonly unknown[], at: number, moves: WindowMoves): RewriteCause | null {
		if (moves.compactions > this.seenCompactions) return "compaction";
		if (moves.commitSeq <= this.seenCommit) return null;
		if (at < messages.length && isSystem(messages[at])) return null;
		let position = 0;
		for (let i = 0; i < at && i < messages.length; i++) if (!isSystem(messages[i])) position++;
		let first = Number.POSITIVE_INFINITY;
		for (let seq = this.seenCommit + 1; seq <= moves.commitSeq; seq++)
			first = Math.min(first, moves.firstEdit(seq) ?? Number.POSITIVE_INFINITY);
		return position >= first ? "commit" : null;
	}

	private count(kind: RequestKind, cause: RewriteCause | null): void {
		this.counters.requests++;
		if (kind === "identical") this.counters.identical++;
		if (kind === "append") this.counters.appends++;
		if (kind === "rewrite") {
			this.counters.rewrites++;
			if (cause === null) this.counters.unattributedRewrites++;
		}
	}

	/** Records the provider's usage for the last observed request. */
	recordUsage(usage: Usage): void {
		const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
		const last = this.last;
		if (last && (last.kind === "append" || last.kind === "identical") && this.lastPromptTokens !== null) {
			if (usage.cacheRead < this.lastPromptTokens * (1 - CACHE_MISS_TOLERANCE)) this.counters.providerCacheMisses++;
		}
		this.lastPromptTokens = prompt;
	}

	counts(): WindowCounters {
		return { ...this.counters };
	}

	lastObservation(): RequestObservation | null {
		return this.last;
	}
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}
