import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SHA256_STATE_BYTES, WasmSha256 } from "../../src/wasm/index.ts";
import { BACKENDS, backendCore, bytesOf, refHex } from "../helpers/backends.ts";

describe.each(BACKENDS)("WasmSha256 save/restore on the %s backend", (backend) => {
	const c = backendCore(backend);

	it("continues a saved stream, in a fresh hasher, to the one-shot digest", () => {
		const data = bytesOf(1000, 9);
		const want = refHex(data);
		for (const cut of [0, 1, 55, 56, 63, 64, 65, 128, 500, 999, 1000]) {
			const h = new WasmSha256(c).update(data.subarray(0, cut));
			const state = h.saveState();
			expect(state.length).toBe(SHA256_STATE_BYTES);
			// The original keeps going after a save, and the restored copy finishes the same stream.
			expect(h.update(data.subarray(cut)).digestHex()).toBe(want);
			expect(WasmSha256.restore(state, c).update(data.subarray(cut)).digestHex()).toBe(want);
		}
	});

	it("restores the same state twice and while other hashers are live", () => {
		const data = bytesOf(300, 4);
		const state = new WasmSha256(c).update(data.subarray(0, 130)).saveState();
		const a = WasmSha256.restore(state, c);
		const other = new WasmSha256(c).update("noise");
		const b = WasmSha256.restore(state, c);
		a.update(data.subarray(130, 200));
		other.update("more noise");
		b.update(data.subarray(130));
		a.update(data.subarray(200));
		expect(a.digestHex()).toBe(refHex(data));
		expect(b.digestHex()).toBe(refHex(data));
		expect(other.digestHex()).toBe(refHex("noisemore noise"));
	});

	it("saves the same bytes for the same stream however it was fed", () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 150 }), { maxLength: 8 }), (sizes) => {
				const total = sizes.reduce((a, b) => a + b, 0);
				const data = bytesOf(total, 2);
				const h = new WasmSha256(c);
				let off = 0;
				for (const s of sizes) {
					h.update(data.subarray(off, off + s));
					off += s;
				}
				expect(Buffer.from(h.saveState()).equals(Buffer.from(new WasmSha256(c).update(data).saveState()))).toBe(true);
			}),
			{ numRuns: 100 },
		);
	});

	it("refuses a state that is truncated, untagged or garbled, naming the problem", () => {
		const state = new WasmSha256(c).update("partial stream").saveState();
		expect(() => WasmSha256.restore(state.subarray(0, 100), c)).toThrow(/state is 100 bytes, expected 176/);
		const untagged = state.slice();
		untagged[0] = 0;
		expect(() => WasmSha256.restore(untagged, c)).toThrow(/does not start with the WasmSha256 state tag/);
		for (const at of [5, 9, 40, 72, 80, 143, 150]) {
			const garbled = state.slice();
			garbled[at] = (garbled[at] ?? 0) ^ 1;
			expect(() => WasmSha256.restore(garbled, c)).toThrow(/WasmSha256.restore\(\): state is garbled/);
		}
		expect(() => WasmSha256.restore("nope" as unknown as Uint8Array, c)).toThrow(/state must be a Uint8Array/);
	});
});

describe("WasmSha256 state across builds", () => {
	it("refuses state saved by the other backend's binary, naming both builds", () => {
		const simd = backendCore("simd");
		const scalar = backendCore("scalar");
		const state = new WasmSha256(simd).update("abc").saveState();
		expect(() => WasmSha256.restore(state, scalar)).toThrow(
			new RegExp(
				`saved by a different Wasm build \\(binary ${simd.binarySha256.slice(0, 12)}.*scalar build is ${scalar.binarySha256.slice(0, 12)}`,
			),
		);
		expect(WasmSha256.restore(state, simd).digestHex()).toBe(refHex("abc"));
	});
});
