// Streaming SHA-256 (one stream at a time per instance; the JS wrapper swaps hasher states in and
// out with save/restore) and the one-shot digest. Numbers-only ABI: JS copies bytes into the
// buffer at sha256InputPtr() and calls sha256Update(len); digests land at sha256OutputPtr().
// The byte counter is 64-bit, so streams past 2 GiB and past 2^32 bits are padded correctly.

import {
	INPUT,
	INPUT_SIZE,
	initState,
	OUTPUT,
	padTail,
	STATE_IO,
	STATE_SIZE,
	TAIL,
	writeDigest,
} from "./sha256-core";
import { hashOne } from "./sha256-one";
import { compress } from "./sha256-rounds.generated";

/** Hash words of the current stream. */
const H: usize = memory.data(32, 32);
/** Bytes of the current stream not yet compressed (count & 63 of them are meaningful). */
const PENDING: usize = memory.data(64, 64);
/** Bytes absorbed by the current stream (64-bit on purpose). */
let count: u64 = 0;

export function sha256InputPtr(): usize {
	return INPUT;
}
export function sha256InputSize(): i32 {
	return INPUT_SIZE;
}
export function sha256OutputPtr(): usize {
	return OUTPUT;
}
export function sha256StatePtr(): usize {
	return STATE_IO;
}
export function sha256StateSize(): i32 {
	return STATE_SIZE;
}

/** Starts a new stream. */
export function sha256Init(): void {
	initState(H);
	count = 0;
}

/** Absorbs the first `len` bytes of the input buffer into the current stream. */
export function sha256Update(len: i32): void {
	let p = INPUT;
	let n = len;
	const fill = <i32>(count & 63);
	count += <u64>len;
	if (fill !== 0) {
		const take = min(64 - fill, n);
		memory.copy(PENDING + fill, p, take);
		if (fill + take < 64) return;
		compress(H, PENDING);
		p += take;
		n -= take;
	}
	while (n >= 64) {
		compress(H, p);
		p += 64;
		n -= 64;
	}
	if (n > 0) memory.copy(PENDING, p, n);
}

/** Pads and finishes the current stream; its 32-byte digest is written to the output buffer. */
export function sha256Final(): void {
	const fill = <i32>(count & 63);
	const tail = padTail(TAIL, PENDING, fill, count);
	compress(H, TAIL);
	if (tail === 2) compress(H, TAIL + 64);
	writeDigest(OUTPUT, H, 4);
}

/** One-shot SHA-256 of the first `len` bytes of the input buffer into the output buffer. */
export function sha256Digest(len: i32): void {
	hashOne(INPUT, len, OUTPUT);
}

/**
 * Writes the current stream's state to the state buffer: 8 hash words (u32 LE), the byte count
 * (u64 LE), then 64 bytes of pending input of which count & 63 are meaningful (the rest zeroed).
 */
export function sha256SaveState(): void {
	memory.copy(STATE_IO, H, 32);
	store<u64>(STATE_IO, count, 32);
	const fill = <i32>(count & 63);
	memory.copy(STATE_IO + 40, PENDING, fill);
	memory.fill(STATE_IO + 40 + fill, 0, 64 - fill);
}

/** Makes the state in the state buffer (as written by sha256SaveState) the current stream. */
export function sha256RestoreState(): void {
	memory.copy(H, STATE_IO, 32);
	count = load<u64>(STATE_IO, 32);
	memory.copy(PENDING, STATE_IO + 40, 64);
}
