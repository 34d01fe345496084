// The SHA-256 half of the Wasm core's numbers-only ABI as seen from JS: the raw export signatures,
// views over one loaded core's buffers (built once per core and cached), string/byte staging into
// the input buffer, and the known-answer self-test the loader runs on every backend before use.
// Pure in-memory work; imports the loader only for its types, so load.ts can import this file.

import type { LoadedCore } from "./core-types.ts";

/** The SHA-256 exports of assembly/sha256.ts and assembly/sha256x4.ts. */
export interface Sha256Exports {
	sha256InputPtr(): number;
	sha256InputSize(): number;
	sha256OutputPtr(): number;
	sha256StatePtr(): number;
	sha256StateSize(): number;
	sha256Init(): void;
	sha256Update(len: number): void;
	sha256Final(): void;
	sha256Digest(len: number): void;
	sha256SaveState(): void;
	sha256RestoreState(): void;
	sha256ManyTablePtr(): number;
	sha256ManyMax(): number;
	sha256Lanes(): number;
	sha256Many(count: number): void;
}

/** Views over one core's SHA-256 buffers. `owner` is the streaming hasher whose state is live. */
export interface Sha256Views {
	readonly core: LoadedCore;
	readonly ex: Sha256Exports;
	readonly bytes: Uint8Array;
	/** Buffer view of the whole memory, for utf8 writes and hex reads without copies. */
	readonly buf: Buffer;
	readonly inputPtr: number;
	readonly inputSize: number;
	readonly outputPtr: number;
	readonly statePtr: number;
	readonly stateSize: number;
	/** sha256Many table: offset, length per message. */
	readonly table: Uint32Array;
	readonly manyMax: number;
	readonly lanes: number;
	owner: object | null;
}

const cache = new WeakMap<LoadedCore, Sha256Views>();

/** The SHA-256 views of `core`, built on first use. */
export function sha256Views(core: LoadedCore): Sha256Views {
	let v = cache.get(core);
	if (v !== undefined) return v;
	const ex = core.exports as unknown as Sha256Exports;
	const buffer = core.exports.memory.buffer;
	const manyMax = ex.sha256ManyMax();
	v = {
		core,
		ex,
		bytes: new Uint8Array(buffer),
		buf: Buffer.from(buffer),
		inputPtr: ex.sha256InputPtr(),
		inputSize: ex.sha256InputSize(),
		outputPtr: ex.sha256OutputPtr(),
		statePtr: ex.sha256StatePtr(),
		stateSize: ex.sha256StateSize(),
		table: new Uint32Array(buffer, ex.sha256ManyTablePtr(), manyMax * 2),
		manyMax,
		lanes: ex.sha256Lanes(),
		owner: null,
	};
	cache.set(core, v);
	return v;
}

/** Largest UTF-8 size of a string of `length` UTF-16 units. */
export function utf8Bound(length: number): number {
	return length * 3;
}

/**
 * Writes `data` (a string as UTF-8) at `ptr`; the caller guarantees room for its bytes (for a
 * string, utf8Bound(data.length)). Returns the number of bytes written.
 */
export function stage(v: Sha256Views, data: Uint8Array | string, ptr: number): number {
	if (typeof data !== "string") {
		v.bytes.set(data, ptr);
		return data.length;
	}
	// Buffer#write measured ~19 ns per short string here, far below a charCodeAt loop or encodeInto.
	return v.buf.write(data, ptr, utf8Bound(data.length), "utf8");
}

/** `length` reproducible pseudo-random bytes (xorshift32 from `seed`): self-test and calibration data. */
export function deterministicBytes(length: number, seed: number): Uint8Array {
	const out = new Uint8Array(length);
	let x = seed >>> 0 || 1;
	for (let i = 0; i < length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		out[i] = x & 0xff;
	}
	return out;
}

function hexAt(v: Sha256Views, ptr: number): string {
	return v.buf.toString("hex", ptr, ptr + 32);
}

// FIPS 180-2 appendix B.1 and B.2.
const KNOWN: readonly (readonly [string, string])[] = [
	["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
	[
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	],
];

/**
 * Known-answer self-test of the SHA-256 exports: the one-shot and streaming scalar paths against
 * FIPS vectors, then the multi-lane entry point against the one-shot path on 18 messages: two groups
 * of four equal lengths (lanes in step, the shared padding schedule) and ten different lengths
 * (lanes finish at different blocks and one lane ends alone). Returns a
 * message naming the first failure, or null.
 */
export function sha256SelfTest(core: LoadedCore): string | null {
	const v = sha256Views(core);
	const { ex } = v;
	for (const [text, want] of KNOWN) {
		const n = stage(v, text, v.inputPtr);
		ex.sha256Digest(n);
		if (hexAt(v, v.outputPtr) !== want) return `sha256Digest(${JSON.stringify(text)}) gave ${hexAt(v, v.outputPtr)}`;
		const bytes = Buffer.from(text, "latin1");
		ex.sha256Init();
		for (let i = 0; i < n; i += 7) {
			v.bytes.set(bytes.subarray(i, i + 7), v.inputPtr);
			ex.sha256Update(Math.min(7, n - i));
		}
		ex.sha256Final();
		if (hexAt(v, v.outputPtr) !== want) return `streamed ${JSON.stringify(text)} gave ${hexAt(v, v.outputPtr)}`;
	}
	// Four 64-byte then four 60-byte messages first: the lanes step together into the shared
	// padding-schedule path (0x80 opening the padding block, then a length-only block).
	const lengths = [64, 64, 64, 64, 60, 60, 60, 60, 0, 3, 55, 56, 119, 200, 1, 1000, 63, 130];
	const messages = lengths.map((length, i) => deterministicBytes(length, i + 1));
	const expected: string[] = [];
	for (const m of messages) {
		v.bytes.set(m, v.inputPtr);
		ex.sha256Digest(m.length);
		expected.push(hexAt(v, v.outputPtr));
	}
	let off = 0;
	messages.forEach((m, i) => {
		v.bytes.set(m, v.inputPtr + off);
		v.table[2 * i] = off;
		v.table[2 * i + 1] = m.length;
		off += m.length;
	});
	ex.sha256Many(messages.length);
	for (let i = 0; i < messages.length; i++) {
		const got = hexAt(v, v.outputPtr + 32 * i);
		if (got !== expected[i])
			return `sha256Many lane result ${i} (${lengths[i]} bytes) gave ${got}, scalar ${expected[i]}`;
	}
	return null;
}
