// The text of a message's content, as a person reads it: a string as is, the text blocks of a
// block array joined. The one content-to-text helper every layer uses. Pure.

/** Text blocks of `content` joined by `separator` (non-text blocks contribute nothing). */
export function contentText(content: unknown, separator = " "): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content as unknown[]) {
		const b = block as { type?: unknown; text?: unknown } | null;
		if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
	}
	return parts.join(separator);
}
