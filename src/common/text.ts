// Text hygiene: what pi-fold lets into a brief and how it shows text to a person. A character is
// unsafe when a terminal or a renderer may act on it instead of showing it: C0 controls other than
// newline and tab (NUL, BEL, BS, CR, ESC, ...), DEL, C1 controls (U+0080-U+009F, which include the
// 8-bit CSI), lone UTF-16 surrogates, and the Unicode bidirectional controls (embeddings, overrides,
// isolates and the implicit marks LRM, RLM, ALM). Written text (briefs) with such a character is
// refused, naming it and its position; displayed text has each one escaped visibly (`\x1B`,
// `\u202E`). Lengths and positions count Unicode code points, as zod's `.max` and JSON Schema's
// `maxLength` do. Counted nouns too: one rule for "1 fold" / "2 folds" (`plural`, `nounFor`). Pure.

/** One unsafe character found in a text. */
interface UnsafeCharacter {
	/** The code point (a lone surrogate's code unit). */
	readonly codePoint: number;
	/** Its 1-based position in code points. */
	readonly position: number;
	/** A readable name: "U+001B (ESC, a control character)". */
	readonly name: string;
}

const C0_NAMES = [
	"NUL",
	"SOH",
	"STX",
	"ETX",
	"EOT",
	"ENQ",
	"ACK",
	"BEL",
	"BS",
	"TAB",
	"LF",
	"VT",
	"FF",
	"CR",
	"SO",
	"SI",
	"DLE",
	"DC1",
	"DC2",
	"DC3",
	"DC4",
	"NAK",
	"SYN",
	"ETB",
	"CAN",
	"EM",
	"SUB",
	"ESC",
	"FS",
	"GS",
	"RS",
	"US",
] as const;

const BIDI_NAMES: ReadonlyMap<number, string> = new Map([
	[0x061c, "ARABIC LETTER MARK"],
	[0x200e, "LEFT-TO-RIGHT MARK"],
	[0x200f, "RIGHT-TO-LEFT MARK"],
	[0x202a, "LEFT-TO-RIGHT EMBEDDING"],
	[0x202b, "RIGHT-TO-LEFT EMBEDDING"],
	[0x202c, "POP DIRECTIONAL FORMATTING"],
	[0x202d, "LEFT-TO-RIGHT OVERRIDE"],
	[0x202e, "RIGHT-TO-LEFT OVERRIDE"],
	[0x2066, "LEFT-TO-RIGHT ISOLATE"],
	[0x2067, "RIGHT-TO-LEFT ISOLATE"],
	[0x2068, "FIRST STRONG ISOLATE"],
	[0x2069, "POP DIRECTIONAL ISOLATE"],
]);

/**
 * Every unsafe character (with the `u` flag a surrogate class matches only unpaired surrogates).
 * Kept in one place so the check, the escaping and the docs agree.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "gu");

function hex(code: number, digits: number): string {
	return code.toString(16).toUpperCase().padStart(digits, "0");
}

/** "U+001B (ESC, a control character)", "U+202E (RIGHT-TO-LEFT OVERRIDE, a bidi control)", ... */
function describeCharacter(code: number): string {
	const u = `U+${hex(code, 4)}`;
	if (code < 0x20) return `${u} (${C0_NAMES[code]}, a control character)`;
	if (code === 0x7f) return `${u} (DEL, a control character)`;
	if (code >= 0x80 && code <= 0x9f) return `${u} (a C1 control character)`;
	if (code >= 0xd800 && code <= 0xdfff) return `${u} (a lone surrogate)`;
	const bidi = BIDI_NAMES.get(code);
	return bidi ? `${u} (${bidi}, a bidi control)` : u;
}

/** The first unsafe character of `text`, or null when it has none. */
export function findUnsafeCharacter(text: string): UnsafeCharacter | null {
	const match = UNSAFE.exec(text);
	if (!match) return null;
	const code = match[0].codePointAt(0) as number;
	return { codePoint: code, position: codePointLength(text.slice(0, match.index)) + 1, name: describeCharacter(code) };
}

/** Why `text` (something written: a brief) is refused, naming the character and its position; or null. */
export function unsafeTextProblem(text: string, what = "text"): string | null {
	const found = findUnsafeCharacter(text);
	if (!found) return null;
	return `${what} contains ${found.name} at character ${found.position.toLocaleString("en-US")}; it may hold newlines and tabs, but no other control characters, bidi controls or lone surrogates`;
}

/** The visible escape of one unsafe character: `\x1B` below U+0100, `\u202E` above. */
function escapeOne(char: string): string {
	const code = char.codePointAt(0) as number;
	return code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/** `text` with every unsafe character escaped visibly, for showing to a person or a model. */
export function escapeUnsafe(text: string): string {
	return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeOne) : text;
}

/** Length of `text` in Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			const d = text.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) i++;
		}
		n++;
	}
	return n;
}

/** The first `max` code points of `text` (never splitting a surrogate pair). */
export function sliceCodePoints(text: string, max: number): string {
	if (text.length <= max) return text;
	let n = 0;
	let i = 0;
	while (i < text.length && n < max) {
		const c = text.charCodeAt(i);
		const d = text.charCodeAt(i + 1);
		i += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
		n++;
	}
	return text.slice(0, i);
}

/** `one` when `n` is 1, else `many`: the noun after a count ("fold"/"folds", "entry"/"entries", "is"/"are"). */
export function nounFor(n: number, one: string, many = `${one}s`): string {
	return n === 1 ? one : many;
}

/** `n` grouped in thousands and its noun: "1 fold", "1,234 folds", "2 entries" (with `many` "entries"). */
export function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString("en-US")} ${nounFor(n, one, many)}`;
}
