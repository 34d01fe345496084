import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCoreBackend, sliceUtf8, snapUtf8Range, snapUtf8RangeWasm } from "../../src/wasm/index.ts";

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });
const backends = [loadCoreBackend("scalar"), loadCoreBackend("simd")];

/** Characters of every UTF-8 length: 1 (ASCII), 2 (é, Ж), 3 (日, €), 4 (🎉, 𝄞). */
const char = fc.constantFrom("a", "Z", " ", "\n", "é", "Ж", "日", "€", "🎉", "𝄞");
const text = fc.array(char, { maxLength: 60 }).map((chars) => chars.join(""));
const textWithRange = text.chain((t) => {
	const n = encoder.encode(t).length;
	return fc.tuple(fc.constant(t), fc.nat({ max: n + 8 }), fc.nat({ max: n + 8 }));
});

describe("snapUtf8Range", () => {
	it("never splits a character: the slice decodes strictly and re-encodes to exactly its bytes", () => {
		fc.assert(
			fc.property(textWithRange, ([t, offset, length]) => {
				const bytes = encoder.encode(t);
				const { start, end } = snapUtf8Range(bytes, offset, length);
				const slice = bytes.subarray(start, end);
				const decoded = strict.decode(slice);
				expect(decoded).not.toContain("\uFFFD");
				expect(encoder.encode(decoded)).toEqual(slice);
			}),
			{ numRuns: 500 },
		);
	});

	it("snaps outward: covers every requested byte, moving each edge at most 3 bytes", () => {
		fc.assert(
			fc.property(textWithRange, ([t, offset, length]) => {
				const bytes = encoder.encode(t);
				const from = Math.min(offset, bytes.length);
				const to = Math.min(from + length, bytes.length);
				const { start, end } = snapUtf8Range(bytes, offset, length);
				expect(start).toBeLessThanOrEqual(from);
				expect(from - start).toBeLessThanOrEqual(3);
				if (length === 0) expect(end).toBe(start);
				else {
					expect(end).toBeGreaterThanOrEqual(to);
					expect(end - to).toBeLessThanOrEqual(3);
				}
			}),
			{ numRuns: 500 },
		);
	});

	it("pages contiguously: offset = previous end reconstructs the text byte for byte", () => {
		fc.assert(
			fc.property(text, fc.integer({ min: 1, max: 9 }), (t, pageSize) => {
				const bytes = encoder.encode(t);
				const pages: Uint8Array[] = [];
				let offset = 0;
				while (offset < bytes.length) {
					const { start, end } = snapUtf8Range(bytes, offset, pageSize);
					expect(start).toBe(offset);
					expect(end).toBeGreaterThan(start);
					pages.push(bytes.subarray(start, end));
					offset = end;
				}
				expect(Buffer.concat(pages)).toEqual(Buffer.from(bytes));
			}),
			{ numRuns: 300 },
		);
	});

	it("agrees with the Wasm core's utf8Floor/utf8Ceil on both backends", () => {
		fc.assert(
			fc.property(textWithRange, ([t, offset, length]) => {
				const bytes = encoder.encode(t);
				const js = snapUtf8Range(bytes, offset, length);
				for (const loaded of backends) expect(snapUtf8RangeWasm(bytes, offset, length, loaded)).toEqual(js);
			}),
			{ numRuns: 300 },
		);
	});

	it("agrees with the Wasm core on malformed bytes too", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat(45), fc.nat(45), (bytes, offset, length) => {
				const js = snapUtf8Range(bytes, offset, length);
				for (const loaded of backends) expect(snapUtf8RangeWasm(bytes, offset, length, loaded)).toEqual(js);
				expect(js.start).toBeLessThanOrEqual(js.end);
			}),
			{ numRuns: 300 },
		);
	});

	it("moves edges inside characters to their boundaries", () => {
		const bytes = encoder.encode("a日🎉b"); // a | e6 97 a5 | f0 9f 8e 89 | b
		expect(snapUtf8Range(bytes, 2, 1)).toEqual({ start: 1, end: 4 });
		expect(snapUtf8Range(bytes, 0, 5)).toEqual({ start: 0, end: 8 });
		expect(snapUtf8Range(bytes, 6, 2)).toEqual({ start: 4, end: 8 });
		expect(snapUtf8Range(bytes, 6, 0)).toEqual({ start: 4, end: 4 });
	});

	it("clamps offsets and ends past the input and reports the clamped range", () => {
		const bytes = encoder.encode("héllo");
		expect(snapUtf8Range(bytes, 3, 1000)).toEqual({ start: 3, end: 6 });
		expect(snapUtf8Range(bytes, 1000, 10)).toEqual({ start: 6, end: 6 });
		expect(snapUtf8Range(new Uint8Array(0), 0, 10)).toEqual({ start: 0, end: 0 });
	});

	it("refuses negative, fractional, NaN and infinite arguments with a RangeError naming them", () => {
		const bytes = encoder.encode("abc");
		expect(() => snapUtf8Range(bytes, -1, 2)).toThrow(
			new RangeError("snapUtf8Range: offset must be a non-negative integer, got -1"),
		);
		expect(() => snapUtf8Range(bytes, 0, 1.5)).toThrow(/length must be a non-negative integer, got 1.5/);
		expect(() => snapUtf8Range(bytes, Number.NaN, 1)).toThrow(/offset .* got NaN/);
		expect(() => snapUtf8Range(bytes, 0, Number.POSITIVE_INFINITY)).toThrow(/length .* got Infinity/);
		expect(() => snapUtf8RangeWasm(bytes, 0, -3)).toThrow(RangeError);
		expect(() => sliceUtf8(bytes, 0.5, 1)).toThrow(/sliceUtf8: offset/);
	});
});

describe("sliceUtf8", () => {
	it("returns the snapped range and its text", () => {
		const bytes = encoder.encode("peek 日本語 here");
		expect(sliceUtf8(bytes, 6, 4)).toEqual({ start: 5, end: 11, text: "日本" });
		expect(sliceUtf8(bytes, 0, 4)).toEqual({ start: 0, end: 4, text: "peek" });
	});
});
