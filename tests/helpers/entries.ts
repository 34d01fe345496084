// Small factories for transcript entries, shaped like Pi's session messages.
import type { TranscriptEntry } from "../../src/transcript/index.ts";

let clock = 1_700_000_000_000;

export function user(id: string, text: string): TranscriptEntry {
	return { id, message: { role: "user", content: text, timestamp: clock++ } };
}

export function reply(id: string, text: string): TranscriptEntry {
	return { id, message: { role: "assistant", content: [{ type: "text", text }], timestamp: clock++ } };
}

export function toolUse(
	id: string,
	calls: Array<{ id: string; name: string; args?: Record<string, unknown> }>,
): TranscriptEntry {
	return {
		id,
		message: {
			role: "assistant",
			content: calls.map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: c.args ?? {} })),
			stopReason: "toolUse",
			timestamp: clock++,
		},
	};
}

export function toolResult(id: string, callId: string, name: string, text: string): TranscriptEntry {
	return {
		id,
		message: {
			role: "toolResult",
			toolCallId: callId,
			toolName: name,
			content: [{ type: "text", text }],
			isError: false,
			timestamp: clock++,
		},
	};
}

/** A complete read batch: one assistant tool-use entry and one result per path. */
export function readBatch(
	prefix: string,
	paths: string[],
	body = (p: string) => `contents of ${p}`,
): TranscriptEntry[] {
	const calls = paths.map((path, i) => ({ id: `${prefix}-call${i}`, name: "read", args: { path } }));
	return [
		toolUse(`${prefix}-use`, calls),
		...calls.map((c, i) => toolResult(`${prefix}-r${i}`, c.id, "read", body(paths[i] as string))),
	];
}
