// Test helper: one instance of each Wasm core backend, so a suite defined once runs on both
// (describe.each(BACKENDS)), plus node:crypto references and deterministic byte generators.

import { createHash } from "node:crypto";
import { type CoreBackend, type LoadedCore, loadCoreBackend } from "../../src/wasm/index.ts";

export const BACKENDS: readonly CoreBackend[] = ["simd", "scalar"];

const cores = new Map<CoreBackend, LoadedCore>();

/** A private instance of `backend` (self-tested), shared by the tests of one file. */
export function backendCore(backend: CoreBackend): LoadedCore {
	let c = cores.get(backend);
	if (c === undefined) {
		c = loadCoreBackend(backend);
		cores.set(backend, c);
	}
	return c;
}

/** Bytes of the core's SHA-256 input buffer (inputs beyond it are fed in pieces). */
export function inputSize(c: LoadedCore): number {
	return (c.exports.sha256InputSize as () => number)();
}

/** node:crypto SHA-256 of the concatenation of `parts`, as hex. */
export function refHex(...parts: (Uint8Array | string)[]): string {
	const h = createHash("sha256");
	for (const p of parts) h.update(p);
	return h.digest("hex");
}

export function hex(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

/** `length` pseudo-random bytes from a 32-bit xorshift seeded with `seed` (fast, reproducible). */
export function bytesOf(length: number, seed = 1): Uint8Array {
	const out = new Uint8Array(length);
	const words = new Uint32Array(out.buffer, 0, length >>> 2);
	let x = seed >>> 0 || 1;
	for (let i = 0; i < words.length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		words[i] = x;
	}
	for (let i = words.length * 4; i < length; i++) out[i] = (i * 31 + seed) & 0xff;
	return out;
}
