// One-shot scalar SHA-256 of a message in memory (used by the one-shot export, the scalar build's
// multi-buffer loop and for messages that end alone in the lanes). Leaves the stream untouched.

import { initState, ONE_H, padTail, TAIL, writeDigest } from "./sha256-core";
import { compress } from "./sha256-rounds.generated";

/** SHA-256 of `len` bytes at `src` into 32 bytes at `out`. */
export function hashOne(src: usize, len: i32, out: usize): void {
	const h = ONE_H;
	initState(h);
	const full = len & ~63;
	for (let p: usize = 0; p < <usize>full; p += 64) compress(h, src + p);
	const tail = padTail(TAIL, src + full, len & 63, <u64>len);
	compress(h, TAIL);
	if (tail === 2) compress(h, TAIL + 64);
	writeDigest(out, h, 4);
}
