// Multi-buffer SHA-256 over the Wasm core: wasmSha256Many digests many independent inputs (4 at a
// time in v128 lanes on the SIMD build), wasmSha256Chunks digests consecutive fixed-size chunks of one
// buffer (the chunk tree of a large blob). They are the hashing API's Wasm engine for those shapes
// (hash-api.ts sha256Many / sha256Chunks pick them where they win). Inputs are packed straight into Wasm memory with an
// (offset, length) table; one Wasm call per batch, batches split when a buffer would overflow.
// Pure in-memory work.

import type { HashInput } from "./hash-api.ts";
import type { LoadedCore } from "./load.ts";
import { viewsFor, wasmSha256 } from "./sha256.ts";
import { stage, utf8Bound } from "./sha256-abi.ts";

/**
 * Writes the SHA-256 of each input to `out` (32 bytes per input, in order, starting at byte 0).
 * `out` must hold at least 32 * inputs.length bytes. Allocates nothing per input.
 */
export function wasmSha256ManyInto(inputs: readonly HashInput[], out: Uint8Array, using?: LoadedCore): void {
	const n = inputs.length;
	if (!(out instanceof Uint8Array) || out.length < n * 32)
		throw new RangeError(`wasmSha256ManyInto(): out must be a Uint8Array of at least ${n * 32} bytes`);
	const v = viewsFor(using);
	const { ex, table, inputPtr, inputSize, outputPtr, manyMax, bytes } = v;
	let count = 0;
	let off = 0;
	let first = 0;
	for (let i = 0; i < n; i++) {
		const x = inputs[i];
		let need: number;
		if (typeof x === "string") need = utf8Bound(x.length);
		else if (x instanceof Uint8Array) need = x.length;
		else throw new TypeError(`wasmSha256Many(): input ${i} is not a Uint8Array or a string`);
		if (count === manyMax || need > inputSize - off) {
			if (count > 0) {
				ex.sha256Many(count);
				out.set(bytes.subarray(outputPtr, outputPtr + count * 32), first * 32);
			}
			count = 0;
			off = 0;
			first = i;
			if (need > inputSize) {
				out.set(wasmSha256(x, v.core), i * 32);
				first = i + 1;
				continue;
			}
		}
		const len = stage(v, x, inputPtr + off);
		table[2 * count] = off;
		table[2 * count + 1] = len;
		count++;
		off += len;
	}
	if (count > 0) {
		ex.sha256Many(count);
		out.set(bytes.subarray(outputPtr, outputPtr + count * 32), first * 32);
	}
}

/**
 * The SHA-256 of each input, in order. The results are 32-byte views into one shared buffer
 * (one allocation per call, not per input).
 */
export function wasmSha256Many(inputs: readonly HashInput[], using?: LoadedCore): Uint8Array[] {
	const out = new Uint8Array(inputs.length * 32);
	wasmSha256ManyInto(inputs, out, using);
	const result = new Array<Uint8Array>(inputs.length);
	for (let i = 0; i < inputs.length; i++) result[i] = out.subarray(i * 32, i * 32 + 32);
	return result;
}

/** Number of chunks wasmSha256Chunks produces: ceil(length / chunkSize), and 1 for an empty buffer. */
export function chunkCount(length: number, chunkSize: number): number {
	return length === 0 ? 1 : Math.ceil(length / chunkSize);
}

/**
 * Writes the SHA-256 of each consecutive `chunkSize`-byte chunk of `data` (the last may be
 * short; an empty buffer is one empty chunk) to `out`, 32 bytes per chunk. Chunks are hashed 4 at
 * a time across lanes while 4 fit the core's input buffer (chunkSize <= 2 MiB); larger chunks use
 * fewer lanes, and chunks larger than the buffer (8 MiB) are streamed one at a time.
 */
