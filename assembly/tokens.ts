// Token estimation (o200k_base-calibrated). Owns the estimator's input buffer, its feature
// histogram, its DFA state and the calibration trace. Numbers-only ABI, two equivalent paths:
//   fast (production): tokensRunReset(); per chunk write bytes at tokensInputPtr() and call
//     tokensRun(len); finally tokensRunTotal() -> the estimate (unrounded).
//   piece scanner (calibration, tests): tokensReset(); tokensScan(len, final) -> bytes consumed
//     (move the rest to the front, append, call again); tokensTotal() -> the same estimate.
//
// The piece scanner emulates o200k_base's pre-tokenizer on bytes (words with an optional leading
// space/punctuation char and camel-case splits, digit groups of up to 3, punctuation runs with
// trailing newlines, whitespace runs) and counts each piece into a feature bucket (kind, prefix,
// case, length). The estimate is the dot product of that histogram with TOKEN_COSTS, fitted by
// scripts/calibrate-tokens.mjs (see docs/token-estimation.md). The fast path is that model
// compiled by scripts/tokens-dfa.mjs into a byte DFA with additive costs (DFA_* tables): the two
// agree up to fixed-point rounding, except that the scanner splits runs longer than MAX_PIECE.

import { DFA_BYTE_CLASS, DFA_COST, DFA_END, DFA_NEXT, DFA_SCALE, TOKEN_COSTS } from "./tokens-costs.generated";

/** Input buffer capacity in bytes. */
const TOKENS_INPUT_CAPACITY: i32 = 65536;
/** Longest piece in bytes; longer runs are split so chunked scanning always makes progress. */
const MAX_PIECE: i32 = 1024;
/** Lookahead a piece needs past its end before it can be committed in a non-final chunk. */
const MARGIN: i32 = 8;

// Character classes.
const C_LOWER: u32 = 0;
const C_UPPER: u32 = 1;
const C_DIGIT: u32 = 2;
const C_SPACE: u32 = 3;
const C_HWS: u32 = 4; // tab, vertical tab, form feed
const C_NL: u32 = 5;
const C_PUNCT: u32 = 6; // other ASCII (punctuation, symbols, controls)
const C_XLETTER: u32 = 7; // non-ASCII letter (Latin, Cyrillic, CJK, ...)
const C_XSYMBOL: u32 = 8; // non-ASCII punctuation, symbols, emoji, stray bytes

// Feature layout (must match TOKEN_COSTS and scripts/calibrate-tokens.mjs).
const WORD_LENS: i32 = 25; // words: (prefix none/space/other) x (case) x ASCII letters 0..24+
// case: 0 no upper-case letter, 1 one (Capitalized), 2 two or more (CAPS, HTMLElement)
const F_WORD_EXTRA: i32 = 225; // ASCII letters beyond 24
const F_XL2: i32 = 226; // non-ASCII letters in words, by UTF-8 length (2, 3)
const F_DIGITS: i32 = 228; // digit groups of 1, 2, 3
const F_PUNCT: i32 = 231; // (leading space no/yes) x length 1..9+
const PUNCT_LENS: i32 = 9;
const F_PUNCT_EXTRA: i32 = 249;
const F_PUNCT_TRAIL: i32 = 250; // trailing \r \n / chars
const F_XS2: i32 = 251; // non-ASCII symbols (in punctuation runs or as a word prefix), by length 2, 3, 4
const F_WSNL: i32 = 254; // whitespace ending in a newline
const F_WS: i32 = 255; // other whitespace
/** Number of features (histogram entries). */
const TOKEN_FEATURES: i32 = 256;

/** Trace capacity in entries of (pieceEnd, feature, amount) u32 triples (calibration only). */
const TRACE_CAPACITY: i32 = 49152;

const input: usize = memory.data(TOKENS_INPUT_CAPACITY, 16);
const histogram: usize = memory.data(TOKEN_FEATURES * 8, 8);
const trace: usize = memory.data(TRACE_CAPACITY * 12, 4);

