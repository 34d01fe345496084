// The simulated provider's bill for one request: a positional prefix cache exactly like pi-ai's faux
// provider (each message as `role:text`, joined by blank lines; equal messages compared whole, then
// characters from the first one that differs; tokens = characters / 4), plus a cache lifetime: a
// request later than `ttlMs` after the previous one reads nothing from cache. Pure in-memory.

import type { TranscriptMessage } from "../transcript/index.ts";

/** Usage of one simulated request, in tokens. */
export interface SimUsage {
	readonly promptTokens: number;
	readonly cacheRead: number;
	/** Prompt tokens not read from cache (written to it). */
	readonly fresh: number;
	readonly output: number;
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map(
			(b: {
				type?: string;
				text?: string;
				thinking?: string;
				name?: string;
				arguments?: unknown;
				mimeType?: string;
				data?: string;
			}) => {
				if (b.type === "text") return b.text ?? "";
				if (b.type === "thinking") return b.thinking ?? "";
				if (b.type === "toolCall") return `${b.name}:${JSON.stringify(b.arguments)}`;
				return `[image:${b.mimeType}:${b.data?.length ?? 0}]`;
			},
		)
		.join("\n");
}

/** One message as the faux provider serializes it. */
function messageText(message: TranscriptMessage): string {
	if (message.role === "toolResult") {
		const blocks = Array.isArray(message.content) ? (message.content as unknown[]) : [];
		return `toolResult:${[message.toolName ?? "", ...blocks.map((b) => contentText([b]))].join("\n")}`;
	}
	return `${message.role}:${contentText(message.content)}`;
}

function joinedLength(parts: readonly string[], count = parts.length): number {
	let length = count > 0 ? (count - 1) * 2 : 0;
	for (let i = 0; i < count; i++) length += (parts[i] as string).length;
	return length;
}

function commonPrefix(a: string, b: string): number {
	const n = Math.min(a.length, b.length);
	let i = 0;
	while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

/** Characters of the common prefix of two joined prompts (whole equal messages, then characters). */
function commonPromptPrefix(previous: readonly string[], current: readonly string[]): number {
	let index = 0;
	while (index < previous.length && index < current.length && previous[index] === current[index]) index++;
	const rest = (parts: readonly string[]) =>
		index === parts.length ? "" : (index > 0 ? "\n\n" : "") + parts.slice(index).join("\n\n");
	return joinedLength(previous, index) + commonPrefix(rest(previous), rest(current));
}

/** Characters per token, as the faux provider counts. */
const CHARS_PER_TOKEN = 4;

export class PrefixCache {
	private previous: string[] | null = null;
	private lastAt = Number.NEGATIVE_INFINITY;
	private readonly ttlMs: number;

	/** `ttlMs`: how long an entry lives after the last request (default: forever, like the faux provider). */
	constructor(ttlMs = Number.POSITIVE_INFINITY) {
		this.ttlMs = ttlMs;
	}

	/** Bills a request of `messages` (system message first) sent at `now`, with `outputChars` of reply. */
	request(messages: readonly TranscriptMessage[], now: number, outputChars = 0): SimUsage {
		const prompt = messages.map(messageText);
		const promptTokens = Math.ceil(joinedLength(prompt) / CHARS_PER_TOKEN);
		const warm = this.previous !== null && now - this.lastAt <= this.ttlMs;
		const cacheRead = warm ? Math.ceil(commonPromptPrefix(this.previous as string[], prompt) / CHARS_PER_TOKEN) : 0;
		this.previous = prompt;
		this.lastAt = now;
		return {
			promptTokens,
			cacheRead,
			fresh: Math.max(0, promptTokens - cacheRead),
			output: Math.ceil(outputChars / CHARS_PER_TOKEN),
		};
	}
}