export function wasmSha256ChunksInto(data: Uint8Array, chunkSize: number, out: Uint8Array, using?: LoadedCore): void {
	if (!(data instanceof Uint8Array)) throw new TypeError("wasmSha256Chunks(): data must be a Uint8Array");
	if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
		throw new RangeError(`wasmSha256Chunks(): chunkSize must be a positive integer, got ${chunkSize}`);
	const n = chunkCount(data.length, chunkSize);
	if (!(out instanceof Uint8Array) || out.length < n * 32)
		throw new RangeError(`wasmSha256ChunksInto(): out must be a Uint8Array of at least ${n * 32} bytes`);
	const v = viewsFor(using);
	const { ex, table, inputPtr, inputSize, outputPtr, manyMax, bytes } = v;
	const perCall = Math.min(manyMax, Math.floor(inputSize / chunkSize));
	if (perCall === 0) {
		for (let c = 0; c < n; c++) out.set(wasmSha256(data.subarray(c * chunkSize, (c + 1) * chunkSize), v.core), c * 32);
		return;
	}
	for (let c = 0; c < n; c += perCall) {
		const k = Math.min(perCall, n - c);
		const start = c * chunkSize;
		const end = Math.min(data.length, start + k * chunkSize);
		bytes.set(data.subarray(start, end), inputPtr);
		for (let j = 0; j < k; j++) {
			table[2 * j] = j * chunkSize;
			table[2 * j + 1] = Math.min(chunkSize, end - start - j * chunkSize);
		}
		ex.sha256Many(k);
		out.set(bytes.subarray(outputPtr, outputPtr + k * 32), c * 32);
	}
}

/**
 * The core's SHA-256 input buffer (8 MiB) as a view, so a caller can read file data straight
 * into Wasm memory and skip a copy (then call sha256ChunksOfInput). Any other SHA-256 call on the
 * same core overwrites it.
 */
export function sha256InputBuffer(using?: LoadedCore): Uint8Array {
	const v = viewsFor(using);
	return v.bytes.subarray(v.inputPtr, v.inputPtr + v.inputSize);
}

/**
 * Like wasmSha256ChunksInto over the first `length` bytes already in sha256InputBuffer(): writes
 * chunkCount(length, chunkSize) digests to `out` at `outOffset`. Throws a RangeError when
 * `length` exceeds the buffer or the chunks exceed one call (16,384 chunks).
 */
export function sha256ChunksOfInput(
	length: number,
	chunkSize: number,
	out: Uint8Array,
	outOffset = 0,
	using?: LoadedCore,
): void {
	const v = viewsFor(using);
	if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
		throw new RangeError(`sha256ChunksOfInput(): chunkSize must be a positive integer, got ${chunkSize}`);
	if (!Number.isSafeInteger(length) || length < 0 || length > v.inputSize)
		throw new RangeError(`sha256ChunksOfInput(): length must be 0..${v.inputSize}, got ${length}`);
	const n = chunkCount(length, chunkSize);
	if (n > v.manyMax) throw new RangeError(`sha256ChunksOfInput(): ${n} chunks exceed one call (${v.manyMax})`);
	if (!(out instanceof Uint8Array) || outOffset < 0 || out.length < outOffset + n * 32)
		throw new RangeError(`sha256ChunksOfInput(): out must hold ${n * 32} bytes from offset ${outOffset}`);
	for (let j = 0; j < n; j++) {
		v.table[2 * j] = j * chunkSize;
		v.table[2 * j + 1] = Math.min(chunkSize, length - j * chunkSize);
	}
	v.ex.sha256Many(n);
	out.set(v.bytes.subarray(v.outputPtr, v.outputPtr + n * 32), outOffset);
}

/** Digests of consecutive `chunkSize`-byte chunks of `data`, concatenated (see wasmSha256ChunksInto). */
export function wasmSha256Chunks(data: Uint8Array, chunkSize: number, using?: LoadedCore): Uint8Array {
	if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
		throw new RangeError(`wasmSha256Chunks(): chunkSize must be a positive integer, got ${chunkSize}`);
	const out = new Uint8Array(chunkCount(data.length, chunkSize) * 32);
	wasmSha256ChunksInto(data, chunkSize, out, using);
	return out;
}