// Class of each ASCII byte (static data: the module has no start function to run).
const asciiClass: usize = memory.data<u8>([
	6, 6, 6, 6, 6, 6, 6, 6, 6, 4, 5, 4, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
	3, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 6, 6, 6, 6, 6, 6,
	6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6,
	6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6,
]);

let dfaState: u32 = 0;
let dfaSum: i64 = 0;
let traceOn: bool = false;
let traceCount: i32 = 0;
let traceOverflow: bool = false;

/** Pointer to the input buffer (TOKENS_INPUT_CAPACITY bytes). */
export function tokensInputPtr(): usize {
	return input;
}

/** Input buffer capacity in bytes. */
export function tokensInputCapacity(): i32 {
	return TOKENS_INPUT_CAPACITY;
}

/** Number of histogram features. */
export function tokensFeatureCount(): i32 {
	return TOKEN_FEATURES;
}

/** Pointer to the histogram: TOKEN_FEATURES little-endian u64 counts. */
export function tokensHistogramPtr(): usize {
	return histogram;
}

/** Starts a new estimate on the fast path (the DFA). */
export function tokensRunReset(): void {
	dfaState = 0;
	dfaSum = 0;
}

/** Starts a new estimate on both paths (the DFA and the piece scanner's histogram). */
export function tokensReset(): void {
	tokensRunReset();
	memory.fill(histogram, 0, <usize>(TOKEN_FEATURES * 8));
}

/**
 * Fast path: runs the estimator DFA over input[0, len) (len clamped to the capacity), continuing from the previous call (any
 * chunking gives the same result). One class lookup, one cost and one next-state load per byte,
 * no data-dependent branches.
 */
export function tokensRun(len: i32): void {
	if (len > TOKENS_INPUT_CAPACITY) len = TOKENS_INPUT_CAPACITY;
	let s = dfaState;
	let sum = dfaSum;
	const end = input + <usize>len;
	for (let p = input; p < end; p++) {
		const idx = s | <u32>load<u8>(DFA_BYTE_CLASS + <usize>load<u8>(p));
		sum += <i64>load<i32>(DFA_COST + (<usize>idx << 2));
		s = <u32>load<u16>(DFA_NEXT + (<usize>idx << 1));
	}
	dfaState = s;
	dfaSum = sum;
}

/** The DFA estimate so far (unrounded). */
export function tokensRunTotal(): f64 {
	const pending = <i64>load<i32>(DFA_END + (<usize>(dfaState >> 4) << 2));
	return <f64>(dfaSum + pending) / DFA_SCALE;
}

/** The estimate so far (unrounded): the histogram dotted with the fitted costs. */
export function tokensTotal(): f64 {
	let sum: f64 = 0;
	for (let f = 0; f < TOKEN_FEATURES; f++) {
		sum += <f64>load<u64>(histogram + <usize>(f << 3)) * load<f64>(TOKEN_COSTS + <usize>(f << 3));
	}
	return sum;
}

/** Calibration: record every histogram increment of the next scans (cleared on each call). */
export function tokensTraceEnable(on: bool): void {
	traceOn = on;
	traceCount = 0;
	traceOverflow = false;
}

/** Calibration: pointer to the trace of the last tokensScan, (pieceEnd, feature, amount) u32s. */
export function tokensTracePtr(): usize {
	return trace;
}

/** Calibration: entries recorded by the last tokensScan, or -1 if the trace overflowed. */
export function tokensTraceCount(): i32 {
	return traceOverflow ? -1 : traceCount;
}

@inline
function bump(feature: i32, amount: i32, pieceEnd: i32): void {
	const at = histogram + <usize>(feature << 3);
	store<u64>(at, load<u64>(at) + <u64>amount);
	if (traceOn) record(feature, amount, pieceEnd);
}

function record(feature: i32, amount: i32, pieceEnd: i32): void {
	if (traceCount >= TRACE_CAPACITY) {
		traceOverflow = true;
		return;
	}
	const at = trace + <usize>(traceCount * 12);
	store<u32>(at, pieceEnd);
	store<u32>(at, feature, 4);
	store<u32>(at, amount, 8);
	traceCount++;
}

