// What a search looks for, compiled once for every blob it scans. Fold sources are JSON Lines (one
// `{"id","message"}` per entry, exactly as JSON.stringify wrote it), so a literal pattern is matched
// in its JSON-escaped form (a quote as \", a newline as \n), which is how the same text sits in the
// source: searching "say \"hi\"" or a two-line snippet finds it. Literal search is case-insensitive
// for ASCII letters (other characters match exactly); regex search runs over the source bytes as
// stored (the JSON text; non-ASCII characters are their UTF-8 bytes) with the `i` flag. Pure.

/** Longest pattern accepted, in characters. */
export const SEARCH_PATTERN_MAX_CHARS = 400;

/** A search as the caller states it. */
interface SearchQuery {
	readonly pattern: string;
	readonly regex: boolean;
}

/** A compiled search: the bytes of a literal needle, or a regex source and flags. Plain data (crosses threads). */
export type CompiledQuery =
	| {
			readonly kind: "literal";
			/** The pattern JSON-escaped, UTF-8 encoded, ASCII letters lowercased. */
			readonly needle: Uint8Array;
	  }
	| { readonly kind: "regex"; readonly source: string };

type CompileResult = { ok: true; query: CompiledQuery } | { ok: false; error: string };

/** ASCII-lowercases bytes in place (UTF-8 multi-byte sequences are never touched). */
function lowerAsciiInPlace(bytes: Uint8Array): Uint8Array {
	for (let i = 0; i < bytes.length; i++) {
		const b = bytes[i] as number;
		if (b >= 0x41 && b <= 0x5a) bytes[i] = b | 0x20;
	}
	return bytes;
}

/** The pattern as it appears inside a JSON string: JSON.stringify's escaping without the quotes. */
function jsonEscaped(pattern: string): string {
	return JSON.stringify(pattern).slice(1, -1);
}

/**
 * A regex source over latin1 text (one character per byte): every non-ASCII character becomes the
 * `\xHH` escapes of its UTF-8 bytes, so it matches the bytes the source stores.
 */
function byteRegexSource(pattern: string): string {
	let out = "";
	for (const ch of pattern) {
		if (ch.charCodeAt(0) < 0x80) out += ch;
		else for (const b of Buffer.from(ch, "utf8")) out += `\\x${b.toString(16).padStart(2, "0")}`;
	}
	return out;
}

/** The flags every search regex runs with: global (scan on), case-insensitive. */
export const SEARCH_REGEX_FLAGS = "gi";

/** Validates and compiles a search; an error says what is wrong with the pattern. */
export function compileQuery(query: SearchQuery): CompileResult {
	const { pattern } = query;
	if (pattern.length === 0) return { ok: false, error: "pattern is empty" };
	if (pattern.length > SEARCH_PATTERN_MAX_CHARS)
		return { ok: false, error: `pattern is ${pattern.length} characters; at most ${SEARCH_PATTERN_MAX_CHARS}` };
	if (!query.regex) {
		const needle = lowerAsciiInPlace(new Uint8Array(Buffer.from(jsonEscaped(pattern), "utf8")));
		return { ok: true, query: { kind: "literal", needle } };
	}
	const source = byteRegexSource(pattern);
	let re: RegExp;
	try {
		re = new RegExp(source, SEARCH_REGEX_FLAGS);
	} catch (error) {
		return { ok: false, error: `not a valid regular expression: ${(error as Error).message}` };
	}
	if (re.test("")) return { ok: false, error: "the regular expression matches the empty string" };
	return { ok: true, query: { kind: "regex", source } };
}
