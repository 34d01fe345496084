// How large an unfolded session is against the model's window, in one plain line for `pi-fold unfold`:
// the context Pi would send on the session's first request after it is opened (the active branch from
// its latest compaction on, the summary and the kept entries, each message as Pi converts it), counted
// at four characters a token (an estimate: the tokenizer is the provider's), and what Pi will do when
// that is over the window, and the model the session ran on (to look its window up). Pure over the
// session file's text.

import { parseSessionFile } from "./session-file.ts";
import { contextMessageOf } from "./unfold-plan.ts";

/** Characters a token, as pi-fold's estimates count them. */
const CHARS_PER_TOKEN = 4;

/** Estimated tokens of the context the session's active branch sends (from its latest compaction on). */
export function contextTokensOf(text: string): number {
	const file = parseSessionFile(text);
	const lines = text.split("\n");
	const branch = file.branch;
	let from = 0;
	let chars = 0;
	for (let i = branch.length - 1; i >= 0; i--) {
		const e = branch[i];
		if (e?.type !== "compaction") continue;
		chars += e.summary.length;
		const kept = branch.findIndex((k) => k.id === e.firstKeptEntryId);
		from = kept >= 0 ? kept : i + 1;
		break;
	}
	for (const e of branch.slice(from)) {
		if (e.type === "compaction") continue;
		const message = contextMessageOf(JSON.parse(lines[e.line - 1] as string) as Record<string, unknown>);
		if (message) chars += JSON.stringify(message.content ?? "").length;
	}
	return Math.round(chars / CHARS_PER_TOKEN);
}

/** The model most of the branch's replies name (provider and id), or undefined. */
export function sessionModelOf(text: string): { provider: string; id: string } | undefined {
	const counts = new Map<string, { provider: string; id: string; n: number }>();
	for (const e of parseSessionFile(text).branch) {
		if (e.type !== "message" || e.message.role !== "assistant") continue;
		const m = e.message as { provider?: unknown; model?: unknown };
		if (typeof m.provider !== "string" || typeof m.model !== "string") continue;
		const key = `${m.provider}/${m.model}`;
		const seen = counts.get(key) ?? { provider: m.provider, id: m.model, n: 0 };
		counts.set(key, { ...seen, n: seen.n + 1 });
	}
	const top = [...counts.values()].sort((a, b) => b.n - a.n)[0];
	return top ? { provider: top.provider, id: top.id } : undefined;
}

/** "2.8 million" or "120,000". */
function tokensWord(n: number): string {
	return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} million` : n.toLocaleString("en-US");
}

/** The one line on the unfolded session's size: against the window when it is known. */
export function sizeLine(
	tokens: number,
	window: { readonly tokens: number; readonly from: string } | undefined,
): string {
	const holds = `The unfolded session holds about ${tokensWord(tokens)} tokens`;
	if (!window) return `${holds} (the model's window is not known: --window N compares it).`;
	const w = `${window.tokens.toLocaleString("en-US")}-token window (${window.from})`;
	if (tokens <= window.tokens) return `${holds}, within the model's ${w}.`;
	const far = tokens >= 2 * window.tokens ? "far more than" : "more than";
	return `${holds}, ${far} the model's ${w}: Pi will compact it on the first request.`;
}
