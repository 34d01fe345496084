// Measures the invariant on every request: per-message SHA-256 digests of the window the provider
// is sent, each request classified against the previous one as identical, pure append, or rewrite
// (with the first divergent index), and a rewrite attributed to the commit that caused it or
// counted as unattributed (a bug). Provider usage is then compared with the previous prompt, so a
// cache miss on a request pi-fold did not rewrite is reported as provider-side. Pure in-memory.

import { sha256Many } from "../wasm/index.ts";

export type RequestKind = "first" | "identical" | "append" | "rewrite";

export interface RequestObservation {
	readonly index: number;
	readonly kind: RequestKind;
	readonly messages: number;
	/** First message index whose digest differs from the previous request (rewrites only). */
	readonly firstDivergent: number | null;
	/** The commit a rewrite is attributed to, or null (appends, or an unattributed rewrite). */
	readonly commitSeq: number | null;
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
export const CACHE_MISS_TOLERANCE = 0.01;

export interface Usage {
	readonly input: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

export class WindowObserver {
	private previous: Uint8Array[] = [];
	private digestCache = new WeakMap<object, Uint8Array>();
	private seenCommit = 0;
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

	/** Per-message digests of `messages` (JSON of each message), cached by message identity. */
	digests(messages: readonly unknown[]): Uint8Array[] {
		const out: Uint8Array[] = new Array(messages.length);
		const missing: number[] = [];
		messages.forEach((message, i) => {
			const cached = message !== null && typeof message === "object" ? this.digestCache.get(message) : undefined;
			if (cached) out[i] = cached;
			else missing.push(i);
		});
		if (missing.length > 0) {
			const fresh = sha256Many(missing.map((i) => JSON.stringify(messages[i]) ?? "null"));
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
	 * Classifies the request about to be sent; `commitSeq` is the latest commit on the branch.
	 * `digests`, when the caller already computed them with `digests(messages)`, are reused.
	 */
	observe(messages: readonly unknown[], commitSeq: number, digests?: Uint8Array[]): RequestObservation {
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
		const attributed = kind === "rewrite" && commitSeq > this.seenCommit ? commitSeq : null;
		this.counters.requests++;
		if (kind === "identical") this.counters.identical++;
		if (kind === "append") this.counters.appends++;
		if (kind === "rewrite") {
			this.counters.rewrites++;
			if (attributed === null) this.counters.unattributedRewrites++;
		}
		this.seenCommit = Math.max(this.seenCommit, commitSeq);
		this.previous = next;
		this.last = {
			index: this.counters.requests - 1,
			kind,
			messages: next.length,
			firstDivergent,
			commitSeq: attributed,
		};
		return this.last;
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
