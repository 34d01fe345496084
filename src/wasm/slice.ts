// UTF-8-aware byte-range slicing: snap a requested [offset, offset + length) of UTF-8 bytes to
// character boundaries, so a peek never returns half a character. Pure in-memory work.
//
// Snapping is OUTWARD: the start moves back to the start of the character containing `offset`,
// the end moves forward to the end of the character containing byte `offset + length - 1`. The
// result is the smallest run of whole characters covering every requested byte (at most 3 extra
// bytes per edge). A boundary snaps to itself, so paging with `offset = previous end` and a fixed
// length tiles the input exactly (no byte skipped or repeated) and always makes progress when
// length >= 1 (inward snapping would return nothing for a length shorter than one character).
// Offsets and ends past the input are clamped to its length; length 0 gives an empty range at the
// snapped start. Malformed input: a stray continuation byte is its own character (see
// assembly/utf8.ts), so an edge never moves more than 3 bytes.
//
// Two implementations that agree byte for byte (tests check): the Wasm core's utf8Floor/utf8Ceil
// over a 7-byte window copied around each edge, and a JS loop over the same rule. Measured on this
// machine (docs/token-estimation.md, "UTF-8 slicing"): JS 25-40 ns per snapped range, Wasm 140-190 ns.
// An edge needs at most 3 byte reads, less than the cost of crossing into Wasm and copying the
// window, so snapUtf8Range uses JS; snapUtf8RangeWasm is the core's export, kept in agreement.

import { core, type LoadedCore } from "./load.ts";

/** A snapped byte range [start, end) of whole characters. */
export interface Utf8Range {
	readonly start: number;
	readonly end: number;
}

/** A snapped range and its decoded text. */
export interface Utf8Slice extends Utf8Range {
	readonly text: string;
}

interface Utf8Exports {
	utf8WindowPtr(): number;
	utf8Floor(ptr: number, len: number, pos: number): number;
	utf8Ceil(ptr: number, len: number, pos: number): number;
}

const decoder = new TextDecoder();

function checkArguments(call: string, bytes: Uint8Array, offset: number, length: number): void {
	if (!(bytes instanceof Uint8Array)) throw new TypeError(`${call}: bytes must be a Uint8Array`);
	if (!Number.isInteger(offset) || offset < 0)
		throw new RangeError(`${call}: offset must be a non-negative integer, got ${String(offset)}`);
	if (!Number.isInteger(length) || length < 0)
		throw new RangeError(`${call}: length must be a non-negative integer, got ${String(length)}`);
}

function sequenceLength(b: number): number {
	if (b < 0x80) return 1;
	if (b < 0xc0) return 0;
	if (b < 0xe0) return 2;
	if (b < 0xf0) return 3;
	if (b < 0xf8) return 4;
	return 0;
}

/** Start of the character containing byte `pos` (pos itself at a boundary or at/after the end). */
function floorJs(bytes: Uint8Array, pos: number): number {
	if (pos <= 0 || pos >= bytes.length) return pos;
	if (((bytes[pos] as number) & 0xc0) !== 0x80) return pos;
	for (let back = 1; back <= 3 && pos - back >= 0; back++) {
		const b = bytes[pos - back] as number;
		if ((b & 0xc0) === 0x80) continue;
		return sequenceLength(b) > back ? pos - back : pos;
	}
	return pos;
}

/** First boundary at or after `pos`. */
function ceilJs(bytes: Uint8Array, pos: number): number {
	const start = floorJs(bytes, pos);
	if (start === pos) return pos;
	const end = Math.min(start + sequenceLength(bytes[start] as number), bytes.length);
	let at = pos;
	while (at < end && ((bytes[at] as number) & 0xc0) === 0x80) at++;
	return at;
}

function clamp(bytes: Uint8Array, offset: number, length: number): { from: number; to: number } {
	const from = Math.min(offset, bytes.length);
	return { from, to: Math.min(from + length, bytes.length) };
}

/**
 * Snaps [offset, offset + length) of UTF-8 `bytes` outward to character boundaries (see the
 * module header), clamped to the input. Throws RangeError naming the argument when offset or
 * length is negative, fractional, NaN or infinite.
 */
export function snapUtf8Range(bytes: Uint8Array, offset: number, length: number): Utf8Range {
	checkArguments("snapUtf8Range", bytes, offset, length);
	const { from, to } = clamp(bytes, offset, length);
	const start = floorJs(bytes, from);
	return { start, end: to === from ? start : ceilJs(bytes, to) };
}

/** snapUtf8Range computed by the Wasm core (same result; tests and callers with bytes in Wasm). */
export function snapUtf8RangeWasm(
	bytes: Uint8Array,
	offset: number,
	length: number,
	loaded: LoadedCore = core(),
): Utf8Range {
	checkArguments("snapUtf8RangeWasm", bytes, offset, length);
	const exports = loaded.exports as unknown as Utf8Exports;
	const ptr = exports.utf8WindowPtr();
	const memory = new Uint8Array(loaded.exports.memory.buffer);
	const edge = (pos: number, ceil: boolean): number => {
		const winStart = Math.max(0, pos - 3);
		const window = bytes.subarray(winStart, Math.min(bytes.length, pos + 4));
		memory.set(window, ptr);
		const local = pos - winStart;
		const snapped = ceil ? exports.utf8Ceil(ptr, window.length, local) : exports.utf8Floor(ptr, window.length, local);
		return winStart + snapped;
	};
	const { from, to } = clamp(bytes, offset, length);
	const start = edge(from, false);
	return { start, end: to === from ? start : edge(to, true) };
}

/** The snapped range (as snapUtf8Range) and its text, decoded from whole characters. */
export function sliceUtf8(bytes: Uint8Array, offset: number, length: number): Utf8Slice {
	checkArguments("sliceUtf8", bytes, offset, length);
	const { start, end } = snapUtf8Range(bytes, offset, length);
	return { start, end, text: decoder.decode(bytes.subarray(start, end)) };
}
