// Hashing bytes, strings, streams and files: the simple half of pi-fold/verify. Engines are chosen
// per shape in engines.ts. hashFile does its own (async) file reads; everything else is in-memory.

import { open } from "node:fs/promises";
import { createStreamHasher, digestMany, digestOne, type StreamHasher } from "./engines.ts";
import { toHex } from "./layout.ts";
import {
	type EngineName,
	HASH_FILE_READ_SIZE,
	type HashFileOptions,
	hashFileShape,
	parseOptions,
} from "./verify-options.ts";

/** SHA-256 of bytes or a string (UTF-8), as 32 bytes. */
export function sha256(data: Uint8Array | string): Uint8Array {
	return digestOne(data);
}

/** SHA-256 of bytes or a string (UTF-8), as 64 lowercase hex. */
export function sha256Hex(data: Uint8Array | string): string {
	return toHex(digestOne(data));
}

/** Independent SHA-256 digests of many messages, one per input (batched across Wasm lanes). */
export function sha256Many(inputs: readonly (Uint8Array | string)[], options?: { engine?: EngineName }): Uint8Array[] {
	return digestMany(inputs, options?.engine);
}

/** A streaming SHA-256: `update()` any number of times, then `digest()` / `digestHex()` once. */
export interface Sha256Hasher {
	update(data: Uint8Array | string): Sha256Hasher;
	digest(): Uint8Array;
	digestHex(): string;
}

/** Creates a streaming hasher (node:crypto by default: the measured fastest single stream). */
export function createSha256(options?: { engine?: EngineName }): Sha256Hasher {
	const inner: StreamHasher = createStreamHasher(options?.engine);
	let done = false;
	const hasher: Sha256Hasher = {
		update(data) {
			if (done) throw new Error("Sha256Hasher.update() called after digest()");
			inner.update(typeof data === "string" ? Buffer.from(data, "utf8") : data);
			return hasher;
		},
		digest() {
			if (done) throw new Error("Sha256Hasher.digest() called twice");
			done = true;
			return inner.digest();
		},
		digestHex() {
			return toHex(hasher.digest());
		},
	};
	return hasher;
}

/**
 * SHA-256 (hex) of a file's whole content, streamed with reads overlapped with hashing.
 * Follows a symlink given as `path` like sha256sum does (store verification never does).
 */
export async function hashFile(path: string, options?: HashFileOptions): Promise<string> {
	const opts = parseOptions("hashFile", hashFileShape, options);
	const readSize = opts.readSize ?? HASH_FILE_READ_SIZE;
	const handle = await open(path, "r");
	try {
		const total = (await handle.stat()).size;
		const hasher = createStreamHasher();
		const buffers = [new Uint8Array(readSize), new Uint8Array(readSize)];
		let which = 0;
		let position = 0;
		let pending = handle.read(buffers[0] as Uint8Array, 0, readSize, 0);
		for (;;) {
			const { bytesRead, buffer } = await pending;
			if (bytesRead === 0) break;
			position += bytesRead;
			which ^= 1;
			pending = handle.read(buffers[which] as Uint8Array, 0, readSize, position);
			hasher.update(buffer.subarray(0, bytesRead));
			opts.onProgress?.(position, Math.max(total, position));
		}
		return toHex(hasher.digest());
	} finally {
		await handle.close();
	}
}