/**
 * The character at i (i < n) packed as class | width << 4 | byteLength << 8. A character is a
 * byte plus the continuation bytes that follow it (so malformed input still tiles into
 * characters exactly as the DFA sees it); width is the UTF-8 length its first byte announces.
 */
@inline
function charAt(i: i32, n: i32): u32 {
	const b = <u32>load<u8>(input + <usize>i);
	if (b < 0x80 && (i + 1 >= n || <i32>load<i8>(input + <usize>(i + 1)) > -65)) {
		return <u32>load<u8>(asciiClass + b) | (1 << 8);
	}
	return wideChar(b, i, n);
}

function wideChar(b: u32, i: i32, n: i32): u32 {
	let k = i + 1;
	while (k < n && (<u32>load<u8>(input + <usize>k) & 0xc0) == 0x80) k++;
	if (b < 0x80) return <u32>load<u8>(asciiClass + b) | (<u32>(k - i) << 8);
	const width: u32 = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
	let c = C_XLETTER;
	// By first byte only (the DFA sees one byte at a time): U+0080..U+00BF, U+2000..U+2FFF,
	// private use/specials and all 4-byte characters (mostly emoji) are symbols; stray
	// continuation bytes are symbols; everything else (Latin, Greek, Cyrillic, CJK, ...) letters.
	if (b < 0xc0 || b == 0xc2 || b == 0xe2 || b == 0xee || b == 0xef || b >= 0xf0) c = C_XSYMBOL;
	return c | (width << 4) | (<u32>(k - i) << 8);
}

@inline
function isLetter(c: u32): bool {
	return c == C_LOWER || c == C_UPPER || c == C_XLETTER;
}

@inline
function isPunct(c: u32): bool {
	return c == C_PUNCT || c == C_XSYMBOL;
}

@inline
function isSpace(c: u32): bool {
	return c == C_SPACE || c == C_HWS || c == C_NL;
}

/**
 * Scans input[0, len): counts every piece that is complete (all of them when final) and returns
 * the bytes consumed. With final == false scanning stops MAX_PIECE + MARGIN bytes before len
 * (at a piece start); move input[consumed, len) to the front, append, and call again.
 */
export function tokensScan(len: i32, final: bool): i32 {
	traceCount = 0;
	traceOverflow = false;
	if (len > TOKENS_INPUT_CAPACITY) len = TOKENS_INPUT_CAPACITY;
	let i = 0;
	while (i < len) {
		// A piece is at most MAX_PIECE bytes and needs MARGIN bytes of lookahead, so one starting
		// here is complete only if that much input is present (content decides every boundary).
		if (!final && i + MAX_PIECE + MARGIN > len) break;
		i = piece(i, len);
	}
	return i;
}

/** Scans one piece starting at i, counts it, returns its end. */
function piece(i: i32, n: i32): i32 {
	const first = charAt(i, n);
	const c0 = first & 0xf;
	const l0 = <i32>(first >> 8);
	// Words: [^\r\n\p{L}\p{N}]?[upper]*[lower]+ | ...[upper]+[lower]* (o200k's first two rules).
	if (isLetter(c0)) return word(i, i, 0, n);
	if ((c0 == C_SPACE || c0 == C_HWS || isPunct(c0)) && i + l0 < n && isLetter(charAt(i + l0, n) & 0xf)) {
		const k = word(i, i + l0, c0 == C_SPACE ? 1 : 2, n);
		if (c0 == C_XSYMBOL) bump(F_XS2 + <i32>((first >> 4) & 0xf) - 2, 1, k);
		return k;
	}
	if (c0 == C_DIGIT) return digits(i, n);
	if (isPunct(c0)) return punct(i, i, 0, n);
	if (c0 == C_SPACE && i + l0 < n && isPunct(charAt(i + l0, n) & 0xf)) return punct(i, i + l0, 1, n);
	return whitespace(i, n);
}

