// The brief of an oversized tool result: what the window shows instead of a result too large for it,
// at the end of the turn that produced it (src/policy oversize.ts). It says what the result is and
// how large, then its start and its end (the head and the tail of its text), bounded to
// BRIEF_MAX_CHARS with every quoted character made safe (src/common/text.ts). A result shown as its
// place in a batch excerpt (a batch too large as a whole) says which of the batch it is, its size and
// only its start, BATCH_HEAD_CHARS of it. The exact original is the fold's verified source. Pure.

import { codePointLength, escapeUnsafe, sliceCodePoints } from "../common/index.ts";
import { BRIEF_MAX_CHARS } from "./deterministic.ts";

/** Share of the excerpt's room given to the result's start (the rest is its end). */
const HEAD_SHARE = 0.7;

/** The last `n` code points of `text`. */
function lastCodePoints(text: string, n: number): string {
	const points = [...text];
	return points.slice(Math.max(0, points.length - n)).join("");
}

/**
 * The excerpt brief of a result of `tool` (`target`: the path or pattern it was called with, if
 * any) whose text is `text`, `tokens` estimated tokens: what it is, its size, its head and its tail.
 */
export function excerptBrief(tool: string, target: string | undefined, text: string, tokens: number): string {
	const what = target ? `${escapeUnsafe(tool)} of ${escapeUnsafe(target).slice(0, 120)}` : escapeUnsafe(tool);
	const size = `${codePointLength(text).toLocaleString("en-US")} characters, ~${Math.round(tokens).toLocaleString("en-US")} tokens`;
	const head = `The result of ${what} (${size}) is too large for the window; its exact text is stored. Its start and its end:\n`;
	const room = Math.max(0, BRIEF_MAX_CHARS - codePointLength(head) - 40);
	const safe = escapeUnsafe(text);
	if (codePointLength(safe) <= room) return `${head}${safe}`;
	const first = sliceCodePoints(safe, Math.floor(room * HEAD_SHARE));
	const last = lastCodePoints(safe, room - codePointLength(first));
	const skipped = codePointLength(safe) - codePointLength(first) - codePointLength(last);
	return `${head}${first}\n[… ${skipped.toLocaleString("en-US")} characters …]\n${last}`;
}

/** Characters of a result's start its place in a batch excerpt shows. */
export const BATCH_HEAD_CHARS = 160;

/**
 * The brief of a result shown as its place in a batch excerpt: which of the batch's `count` results
 * it is (`position`, from 1), what it is and how large, and its start.
 */
export function batchExcerptBrief(
	tool: string,
	target: string | undefined,
	text: string,
	tokens: number,
	place: { readonly position: number; readonly count: number },
): string {
	const what = target ? `${escapeUnsafe(tool)} of ${escapeUnsafe(target).slice(0, 80)}` : escapeUnsafe(tool);
	const size = `${codePointLength(text).toLocaleString("en-US")} characters, ~${Math.round(tokens).toLocaleString("en-US")} tokens`;
	const head = `Result ${place.position} of ${place.count} in a batch too large for the window as a whole: ${what} (${size}), stored exactly. Its start:\n`;
	const safe = escapeUnsafe(text);
	if (codePointLength(safe) <= BATCH_HEAD_CHARS) return `${head}${safe}`;
	return `${head}${sliceCodePoints(safe, BATCH_HEAD_CHARS)} […]`;
}
