// The names a fold holds, as an index its brief carries: the paths its tool calls named, the
// symbols its reads define, and the distinctive identifiers of its tool results that the agent went
// on to use in its own words or calls inside the span, most used first. A fold that holds folds is
// indexed over all its entries, so an outer fold carries its children's names up and a name the
// agent sees in the window leads to the fold that holds it. Bounded by the room it is given; what
// does not fit is counted. Tokens are those a later reply would quote: paths (8+ characters with a
// slash), code-shaped identifiers of 8+ characters (camelCase, snake_case, letters with digits).
// Pure, linear in the span's text.

import { escapeUnsafe } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";

/** Characters a brief's name index takes at most. */
export const NAME_INDEX_MAX_CHARS = 320;

const PATH = /(?:[\w.-]+)?(?:\/[\w.@+-]+)+/g;
const IDENT = /\b[A-Za-z_][A-Za-z0-9_]{7,}\b/g;
const DEFINES =
	/\b(?:function|class|interface|type|const|let|var|def|fn|struct|enum|trait|impl|func|module)\s+([A-Za-z_][A-Za-z0-9_]{3,})/g;

/** An identifier shaped like code: camelCase, snake_case, or letters with digits. */
function codeShaped(token: string): boolean {
	return /[a-z][A-Z]/.test(token) || token.includes("_") || (/\d/.test(token) && /[A-Za-z]/.test(token));
}

function argumentsText(message: TranscriptEntry["message"]): string {
	if (message.role !== "assistant" || !Array.isArray(message.content)) return "";
	const parts: string[] = [];
	for (const block of message.content as unknown[]) {
		const b = block as { type?: unknown; arguments?: unknown } | null;
		if (b?.type === "toolCall") parts.push(JSON.stringify(b.arguments ?? {}));
	}
	return parts.join(" ");
}

/** Paths named in the agent's calls, in first-use order. */
function calledPaths(leaves: readonly TranscriptEntry[]): string[] {
	const out: string[] = [];
	for (const leaf of leaves)
		for (const m of argumentsText(leaf.message).matchAll(/"(?:path|file_path|file)":"([^"]{3,200})"/g))
			if (m[1] && !out.includes(m[1])) out.push(m[1]);
	return out;
}

/** The index entries of `leaves`, most useful first. */
export function heldNames(leaves: readonly TranscriptEntry[]): string[] {
	const results: string[] = [];
	const agent: string[] = [];
	for (const leaf of leaves) {
		const { message } = leaf;
		if (message.role === "toolResult") results.push(contentText(message.content, "\n"));
		else if (message.role === "assistant") agent.push(`${contentText(message.content)} ${argumentsText(message)}`);
	}
	const resultText = results.join("\n");
	const used = new Map<string, number>();
	const agentText = agent.join("\n");
	for (const m of agentText.matchAll(IDENT)) {
		const token = m[0];
		if (codeShaped(token)) used.set(token, (used.get(token) ?? 0) + 1);
	}
	for (const m of agentText.matchAll(PATH)) {
		const token = m[0];
		if (token.length >= 8 && /[A-Za-z]/.test(token)) used.set(token, (used.get(token) ?? 0) + 1);
	}
	const inResults = new Set<string>();
	for (const m of resultText.matchAll(IDENT)) inResults.add(m[0]);
	for (const m of resultText.matchAll(PATH)) inResults.add(m[0]);
	const fromResults = [...used].filter(([token]) => inResults.has(token)).sort((a, b) => b[1] - a[1]);
	const defined = new Set<string>();
	for (const m of resultText.matchAll(DEFINES)) if (m[1]) defined.add(m[1]);
	const out: string[] = [];
	const add = (name: string) => {
		if (!out.includes(name)) out.push(name);
	};
	for (const path of calledPaths(leaves)) add(path);
	for (const [token] of fromResults) add(token);
	for (const name of defined) add(name);
	return out;
}

/** "Names: a, b, c (+N more)." within `maxChars` (at most NAME_INDEX_MAX_CHARS); "" when none fit. */
export function nameIndex(leaves: readonly TranscriptEntry[], maxChars = NAME_INDEX_MAX_CHARS): string {
	const room = Math.min(maxChars, NAME_INDEX_MAX_CHARS);
	const names = heldNames(leaves).map((n) => escapeUnsafe(n));
	if (names.length === 0 || room < 40) return "";
	const head = "Names: ";
	let text = head;
	let shown = 0;
	for (const name of names) {
		const rest = names.length - shown - 1;
		const tail = rest > 0 ? ` (+${rest} more)` : "";
		if (text.length + name.length + 2 + tail.length + 12 > room) break;
		text += `${shown > 0 ? ", " : ""}${name}`;
		shown++;
	}
	if (shown === 0) return "";
	const rest = names.length - shown;
	return `${text}${rest > 0 ? ` (+${rest} more)` : ""}.`;
}
