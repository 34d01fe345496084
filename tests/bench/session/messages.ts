// Small factories for the transcripts the policy tests feed it: what a provider would be sent.

import type { AssistantMessage, Message, ToolResultMessage } from "@earendil-works/pi-ai";

let ids = 0;

export function system(text = "You are a coding agent."): Message {
	return { role: "system", content: text, timestamp: 0 } as Message;
}

export function user(text: string): Message {
	return { role: "user", content: [{ type: "text", text }], timestamp: 0 };
}

/** An assistant turn calling one tool, and its result; returns both messages. */
export function exchange(name: string, args: Record<string, unknown>, result: string, isError = false): Message[] {
	const id = `t${++ids}`;
	const call: AssistantMessage = {
		role: "assistant",
		content: [{ type: "toolCall", id, name, arguments: args as never }],
		api: "faux",
		provider: "faux",
		model: "faux",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "toolUse",
		timestamp: 0,
	};
	const res: ToolResultMessage = {
		role: "toolResult",
		toolCallId: id,
		toolName: name,
		content: [{ type: "text", text: result }],
		isError,
		timestamp: 0,
	} as ToolResultMessage;
	return [call, res];
}
