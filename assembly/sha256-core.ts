// SHA-256 building blocks shared by the streaming hasher (sha256.ts) and the multi-lane entry
// points (sha256x4.ts): the constants, the static buffers JS reads and writes, the scalar round
// functions (used by the generated sha256-rounds.generated.ts), padding and digest output. Nothing here
// allocates at run time.

/** Size of the shared SHA-256 input buffer JS copies bytes into (8 MiB: 4 lanes of 2 MiB chunks). */
export const INPUT_SIZE: i32 = 8 << 20;
/** Most messages one sha256Many() call digests (bounded by the table and output buffers). */
export const MANY_MAX: i32 = 16384;
/** Bytes of a saved streaming state: 8 hash words, the 64-bit byte counter, the pending block. */
export const STATE_SIZE: i32 = 104;

export const INPUT: usize = memory.data(INPUT_SIZE, 64);
/** Digests, 32 bytes each (one for the stream, MANY_MAX for sha256Many). */
export const OUTPUT: usize = memory.data(MANY_MAX * 32, 64);
/** sha256Many table: (offset into INPUT, length) as two u32 per message. */
export const TABLE: usize = memory.data(MANY_MAX * 8, 64);
/** Save/restore area for the streaming state (STATE_SIZE bytes). */
export const STATE_IO: usize = memory.data(STATE_SIZE, 16);
/** Scratch: the padded tail of a one-shot message or a finished stream (2 blocks). */
export const TAIL: usize = memory.data(128, 64);
/** Scratch hash state for one-shot digests (8 words). */
export const ONE_H: usize = memory.data(32, 32);

// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes.
export const K: usize = memory.data<u32>([
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// FIPS 180-4 section 5.3.3: the initial hash value.
export const IV: usize = memory.data<u32>([
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

// @ts-ignore: decorator
@inline export function bigSigma0(x: u32): u32 {
	return rotr<u32>(x, 2) ^ rotr<u32>(x, 13) ^ rotr<u32>(x, 22);
}
// @ts-ignore: decorator
@inline export function bigSigma1(x: u32): u32 {
	return rotr<u32>(x, 6) ^ rotr<u32>(x, 11) ^ rotr<u32>(x, 25);
}
// @ts-ignore: decorator
@inline export function smallSigma0(x: u32): u32 {
	return rotr<u32>(x, 7) ^ rotr<u32>(x, 18) ^ (x >>> 3);
}
// @ts-ignore: decorator
@inline export function smallSigma1(x: u32): u32 {
	return rotr<u32>(x, 17) ^ rotr<u32>(x, 19) ^ (x >>> 10);
}
// @ts-ignore: decorator
@inline export function ch(e: u32, f: u32, g: u32): u32 {
	return g ^ (e & (f ^ g));
}
/** Copies the 8 initial hash words to `state`. */
// @ts-ignore: decorator
@inline export function initState(state: usize): void {
	memory.copy(state, IV, 32);
}

/**
 * Writes the padded tail of a message into `dst` (128 bytes): the last `rem` (< 64) bytes from
 * `src`, the 0x80 marker, zeros and the message length in bits, big-endian. Returns the number
 * of tail blocks (1, or 2 when `rem` >= 56).
 */
export function padTail(dst: usize, src: usize, rem: i32, totalBytes: u64): i32 {
	// Word stores instead of memory.copy/fill: V8 calls out of line for those, and this runs once
	// per message on the sha256Many hot path.
	const blocks = rem < 56 ? 1 : 2;
	const end = <usize>(blocks << 6);
	for (let i: usize = 0; i < end; i += 8) store<u64>(dst + i, 0);
	const n = <usize>rem;
	let i: usize = 0;
	for (; i + 8 <= n; i += 8) store<u64>(dst + i, load<u64>(src + i));
	for (; i < n; i++) store<u8>(dst + i, load<u8>(src + i));
	store<u8>(dst + n, 0x80);
	store<u64>(dst + end - 8, bswap<u64>(totalBytes << 3));
	return blocks;
}

/** Writes the 8 words at `state` (stride `stride` bytes) to `out` as a big-endian digest. */
// @ts-ignore: decorator
@inline export function writeDigest(out: usize, state: usize, stride: usize): void {
	for (let i: usize = 0; i < 8; i++) {
		store<u32>(out + (i << 2), bswap<u32>(load<u32>(state + i * stride)));
	}
}
