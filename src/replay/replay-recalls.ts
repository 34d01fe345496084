// The recalls a replay cannot see, estimated. The replay sends the session's own replies, written by
// an agent that could still see what pi-fold would have folded. A pi-fold agent that needs something
// its window no longer shows recalls it as the tool's guidelines say: one `search`, then one `peek`
// at what the search points to, two requests more before the reply (one more when the reply reads
// that file again: the peek stands for the read). A recall is counted for each file the reply, or
// the input it answers (the messages since the previous reply), names whose latest read result the
// request under pi-fold no longer holds, and once for a reply quoting distinctive tokens (letters and
// digits together, or six digits, six characters or more) an earlier message held and the request
// lacks. Each added request is billed as the reply's own request read from cache, plus the tool's
// answer fresh (a search result and a peek page) and a short call as output. Pure in-memory.

import { contentText, type TranscriptMessage } from "../transcript/index.ts";

/** Fresh tokens one recall adds (a search result and a peek page, as the tool answers them). */
export const RECALL_FRESH_TOKENS = 1_000;
/** Output tokens one recall's two calls cost (the search call and the peek call). */
export const RECALL_OUTPUT_TOKENS = 80;
/** Requests one recall takes (search, then peek). */
export const RECALL_REQUESTS = 2;

/** A token worth recalling: six or more word characters mixing letters and digits, or six digits. */
const DISTINCTIVE = /[A-Za-z0-9][A-Za-z0-9_-]{5,}/g;

/** The distinctive tokens of `text`: each has a digit, and a letter unless it is six digits or more. */
export function distinctiveTokens(text: string): string[] {
	const out = new Set<string>();
	for (const m of text.matchAll(DISTINCTIVE)) {
		const t = m[0];
		if (/\d/.test(t) && (/[A-Za-z]/.test(t) || t.length >= 6)) out.add(t);
	}
	return [...out];
}

/** The text a message carries that a reply can quote: its text blocks and its tool calls' arguments. */
export function quotableText(m: TranscriptMessage): string {
	const c = (m as { content?: unknown }).content;
	const calls = Array.isArray(c)
		? c.flatMap((part) => {
				const p = part as { type?: string; arguments?: unknown } | null;
				return p?.type === "toolCall" ? [JSON.stringify(p.arguments ?? {})] : [];
			})
		: [];
	return [contentText(c, "\n"), ...calls].join("\n");
}

/** What the estimated recalls add up to, in the session's tokens and dollars. */
export interface RecallBill {
	/** Replies that quote something their request no longer shows. */
	readonly recalls: number;
	readonly requests: number;
	readonly cacheRead: number;
	readonly fresh: number;
	readonly output: number;
	readonly cost: number;
}

/** The read calls of an assistant message: call id and the path it names. */
function readCalls(m: TranscriptMessage): { id: string; path: string }[] {
	const c = (m as { content?: unknown }).content;
	if (!Array.isArray(c)) return [];
	return c.flatMap((part) => {
		const p = part as { type?: string; id?: string; arguments?: { path?: unknown } } | null;
		const path = p?.arguments?.path;
		return p?.type === "toolCall" && typeof p.id === "string" && typeof path === "string" ? [{ id: p.id, path }] : [];
	});
}

/** Dollars of one request from its fresh, cache-read and output tokens. */
export type RequestPrice = (fresh: number, cacheRead: number, output: number) => number;

/** How much of a read's result a request must show for the read to count as visible. */
const RESULT_PROBE_CHARS = 160;

/** Counts, request by request, the replies that need what the request no longer shows. */
export class RecallMeter {
	private readonly seen = new Set<string>();
	/** Each file's latest read result, by path, and the path each read call named. */
	private readonly reads = new Map<string, string>();
	private readonly callPaths = new Map<string, string>();
	private next = 0;
	/** Each estimated recall: the request it precedes (session tokens) and the requests it adds. */
	private readonly recalls: { prompt: number; requests: number }[] = [];

	constructor(private readonly messages: readonly { readonly message: TranscriptMessage }[]) {}

	/** Takes in the messages before `at`, returning the text of those since the last reply (its new input). */
	private advance(at: number): string {
		const fresh: string[] = [];
		for (; this.next < at; this.next++) {
			const m = this.messages[this.next]?.message;
			if (!m) continue;
			const text = quotableText(m);
			for (const t of distinctiveTokens(text)) this.seen.add(t);
			if (m.role === "assistant") {
				fresh.length = 0;
				for (const call of readCalls(m)) this.callPaths.set(call.id, call.path);
				continue;
			}
			fresh.push(text);
			const path = m.role === "toolResult" ? this.callPaths.get(m.toolCallId ?? "") : undefined;
			if (path !== undefined) this.reads.set(path, contentText(m.content, "\n"));
		}
		return fresh.join("\n");
	}

	/**
	 * The request for the reply at `at` carried `shown`; `prompt` is its size in the session's tokens.
	 * A recall for each file the reply or its new input names whose latest read `shown` no longer
	 * holds, and one for quoted tokens an earlier message held that `shown` lacks.
	 */
	observe(at: number, shown: readonly TranscriptMessage[], prompt: number): void {
		const input = this.advance(at);
		const reply = this.messages[at]?.message;
		if (!reply) return;
		const said = quotableText(reply);
		const window = shown.map((m) => quotableText(m)).join("\n");
		const about = `${input}\n${said}`;
		const reading = new Set(readCalls(reply).map((c) => c.path));
		for (const [path, result] of this.reads) {
			if (!about.includes(path) || window.includes(result.slice(0, RESULT_PROBE_CHARS))) continue;
			// A file the reply reads again: the search is the one request more, the peek stands for the read.
			this.recalls.push({ prompt, requests: reading.has(path) ? RECALL_REQUESTS - 1 : RECALL_REQUESTS });
		}
		const quoted = distinctiveTokens(said).filter((t) => this.seen.has(t));
		if (quoted.some((t) => !window.includes(t))) this.recalls.push({ prompt, requests: RECALL_REQUESTS });
	}

	/** The recalls' bill: each request one adds is read from cache at the reply's size, priced by `price`. */
	bill(price: RequestPrice): RecallBill {
		const fresh = RECALL_FRESH_TOKENS / RECALL_REQUESTS;
		const output = RECALL_OUTPUT_TOKENS / RECALL_REQUESTS;
		const requests = this.recalls.reduce((n, r) => n + r.requests, 0);
		return {
			recalls: this.recalls.length,
			requests,
			cacheRead: this.recalls.reduce((n, r) => n + r.prompt * r.requests, 0),
			fresh: requests * fresh,
			output: requests * output,
			cost: this.recalls.reduce((n, r) => n + r.requests * price(fresh, r.prompt, output), 0),
		};
	}
}