function word(i: i32, start: i32, prefix: i32, n: i32): i32 {
	let k = start;
	let upper = 0;
	let letters = 0;
	let x2 = 0;
	let x3 = 0;
	const cap = i + MAX_PIECE;
	// Upper-case run (non-ASCII letters join either run), then lower-case run.
	while (k < n && k < cap) {
		const ch = charAt(k, n);
		const c = ch & 0xf;
		if (c == C_UPPER) {
			upper++;
			letters++;
		} else if (c == C_XLETTER) {
			if (((ch >> 4) & 0xf) == 2) x2++;
			else x3++;
		} else break;
		k += <i32>(ch >> 8);
	}
	while (k < n && k < cap) {
		const ch = charAt(k, n);
		const c = ch & 0xf;
		if (c == C_LOWER) letters++;
		else if (c == C_XLETTER) {
			if (((ch >> 4) & 0xf) == 2) x2++;
			else x3++;
		} else break;
		k += <i32>(ch >> 8);
	}
	const letterCase = upper < 2 ? upper : 2;
	const bucket = letters < WORD_LENS - 1 ? letters : WORD_LENS - 1;
	bump((prefix * 3 + letterCase) * WORD_LENS + bucket, 1, k);
	if (letters > WORD_LENS - 1) bump(F_WORD_EXTRA, letters - (WORD_LENS - 1), k);
	if (x2 > 0) bump(F_XL2, x2, k);
	if (x3 > 0) bump(F_XL2 + 1, x3, k);
	return k;
}

function digits(i: i32, n: i32): i32 {
	let k = i;
	let count = 0;
	while (k < n && count < 3) {
		const ch = charAt(k, n);
		if ((ch & 0xf) != C_DIGIT) break;
		count++;
		k += <i32>(ch >> 8);
	}
	bump(F_DIGITS + count - 1, 1, k);
	return k;
}

/** ` ?[^\s\p{L}\p{N}]+[\r\n/]*` with the run starting at `start` (after an optional space). */
function punct(i: i32, start: i32, space: i32, n: i32): i32 {
	let k = start;
	let chars = 0;
	let x2 = 0;
	let x3 = 0;
	let x4 = 0;
	const cap = i + MAX_PIECE;
	while (k < n && k < cap) {
		const ch = charAt(k, n);
		const c = ch & 0xf;
		if (!isPunct(c)) break;
		if (c == C_XSYMBOL) {
			const width = (ch >> 4) & 0xf;
			if (width == 2) x2++;
			else if (width == 3) x3++;
			else x4++;
		}
		chars++;
		k += <i32>(ch >> 8);
	}
	let trail = 0;
	while (k < n && k < cap) {
		const ch = charAt(k, n);
		if ((ch & 0xf) != C_NL && load<u8>(input + <usize>k) != 0x2f) break;
		trail++;
		k += <i32>(ch >> 8);
	}
	const bucket = chars < PUNCT_LENS ? chars : PUNCT_LENS;
	bump(F_PUNCT + space * PUNCT_LENS + bucket - 1, 1, k);
	if (chars > PUNCT_LENS) bump(F_PUNCT_EXTRA, chars - PUNCT_LENS, k);
	if (trail > 0) bump(F_PUNCT_TRAIL, trail, k);
	if (x2 > 0) bump(F_XS2, x2, k);
	if (x3 > 0) bump(F_XS2 + 1, x3, k);
	if (x4 > 0) bump(F_XS2 + 2, x4, k);
	return k;
}

/** `\s*[\r\n]+` | `\s+(?!\S)` | `\s+` over a run of ASCII whitespace starting at i. */
function whitespace(i: i32, n: i32): i32 {
	let k = i;
	let chars = 0;
	let last = i;
	let nlEnd = -1;
	const cap = i + MAX_PIECE;
	while (k < n && k < cap) {
		const ch = charAt(k, n);
		const c = ch & 0xf;
		if (!isSpace(c)) break;
		last = k;
		k += <i32>(ch >> 8);
		chars++;
		if (c == C_NL) nlEnd = k;
	}
	if (nlEnd >= 0) {
		bump(F_WSNL, 1, nlEnd);
		return nlEnd;
	}
	// Leave the last whitespace char to the next piece when a non-space follows a longer run.
	const end = k < n && k < cap && chars >= 2 ? last : k;
	bump(F_WS, 1, end);
	return end;
}
