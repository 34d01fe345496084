// A span as a readable transcript, the text a brief request sends its model: one labelled paragraph
// per message ("User:", "Assistant:", `Assistant ran read(path="src/a.ts")`, "Tool result (read):"),
// the messages' own words and no entry JSON, ids or content blocks. A tool call is written as Pi's
// compaction writes one (`name(key=value, ...)`, each value as JSON); images are named, thinking is
// left out. Bounded at `maxChars`, with the cut said. Pure.

import { contentText, type TranscriptEntry, type TranscriptMessage } from "../transcript/index.ts";

/** The line that closes a transcript cut at its bound. */
export const SPAN_TRUNCATED_LINE = "[the rest of the span is left out of this request]";

/** `read(path="src/a.ts", offset=10)` for a tool call block. */
function callLine(name: string, args: unknown): string {
	if (args === null || typeof args !== "object") return `${name}()`;
	const parts = Object.entries(args as Record<string, unknown>).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
	return `${name}(${parts.join(", ")})`;
}

/** The non-text blocks of `content` a reader should know were there ("[1 image]"). */
function otherBlocks(content: unknown): string[] {
	if (!Array.isArray(content)) return [];
	const images = content.filter((b) => (b as { type?: unknown } | null)?.type === "image").length;
	return images > 0 ? [`[${images} image${images === 1 ? "" : "s"}]`] : [];
}

/** One message as readable paragraphs. */
function paragraphs(message: TranscriptMessage): string[] {
	const text = contentText(message.content, "\n").trim();
	const extra = otherBlocks(message.content);
	const body = [text, ...extra].filter((s) => s.length > 0).join("\n");
	switch (message.role) {
		case "user":
			return [`User:\n${body}`];
		case "assistant": {
			const out: string[] = body ? [`Assistant:\n${body}`] : [];
			for (const block of Array.isArray(message.content) ? (message.content as unknown[]) : []) {
				const b = block as { type?: unknown; name?: unknown; arguments?: unknown };
				if (b.type === "toolCall" && typeof b.name === "string")
					out.push(`Assistant ran ${callLine(b.name, b.arguments)}`);
			}
			return out;
		}
		case "toolResult": {
			const name = message.toolName ? ` (${message.toolName})` : "";
			const error = message.isError === true ? ", an error" : "";
			return [`Tool result${name}${error}:\n${body}`];
		}
		case "bashExecution": {
			const m = message as { command?: unknown; output?: unknown };
			return [`The user ran a shell command: ${String(m.command ?? "")}\n${String(m.output ?? "")}`.trim()];
		}
		case "compactionSummary":
		case "branchSummary":
			return [`Summary of earlier work:\n${String((message as { summary?: unknown }).summary ?? "")}`];
		default:
			return body ? [`Note (${message.role}):\n${body}`] : [];
	}
}

/** `entries` as a readable transcript of at most `maxChars` characters (plus the cut line). */
export function spanTranscript(entries: readonly TranscriptEntry[], maxChars: number): string {
	let out = "";
	for (const { message } of entries) {
		for (const p of paragraphs(message)) out += `${out ? "\n\n" : ""}${p}`;
		if (out.length >= maxChars) break;
	}
	if (out.length <= maxChars) return out;
	// Never cut a surrogate pair in two.
	const end = /[\uD800-\uDBFF]/.test(out.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
	return `${out.slice(0, end)}\n\n${SPAN_TRUNCATED_LINE}`;
}
