// hashFile: the SHA-256 of a file's whole content, for pi-fold/verify's users. The hashing is the
// one hashing API's (src/wasm/hash-api.ts, a stream on the engine "auto" picks); this file adds the
// reads, overlapped with the hashing. Does its own (async) file reads.

import { open } from "node:fs/promises";
import { createSha256 } from "../wasm/index.ts";
import { HASH_FILE_READ_SIZE, type HashFileOptions, hashFileShape, parseOptions } from "./verify-options.ts";

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
		const hasher = createSha256();
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
		return hasher.digestHex();
	} finally {
		await handle.close();
	}
}
