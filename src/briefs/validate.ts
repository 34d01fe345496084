// Validation of a brief the agent writes: bounded, non-empty, and about the span's content rather
// than its structure (a bare tool name or a fold id says nothing a reader can use). Pure.

import { BRIEF_MAX_CHARS } from "./deterministic.ts";

/** Fewest characters an agent-written brief may have. */
export const BRIEF_MIN_CHARS = 12;

const STRUCTURAL =
	/^(?:[\w.-]+(?:\s*(?:,|\+|and)\s*[\w.-]+)*|f[0-9a-f]{16}|tool ?(?:batch|results?|calls?)|folded|stale|done|n\/?a)$/i;

/** Returns why `brief` is refused, or null when it is acceptable. */
export function briefProblem(brief: string): string | null {
	const text = brief.trim();
	if (text.length === 0) return "brief is empty";
	if (brief.length > BRIEF_MAX_CHARS) return `brief is ${brief.length} characters; the limit is ${BRIEF_MAX_CHARS}`;
	if (text.length < BRIEF_MIN_CHARS || STRUCTURAL.test(text)) {
		return `brief ${JSON.stringify(text)} only names structure (a tool, an id); say what the span found or decided`;
	}
	return null;
}
