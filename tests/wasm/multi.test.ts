import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	chunkCount,
	sha256ChunksOfInput,
	sha256InputBuffer,
	wasmSha256,
	wasmSha256Chunks,
	wasmSha256Many,
	wasmSha256ManyInto,
} from "../../src/wasm/index.ts";
import { BACKENDS, backendCore, bytesOf, hex, inputSize, refHex } from "../helpers/backends.ts";

function refChunks(data: Uint8Array, size: number): string {
	const parts: Buffer[] = [];
	for (let i = 0; i < chunkCount(data.length, size); i++) {
		parts.push(
			createHash("sha256")
				.update(data.subarray(i * size, (i + 1) * size))
				.digest(),
		);
	}
	return Buffer.concat(parts).toString("hex");
}

describe.each(BACKENDS)("multi-buffer SHA-256 on the %s backend", (backend) => {
	const c = backendCore(backend);

	it("digests mixed lengths, empty inputs and strings like node:crypto, in order", () => {
		const inputs: (Uint8Array | string)[] = [
			new Uint8Array(0),
			"",
			"abc",
			bytesOf(55),
			bytesOf(56),
			bytesOf(64),
			bytesOf(5000, 3),
			"héllo wörld 😀",
			bytesOf(1),
			bytesOf(119),
			new Uint8Array(0),
			bytesOf(2048, 9),
			"x".repeat(200),
		];
		const got = wasmSha256Many(inputs, c).map(hex);
		expect(got).toEqual(inputs.map((x) => refHex(x)));
	});

	it("keeps lanes independent when one lane runs far longer than the others", () => {
		for (const long of [0, 1, 2, 3, 4, 5]) {
			const inputs = Array.from({ length: 6 }, (_, i) => bytesOf(i === long ? 10_000 : i * 10, i + 1));
			expect(wasmSha256Many(inputs, c).map(hex)).toEqual(inputs.map((x) => refHex(x)));
		}
	});

	it("digests batches of equal lengths, where lanes move in step through shared padding blocks", () => {
		for (const len of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 2048]) {
			for (const n of [4, 5, 8, 13]) {
				const inputs = Array.from({ length: n }, (_, i) => bytesOf(len, i * 7 + len));
				expect(wasmSha256Many(inputs, c).map(hex)).toEqual(inputs.map((x) => refHex(x)));
			}
		}
		// Equal lengths, then a different length in one lane: the padding schedule must not be reused.
		const mixed = [64, 64, 64, 64, 128, 128, 128, 64, 0, 0, 0, 0, 56, 56, 56, 57].map((len, i) => bytesOf(len, i + 1));
		expect(wasmSha256Many(mixed, c).map(hex)).toEqual(mixed.map((x) => refHex(x)));
	});

	it("handles batch sizes 0..9 (not multiples of 4) and matches the scalar one-shot path", () => {
		for (let n = 0; n <= 9; n++) {
			const inputs = Array.from({ length: n }, (_, i) => bytesOf((i * 37) % 150, i + n));
			expect(wasmSha256Many(inputs, c).map(hex)).toEqual(inputs.map((x) => hex(wasmSha256(x, c))));
		}
	});

	it("splits batches that overflow one Wasm call, by count and by bytes, and oversized inputs", () => {
		const many = Array.from({ length: 40_000 }, (_, i) => `message ${i}`);
		const got = wasmSha256Many(many, c);
		expect(got.length).toBe(40_000);
		for (const i of [0, 1, 16_383, 16_384, 16_385, 32_767, 32_768, 39_999])
			expect(hex(got[i] as Uint8Array)).toBe(refHex(`message ${i}`));
		const size = inputSize(c);
		const big = [
			bytesOf(size / 2 - 5, 1),
			bytesOf(size / 2 + 5, 2),
			bytesOf(size + 1, 3),
			"y".repeat(size / 3 + 1),
			bytesOf(10, 4),
		];
		expect(wasmSha256Many(big, c).map(hex)).toEqual(big.map((x) => refHex(x)));
	});

	it("writes into a caller's buffer and refuses one that is too small", () => {
		const out = new Uint8Array(96);
		wasmSha256ManyInto(["a", "b", "c"], out, c);
		expect(hex(out)).toBe(refHex("a") + refHex("b") + refHex("c"));
		expect(() => wasmSha256ManyInto(["a", "b", "c", "d"], out, c)).toThrow(/at least 128 bytes/);
		expect(() => wasmSha256Many([1 as unknown as string], c)).toThrow(/input 0 is not a Uint8Array or a string/);
	});

	it("equals node:crypto on random batches (property)", () => {
		const input = fc.oneof(
			fc.uint8Array({ maxLength: 300 }),
			fc.string({ unit: "grapheme", maxLength: 80 }),
			fc.integer({ min: 0, max: 3000 }).map((n) => bytesOf(n, n)),
		);
		fc.assert(
			fc.property(fc.array(input, { maxLength: 23 }), (inputs) => {
				expect(wasmSha256Many(inputs, c).map(hex)).toEqual(inputs.map((x) => refHex(x)));
			}),
			{ numRuns: 150 },
		);
	});

	it("digests fixed-size chunks like node:crypto, with a short last chunk and an empty buffer", () => {
		const data = bytesOf((5 << 20) + 12_345, 8);
		for (const size of [1, 63, 64, 1000, 4096, 65_536, 1 << 20, (1 << 20) + 1, 2 << 20, 3 << 20, 5 << 20, 9 << 20]) {
			const input = size === 1 ? data.subarray(0, 5000) : data;
			expect(hex(wasmSha256Chunks(input, size, c))).toBe(refChunks(input, size));
		}
		expect(hex(wasmSha256Chunks(new Uint8Array(0), 1 << 20, c))).toBe(refHex(""));
		expect(hex(wasmSha256Chunks(data.subarray(0, 1 << 20), 1 << 20, c))).toBe(refHex(data.subarray(0, 1 << 20)));
		expect(() => wasmSha256Chunks(data, 0, c)).toThrow(/chunkSize must be a positive integer, got 0/);
	});

	it("digests chunks read straight into the core's input buffer, without a copy", () => {
		const staging = sha256InputBuffer(c);
		expect(staging.length).toBe(inputSize(c));
		const data = bytesOf(staging.length - 100, 21);
		staging.set(data);
		const out = new Uint8Array(8 * 32 + 5);
		sha256ChunksOfInput(data.length, 1 << 20, out, 5, c);
		expect(hex(out.subarray(5))).toBe(refChunks(data, 1 << 20));
		sha256ChunksOfInput(0, 1 << 20, out, 0, c);
		expect(hex(out.subarray(0, 32))).toBe(refHex(""));
		expect(() => sha256ChunksOfInput(staging.length + 1, 1 << 20, out, 0, c)).toThrow(/length must be 0\.\.\d+/);
		expect(() => sha256ChunksOfInput(staging.length, 64, out, 0, c)).toThrow(/chunks exceed one call/);
		expect(() => sha256ChunksOfInput(data.length, 1 << 20, out, 6, c)).toThrow(/out must hold 256 bytes from offset 6/);
	});

	it("digests chunk trees of random sizes (property)", () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 1, max: 3000 }), (len, size) => {
				const data = bytesOf(len, size);
				expect(hex(wasmSha256Chunks(data, size, c))).toBe(refChunks(data, size));
			}),
			{ numRuns: 60 },
		);
	});
});

describe("wasmSha256Many on the shared core", () => {
	it("needs no core argument", () => {
		expect(wasmSha256Many(["abc"]).map(hex)).toEqual([refHex("abc")]);
		expect(hex(wasmSha256Chunks(new Uint8Array(130), 64))).toBe(refChunks(new Uint8Array(130), 64));
	});
});
