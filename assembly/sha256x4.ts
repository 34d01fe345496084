// Multi-buffer SHA-256: many independent messages digested 4 at a time in the lanes of v128.
// JS packs the messages into the input buffer and writes an (offset, length) table; one call to
// sha256Many(count) writes every digest to the output buffer. Each lane takes the next message
// as soon as its own finishes, so lanes of different lengths never wait for or disturb each
// other; the last busy lane finishes with the scalar compression function. When all 4 lanes reach
// the message-free padding block of equal-length messages together, its schedule is shared and
// computed once per length. Without SIMD (ASC_FEATURE_SIMD false, the scalar build) the same
// export runs a scalar loop.

import { hashOne } from "./sha256-one";
import { INPUT, IV, K, MANY_MAX, ONE_H, OUTPUT, padTail, smallSigma0, smallSigma1, TABLE, writeDigest } from "./sha256-core";
import { compress } from "./sha256-rounds.generated";
import { loadBlocks } from "./sha256x4-ops";
import { compress4 } from "./sha256x4-rounds.generated";
import { compress4Scheduled } from "./sha256x4-scheduled.generated";

/** Hash words of the 4 lanes: word i of lane l at i * 16 + l * 4. */
const LANES: usize = memory.data(8 * 16, 16);
/** Padded tails (2 blocks) per lane. */
const LANE_TAIL: usize = memory.data(4 * 128, 64);
/** Per-lane bookkeeping (u32 x 4 each): next block pointer, end of full blocks, blocks left, message index. */
const LANE_PTR: usize = memory.data(16, 16);
const LANE_END: usize = memory.data(16, 16);
const LANE_LEFT: usize = memory.data(16, 16);
const LANE_MSG: usize = memory.data(16, 16);
/** Per lane: the address of its message-free padding block (0 if it has none), and its length. */
const LANE_PURE: usize = memory.data(16, 16);
const LANE_LEN: usize = memory.data(16, 16);
/** K + W of the message-free padding block of a padLen-byte message, splat to v128 (64 rounds). */
const PAD_KW: usize = memory.data(64 * 16, 64);
const PAD_W: usize = memory.data(64 * 4, 64);
let padLen: i64 = -1;

export function sha256ManyTablePtr(): usize {
	return TABLE;
}
export function sha256ManyMax(): i32 {
	return MANY_MAX;
}
/** Lanes the multi-buffer entry point runs in this build: 4 with SIMD, 1 in the scalar build. */
export function sha256Lanes(): i32 {
	return ASC_FEATURE_SIMD ? 4 : 1;
}

/**
 * Digests `count` messages described by the table (entry i: u32 offset into the input buffer,
 * u32 length) into the output buffer, 32 bytes per message in table order.
 */
export function sha256Many(count: i32): void {
	if (ASC_FEATURE_SIMD) {
		manyX4(count);
	} else {
		for (let i = 0; i < count; i++) {
			const entry = TABLE + (<usize>i << 3);
			hashOne(INPUT + load<u32>(entry), load<u32>(entry, 4), OUTPUT + (<usize>i << 5));
		}
	}
}

/** Puts message `msg` of the table into lane `l`: its state reset, its tail padded, pointers set. */
function startLane(l: usize, msg: i32): void {
	const entry = TABLE + (<usize>msg << 3);
	const src = INPUT + <usize>load<u32>(entry);
	const len = load<u32>(entry, 4);
	const full = len & ~63;
	const tail = LANE_TAIL + (l << 7);
	const tailBlocks = padTail(tail, src + full, len & 63, <u64>len);
	for (let i: usize = 0; i < 8; i++) store<u32>(LANES + (i << 4) + (l << 2), load<u32>(IV + (i << 2)));
	store<u32>(LANE_PTR + (l << 2), full !== 0 ? src : tail);
	store<u32>(LANE_END + (l << 2), src + full);
	store<u32>(LANE_LEFT + (l << 2), (full >> 6) + tailBlocks);
	store<u32>(LANE_MSG + (l << 2), msg);
	const rem = len & 63;
	store<u32>(LANE_PURE + (l << 2), rem === 0 ? tail : rem >= 56 ? tail + 64 : 0);
	store<u32>(LANE_LEN + (l << 2), len);
}

/**
 * When every lane is at the message-free padding block of a message of the same length (lanes
 * in step over equal-length messages), the block's schedule depends only on that length: it is
 * computed once per length and the rounds run without the schedule work.
 */
