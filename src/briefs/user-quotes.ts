// The user's own words in a brief: a fold that holds user messages quotes each one verbatim (its
// opening USER_QUOTE_CHARS characters, whitespace and line breaks as written, unsafe characters
// escaped visibly) with its size, so what the user asked stays in the window word for word after
// the commit that folded it, and a fold that holds folds carries their users' words up. The quotes
// share USER_QUOTES_MAX_CHARS of the brief; past what fits, a count of the rest says to peek. Placed
// between the summary and the listing of nested folds, and never shortened by them: the summary is
// what shortens. Pure.

import { codePointLength, escapeUnsafe, sliceCodePoints } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";
import { BRIEF_MAX_CHARS } from "./deterministic.ts";

/** Characters of one user message a brief quotes verbatim at most. */
export const USER_QUOTE_CHARS = 300;
/** Characters all of a brief's quotes of user messages take at most. */
export const USER_QUOTES_MAX_CHARS = 640;
/** Characters one quote keeps when many share the room (below it, the rest are counted instead). */
const USER_QUOTE_MIN_CHARS = 100;

/** The user messages among `leaves`, as text. */
function userTexts(leaves: readonly TranscriptEntry[]): string[] {
	return leaves
		.filter((leaf) => leaf.message.role === "user")
		.map((leaf) => contentText(leaf.message.content))
		.filter((text) => text.trim().length > 0);
}

function quote(text: string, chars: number): string {
	const size = codePointLength(text);
	const shown = size <= chars ? text : `${sliceCodePoints(text, chars)}…`;
	return `User (${size.toLocaleString("en-US")} chars): "${escapeUnsafe(shown)}"`;
}

/**
 * The verbatim quotes of the user messages `leaves` hold, within `maxChars` (at most
 * USER_QUOTES_MAX_CHARS); "" when none.
 */
export function userQuotes(leaves: readonly TranscriptEntry[], maxChars = USER_QUOTES_MAX_CHARS): string {
	const texts = userTexts(leaves);
	const room = Math.min(maxChars, USER_QUOTES_MAX_CHARS);
	if (texts.length === 0 || room < USER_QUOTE_MIN_CHARS) return "";
	const fit = Math.max(1, Math.min(texts.length, Math.floor(room / USER_QUOTE_MIN_CHARS)));
	const each = Math.max(USER_QUOTE_MIN_CHARS - 40, Math.min(USER_QUOTE_CHARS, Math.floor(room / fit) - 40));
	const shown = texts.slice(0, fit).map((text) => quote(text, each));
	const rest = texts.length - fit;
	const more = rest > 0 ? ` +${rest} more user message${rest === 1 ? "" : "s"} (peek to read them).` : "";
	return `${shown.join(" ")}${more}`;
}

/** `summary` then `quotes` then `listing`, within BRIEF_MAX_CHARS: the summary is what shortens. */
export function briefWithQuotes(summary: string, quotes: string, listing = ""): string {
	const tail = [quotes, listing].filter((part) => part.length > 0).join(" ");
	if (tail.length === 0) return summary;
	const room = BRIEF_MAX_CHARS - codePointLength(tail) - 1;
	if (room <= 1) return sliceCodePoints(tail, BRIEF_MAX_CHARS);
	const head = codePointLength(summary) <= room ? summary : `${sliceCodePoints(summary, room - 1)}…`;
	return `${head} ${tail}`;
}
