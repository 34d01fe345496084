// Validation of a brief someone writes (the agent, the human, a model or a supplied summarizer):
// bounded, non-empty, plain text (no control characters other than newline and tab, no bidi
// controls, no lone surrogates: src/common/text.ts), and about the span's content rather than its
// structure (a bare tool name or a fold id says nothing a reader can use). Lengths count Unicode
// code points, as the tool schema's `.max` and JSON Schema's `maxLength` do. Pure.

import { codePointLength, unsafeTextProblem } from "../common/index.ts";
import { BRIEF_MAX_CHARS } from "./deterministic.ts";

/** Fewest characters (code points) an agent-written brief may have. */
export const BRIEF_MIN_CHARS = 12;

const STRUCTURAL =
	/^(?:[\w.-]+(?:\s*(?:,|\+|and)\s*[\w.-]+)*|f[0-9a-f]{16}|tool ?(?:batch|results?|calls?)|folded|stale|done|n\/?a)$/i;

/** Returns why `brief` is refused, or null when it is acceptable. */
export function briefProblem(brief: string): string | null {
	const text = brief.trim();
	if (text.length === 0) return "brief is empty";
	const length = codePointLength(brief);
	if (length > BRIEF_MAX_CHARS)
		return `brief is ${length.toLocaleString("en-US")} characters (Unicode code points); the limit is ${BRIEF_MAX_CHARS.toLocaleString("en-US")}`;
	const unsafe = unsafeTextProblem(brief, "brief");
	if (unsafe) return unsafe;
	if (codePointLength(text) < BRIEF_MIN_CHARS || STRUCTURAL.test(text)) {
		return `brief ${JSON.stringify(text)} only names structure (a tool, an id); say what the span found or decided`;
	}
	return null;
}
