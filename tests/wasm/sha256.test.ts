import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WasmSha256, wasmSha256, wasmSha256Hex } from "../../src/wasm/index.ts";
import { BACKENDS, backendCore, bytesOf, hex, inputSize, refHex } from "../helpers/backends.ts";

// FIPS 180-2 appendix B and the NIST example values.
const NIST: readonly (readonly [string, string])[] = [
	["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
	["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
	[
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	],
	[
		"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
	],
];

describe.each(BACKENDS)("SHA-256 on the %s backend", (backend) => {
	const c = backendCore(backend);

	it("matches the FIPS 180-2 vectors one-shot, streamed and as hex", () => {
		for (const [text, want] of NIST) {
			expect(wasmSha256Hex(text, c)).toBe(want);
			expect(hex(wasmSha256(Buffer.from(text), c))).toBe(want);
			const h = new WasmSha256(c);
			for (const ch of text) h.update(ch);
			expect(h.digestHex()).toBe(want);
		}
	});

	it("matches the one-million-'a' vector, streamed in 1000-byte pieces and one-shot", () => {
		const want = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
		const piece = "a".repeat(1000);
		const h = new WasmSha256(c);
		for (let i = 0; i < 1000; i++) h.update(piece);
		expect(h.digestHex()).toBe(want);
		expect(wasmSha256Hex("a".repeat(1_000_000), c)).toBe(want);
	});

	it("agrees with node:crypto on every length 0..300, one-shot and streamed", () => {
		const data = bytesOf(300, 7);
		for (let n = 0; n <= 300; n++) {
			const m = data.subarray(0, n);
			const want = refHex(m);
			expect(hex(wasmSha256(m, c))).toBe(want);
			expect(new WasmSha256(c).update(m).digestHex()).toBe(want);
		}
	});

	it("gives the one-shot digest for every split point of a 300-byte input", () => {
		const data = bytesOf(300, 11);
		const want = refHex(data);
		for (let k = 0; k <= 300; k++) {
			expect(new WasmSha256(c).update(data.subarray(0, k)).update(data.subarray(k)).digestHex()).toBe(want);
		}
	});

	it("gives the one-shot digest for random chunkings straddling the 55/56/64 block edges", () => {
		const edge = fc.oneof(
			fc.integer({ min: 0, max: 200 }),
			fc.constantFrom(55, 56, 57, 63, 64, 65, 119, 120, 127, 128),
		);
		fc.assert(
			fc.property(fc.array(edge, { maxLength: 12 }), fc.integer({ min: 1, max: 1 << 30 }), (sizes, seed) => {
				const total = sizes.reduce((a, b) => a + b, 0);
				const data = bytesOf(total, seed);
				const h = new WasmSha256(c);
				let off = 0;
				for (const s of sizes) {
					h.update(data.subarray(off, off + s));
					off += s;
				}
				expect(h.digestHex()).toBe(refHex(data));
			}),
			{ numRuns: 300 },
		);
	});

	it("feeds inputs larger than the Wasm input buffer in pieces, across odd piece sizes", () => {
		const size = inputSize(c);
		const data = bytesOf(2 * size + 1000 + 77, 3);
		const want = refHex(data);
		expect(hex(wasmSha256(data, c))).toBe(want);
		const h = new WasmSha256(c);
		const cuts = [0, 13, size + 13, size + 100, 2 * size + 100 + 63, data.length];
		for (let i = 1; i < cuts.length; i++) h.update(data.subarray(cuts[i - 1], cuts[i]));
		expect(h.digestHex()).toBe(want);
	});

	it("gives the one-shot digest for random cuts of an input twice the Wasm buffer (property)", () => {
		const data = bytesOf(2 * inputSize(c) + 4321, 17);
		const want = refHex(data);
		const cut = fc.integer({ min: 0, max: data.length });
		fc.assert(
			fc.property(fc.array(cut, { minLength: 1, maxLength: 4 }), (cuts) => {
				const points = [0, ...cuts.sort((a, b) => a - b), data.length];
				const h = new WasmSha256(c);
				for (let i = 1; i < points.length; i++) h.update(data.subarray(points[i - 1], points[i]));
				expect(h.digestHex()).toBe(want);
			}),
			{ numRuns: 4 },
		);
	});

	it("hashes strings as UTF-8, including 2-4 byte characters, lone surrogates and big strings", () => {
		const samples = [
			"héllo",
			"日本語テキスト",
			"emoji 😀🎉",
			"lone \ud800 surrogate",
			`${"x".repeat(70)}é`,
			"ü".repeat(3_000_000),
		];
		for (const s of samples) {
			expect(wasmSha256Hex(s, c)).toBe(refHex(Buffer.from(s, "utf8")));
			expect(new WasmSha256(c).update(s).update(s).digestHex()).toBe(refHex(s, s));
		}
	});

	it("keeps interleaved hashers independent", () => {
		const a = new WasmSha256(c);
		const b = new WasmSha256(c);
		const x = bytesOf(1000, 5);
		const y = bytesOf(777, 6);
		for (let i = 0; i < 10; i++) {
			a.update(x.subarray(i * 100, i * 100 + 100));
			expect(wasmSha256Hex(y, c)).toBe(refHex(y));
			b.update(y.subarray(i * 77, i * 77 + 77));
		}
		expect(a.digestHex()).toBe(refHex(x));
		expect(b.digestHex()).toBe(refHex(y.subarray(0, 770)));
	});

	it("names the call when a finished hasher is misused", () => {
		const h = new WasmSha256(c).update("abc");
		h.digest();
		expect(() => h.update("x")).toThrow("WasmSha256.update() called after digest()");
		expect(() => h.digest()).toThrow("WasmSha256.digest() called after digest()");
		expect(() => h.digestHex()).toThrow("WasmSha256.digestHex() called after digest()");
		expect(() => h.saveState()).toThrow("WasmSha256.saveState() called after digest()");
		expect(() => new WasmSha256(c).update(42 as unknown as Uint8Array)).toThrow(/WasmSha256.update\(\): data must be/);
		expect(() => wasmSha256(null as unknown as string, c)).toThrow(
			"wasmSha256(): data must be a Uint8Array or a string",
		);
	});
});

describe("the shared core", () => {
	it("serves wasmSha256 without a core argument", () => {
		expect(wasmSha256Hex("abc")).toBe(NIST[1]?.[1]);
		expect(new WasmSha256().update("ab").update("c").digestHex()).toBe(NIST[1]?.[1]);
	});
});
