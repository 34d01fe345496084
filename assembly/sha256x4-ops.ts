// The 4-lane (v128) SHA-256 round functions used by the generated sha256x4-rounds.generated.ts, and the load
// of one 64-byte block per lane transposed into the lane-major message schedule W4. Wasm SIMD has
// no rotate, so each rotation is two shifts and an or. Only compiled into the SIMD build.

/** Message words of the 4 lanes: word i of lane l at i * 16 + l * 4 (16 v128). */
export const W4: usize = memory.data(16 * 16, 64);

// @ts-ignore: decorator
@inline export function add(a: v128, b: v128): v128 {
	return i32x4.add(a, b);
}
// @ts-ignore: decorator
@inline function rotr(x: v128, n: i32): v128 {
	return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}
// @ts-ignore: decorator
@inline export function bigSigma0(x: v128): v128 {
	return v128.xor(v128.xor(rotr(x, 2), rotr(x, 13)), rotr(x, 22));
}
// @ts-ignore: decorator
@inline export function bigSigma1(x: v128): v128 {
	return v128.xor(v128.xor(rotr(x, 6), rotr(x, 11)), rotr(x, 25));
}
// @ts-ignore: decorator
@inline export function smallSigma0(x: v128): v128 {
	return v128.xor(v128.xor(rotr(x, 7), rotr(x, 18)), i32x4.shr_u(x, 3));
}
// @ts-ignore: decorator
@inline export function smallSigma1(x: v128): v128 {
	return v128.xor(v128.xor(rotr(x, 17), rotr(x, 19)), i32x4.shr_u(x, 10));
}
// @ts-ignore: decorator
@inline export function ch(e: v128, f: v128, g: v128): v128 {
	return v128.xor(g, v128.and(e, v128.xor(f, g)));
}
// @ts-ignore: decorator
@inline function bswap32x4(x: v128): v128 {
	return i8x16.shuffle(x, x, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/** Loads 16 bytes at offset `o` of each lane's block, byte-swapped and transposed into W4. */
// @ts-ignore: decorator
@inline function loadQuarter(p0: usize, p1: usize, p2: usize, p3: usize, o: usize): void {
	const v0 = bswap32x4(v128.load(p0 + o));
	const v1 = bswap32x4(v128.load(p1 + o));
	const v2 = bswap32x4(v128.load(p2 + o));
	const v3 = bswap32x4(v128.load(p3 + o));
	const t0 = i8x16.shuffle(v0, v1, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
	const t1 = i8x16.shuffle(v0, v1, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
	const t2 = i8x16.shuffle(v2, v3, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
	const t3 = i8x16.shuffle(v2, v3, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
	const w = W4 + (o << 2);
	v128.store(w, i64x2.shuffle(t0, t2, 0, 2), 0);
	v128.store(w, i64x2.shuffle(t0, t2, 1, 3), 16);
	v128.store(w, i64x2.shuffle(t1, t3, 0, 2), 32);
	v128.store(w, i64x2.shuffle(t1, t3, 1, 3), 48);
}

/** Fills W4 from the 64-byte blocks at p0..p3 (lane l reads pl). */
export function loadBlocks(p0: usize, p1: usize, p2: usize, p3: usize): void {
	loadQuarter(p0, p1, p2, p3, 0);
	loadQuarter(p0, p1, p2, p3, 16);
	loadQuarter(p0, p1, p2, p3, 32);
	loadQuarter(p0, p1, p2, p3, 48);
}
