// UTF-8 character-boundary snapping for byte-range slices (peek, paging). Owns a small static
// window buffer: JS copies the few bytes around an edge into it (an edge only ever needs the 3
// bytes before it and the 3 after it), then asks where the character containing the edge starts
// or ends. The functions also take any (ptr, len) inside memory, so other modules can snap edges
// of data already in Wasm memory. Numbers-only ABI; no allocation.
//
// Rule for malformed input: a position is inside a character only when a lead byte at most 3
// bytes back announces a sequence long enough to cover it and every byte between is a
// continuation byte. Stray continuation bytes are their own "characters" (a decoder maps each to
// U+FFFD), so snapping never moves an edge more than 3 bytes.

/** Capacity of the edge window buffer in bytes (3 before the edge, the edge byte, 3 after, spare). */
const UTF8_WINDOW_CAPACITY: i32 = 16;

const windowBuf: usize = memory.data(UTF8_WINDOW_CAPACITY, 16);

/** Pointer to the edge window buffer (UTF8_WINDOW_CAPACITY bytes). */
export function utf8WindowPtr(): usize {
	return windowBuf;
}

/** Capacity of the edge window buffer in bytes. */
export function utf8WindowCapacity(): i32 {
	return UTF8_WINDOW_CAPACITY;
}

@inline
function isContinuation(b: u32): bool {
	return (b & 0xc0) == 0x80;
}

/** Length a lead byte announces (1 for ASCII, 2..4 for lead bytes, 0 for continuation/invalid). */
@inline
function sequenceLength(b: u32): i32 {
	if (b < 0x80) return 1;
	if (b < 0xc0) return 0;
	if (b < 0xe0) return 2;
	if (b < 0xf0) return 3;
	if (b < 0xf8) return 4;
	return 0;
}

/**
 * Start of the character containing byte `pos` of the `len` bytes at `ptr` (pos itself when it
 * already starts a character, or when pos >= len). Moves back at most 3 bytes.
 */
export function utf8Floor(ptr: usize, len: i32, pos: i32): i32 {
	if (pos <= 0 || pos >= len) return pos;
	if (!isContinuation(load<u8>(ptr + <usize>pos))) return pos;
	for (let back = 1; back <= 3; back++) {
		const at = pos - back;
		if (at < 0) return pos;
		const b = <u32>load<u8>(ptr + <usize>at);
		if (isContinuation(b)) continue;
		return sequenceLength(b) > back ? at : pos;
	}
	return pos;
}

/**
 * End of the character containing byte `pos` (pos itself when it already starts a character):
 * the first boundary at or after pos. Moves forward at most 3 bytes and never past len.
 */
export function utf8Ceil(ptr: usize, len: i32, pos: i32): i32 {
	const start = utf8Floor(ptr, len, pos);
	if (start == pos) return pos;
	const end = start + sequenceLength(<u32>load<u8>(ptr + <usize>start));
	let at = pos;
	while (at < end && at < len && isContinuation(<u32>load<u8>(ptr + <usize>at))) at++;
	return at;
}
