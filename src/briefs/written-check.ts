// The checks a model-written (or supplied) brief passes before it stands in the window, beyond an
// agent's brief's (validate.ts: bounded, plain, about content): it must not echo its request (a
// transcript label of the request, the request's system prompt, or a long run of the request's own
// words), hold raw session data (entry or tool-call JSON), or hold instructions to the agent (what a
// span's text or a confused model may try to slip into every later request). A refused brief is
// replaced by the deterministic one; the reason is said in plain words. Pure.

import { briefProblem } from "./validate.ts";

/** Characters of the request a brief may repeat verbatim in one run before it counts as an echo. */
export const ECHO_RUN_CHARS = 160;
/** A brief shorter than the echo run is an echo when all of it (this long at least) is the request's. */
const ECHO_MIN_CHARS = 40;

/** A label the request's transcript writes at the start of a line (span-transcript.ts). */
const TRANSCRIPT_LABEL =
	/^(?:User:|Assistant:|Assistant ran \w+\(|Tool result(?: \([^)\n]*\))?(?:, an error)?:|--- (?:user|assistant|toolResult) )/m;
/** JSON of a session entry, a content block or a tool call's arguments. */
const ENTRY_JSON =
	/(?:\[\s*\{\s*"type"\s*:|\{\s*"(?:type|role|toolCallId|toolName|content|arguments|customType|action|id|parentId)"\s*:)/;
const INSTRUCTIONS: readonly RegExp[] = [
	/\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|system|other)\b/i,
	/\byou\s+(?:must|should|shall|need to|have to|are to|are required to|will now)\b/i,
	/^\s*(?:system|developer|instructions?)\s*:/im,
	/<\/?(?:system|instructions?|user|assistant)\b[^>]*>/i,
];

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** Whether `brief` repeats `request` (a label of its transcript, its system prompt, or a long verbatim run). */
function echoes(brief: string, request: { system: string; prompt: string }): boolean {
	if (TRANSCRIPT_LABEL.test(brief)) return true;
	const text = flat(brief);
	const prompt = flat(request.prompt);
	const system = flat(request.system);
	if (system.length >= ECHO_MIN_CHARS && text.includes(system.slice(0, 60))) return true;
	if (text.length < ECHO_RUN_CHARS) return text.length >= ECHO_MIN_CHARS && prompt.includes(text);
	for (let i = 0; i + ECHO_RUN_CHARS <= text.length; i += 20)
		if (prompt.includes(text.slice(i, i + ECHO_RUN_CHARS))) return true;
	return prompt.includes(text.slice(-ECHO_RUN_CHARS));
}

/**
 * Why a written brief is refused, in plain words ("it repeated its request"), or null when it may
 * stand. `request` is what the brief's model was sent.
 */
export function writtenBriefProblem(brief: string, request: { system: string; prompt: string }): string | null {
	const basic = briefProblem(brief);
	if (basic) return basic;
	if (echoes(brief, request)) return "it repeated its request instead of summarizing it";
	if (ENTRY_JSON.test(brief)) return "it held raw session data (entry JSON)";
	if (INSTRUCTIONS.some((re) => re.test(brief))) return "it held instructions to the agent";
	return null;
}
