// Streams longer than 2^32 bits (> 512 MiB) and longer than 2 GiB, generated on the fly (never
// stored), hashed by WasmSha256 on both backends and by node:crypto fed the same chunks. Each case
// runs once, in the heavy lane (`npm run test:heavy`, tests/heavy-lane.ts; about 20 s).

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WasmSha256 } from "../../src/wasm/index.ts";
import { BACKENDS, backendCore, bytesOf } from "../helpers/backends.ts";

const MiB = 1 << 20;
const base = bytesOf(4 * MiB + 4096, 12345);

/** Calls `each` with consecutive generated chunks (odd sizes, so block carries vary) totalling `total` bytes. */
function generate(total: number, each: (chunk: Uint8Array) => void): void {
	let done = 0;
	let i = 0;
	while (done < total) {
		const size = Math.min(total - done, 4 * MiB - 1 + ((i * 977) % 4000));
		const chunk = base.subarray(i % 61, (i % 61) + size);
		const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.length);
		view.setUint32(0, i, true); // make every chunk distinct
		each(chunk);
		done += size;
		i++;
	}
}

describe.each(BACKENDS)("SHA-256 of very long streams on the %s backend", (backend) => {
	const c = backendCore(backend);

	for (const [label, total] of [
		["2^32 bits + 1 byte (512 MiB + 1)", 512 * MiB + 1],
		["2 GiB + 3 bytes", 2048 * MiB + 3],
	] as const) {
		it(`equals node:crypto on ${label}, also after a save/restore past the 2^32-bit mark`, () => {
			const node = createHash("sha256");
			let wasm = new WasmSha256(c);
			let fed = 0;
			let restoredOnce = false;
			generate(total, (chunk) => {
				node.update(chunk);
				wasm.update(chunk);
				fed += chunk.length;
				if (!restoredOnce && fed > 512 * MiB) {
					wasm = WasmSha256.restore(wasm.saveState(), c);
					restoredOnce = true;
				}
			});
			expect(fed).toBe(total);
			expect(restoredOnce).toBe(true);
			expect(wasm.digestHex()).toBe(node.digest("hex"));
		});
	}
});