function scheduledPadding(): usize {
	const len = load<u32>(LANE_LEN);
	if (
		load<u32>(LANE_PTR, 0) !== load<u32>(LANE_PURE, 0) ||
		load<u32>(LANE_PTR, 4) !== load<u32>(LANE_PURE, 4) ||
		load<u32>(LANE_PTR, 8) !== load<u32>(LANE_PURE, 8) ||
		load<u32>(LANE_PTR, 12) !== load<u32>(LANE_PURE, 12) ||
		load<u32>(LANE_LEN, 4) !== len ||
		load<u32>(LANE_LEN, 8) !== len ||
		load<u32>(LANE_LEN, 12) !== len
	)
		return 0;
	if (<i64>len !== padLen) {
		// The 0x80 marker opens this block only when the message filled its last block exactly.
		store<u32>(PAD_W, (len & 63) === 0 ? 0x80000000 : 0);
		for (let i: usize = 4; i < 56; i += 4) store<u32>(PAD_W + i, 0);
		store<u32>(PAD_W, len >>> 29, 56);
		store<u32>(PAD_W, len << 3, 60);
		for (let p: usize = PAD_W + 64; p < PAD_W + 256; p += 4) {
			store<u32>(p, smallSigma1(load<u32>(p - 8)) + load<u32>(p - 28) + smallSigma0(load<u32>(p - 60)) + load<u32>(p - 64));
		}
		for (let i: usize = 0; i < 64; i++) {
			v128.store(PAD_KW + (i << 4), i32x4.splat(load<u32>(K + (i << 2)) + load<u32>(PAD_W + (i << 2))));
		}
		padLen = <i64>len;
	}
	return PAD_KW;
}

/** Moves lane `l` past the block it just compressed; returns true when its message is done. */
// @ts-ignore: decorator
@inline function advance(l: usize): bool {
	const left = load<u32>(LANE_LEFT + (l << 2)) - 1;
	store<u32>(LANE_LEFT + (l << 2), left);
	if (left === 0) return true;
	let p = <usize>load<u32>(LANE_PTR + (l << 2)) + 64;
	if (p === <usize>load<u32>(LANE_END + (l << 2))) p = LANE_TAIL + (l << 7);
	store<u32>(LANE_PTR + (l << 2), <u32>p);
	return false;
}

/** Finishes the message in lane `l` alone, with the scalar compression function. */
function finishScalar(l: usize): void {
	for (let i: usize = 0; i < 8; i++) store<u32>(ONE_H + (i << 2), load<u32>(LANES + (i << 4) + (l << 2)));
	for (;;) {
		compress(ONE_H, load<u32>(LANE_PTR + (l << 2)));
		if (advance(l)) break;
	}
	writeDigest(OUTPUT + (<usize>load<u32>(LANE_MSG + (l << 2)) << 5), ONE_H, 4);
}

function manyX4(count: i32): void {
	let next = 0;
	let active = 0;
	for (let l: usize = 0; l < 4; l++) {
		if (next < count) {
			startLane(l, next++);
			active++;
		} else {
			store<u32>(LANE_LEFT + (l << 2), 0);
			store<u32>(LANE_PTR + (l << 2), LANE_TAIL + (l << 7));
			store<u32>(LANE_PURE + (l << 2), 0);
		}
	}
	while (active > 1) {
		const kw = scheduledPadding();
		if (kw !== 0) {
			compress4Scheduled(LANES, kw);
		} else {
			loadBlocks(load<u32>(LANE_PTR, 0), load<u32>(LANE_PTR, 4), load<u32>(LANE_PTR, 8), load<u32>(LANE_PTR, 12));
			compress4(LANES);
		}
		for (let l: usize = 0; l < 4; l++) {
			if (load<u32>(LANE_LEFT + (l << 2)) === 0) continue;
			if (!advance(l)) continue;
			writeDigest(OUTPUT + (<usize>load<u32>(LANE_MSG + (l << 2)) << 5), LANES + (l << 2), 16);
			if (next < count) {
				startLane(l, next++);
			} else {
				active--;
				store<u32>(LANE_PTR + (l << 2), LANE_TAIL + (l << 7));
				store<u32>(LANE_PURE + (l << 2), 0);
			}
		}
	}
	if (active === 1) {
		for (let l: usize = 0; l < 4; l++) {
			if (load<u32>(LANE_LEFT + (l << 2)) !== 0) finishScalar(l);
		}
	}
}
