// The one hashing API (src/wasm/hash-api.ts): every shape gives node:crypto's digests and the FIPS
// 180-2 vectors on every engine, forced or chosen; "auto" follows the calibration per shape; a
// one-shot digest never starts a calibration; and the API file alone (what `pi-fold hash` and the
// search worker bundle) hashes with node:crypto and says plainly that the Wasm engine is not there.

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
	chunksEngine,
	createSha256,
	type EngineCalibration,
	engineCalibration,
	manyEngine,
	measureEngines,
	setCalibrationProvider,
	setEngineCalibration,
	sha256,
	sha256Chunks,
	sha256Hex,
	sha256Many,
	streamEngine,
} from "../../src/wasm/index.ts";
import { bytesOf, hex, refHex } from "../helpers/backends.ts";

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
const ENGINES = ["auto", "node", "wasm"] as const;
const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

/** A calibration that picks `engine` for every shape (and for batches of any size). */
function everywhere(engine: "node" | "wasm"): EngineCalibration {
	const cheap = { perCall: 0, perByte: 0 };
	const dear = { perCall: 1, perByte: 1 };
	return {
		stream: engine,
		chunks: engine,
		many: engine === "wasm" ? { node: dear, wasm: cheap } : { node: cheap, wasm: dear },
		measured: {},
	};
}

afterEach(() => setEngineCalibration(undefined));

describe("the hashing API", () => {
	it("gives the FIPS 180-2 vectors on every engine, one-shot, as a batch, in chunks and streamed", () => {
		for (const engine of ENGINES) {
			for (const [text, want] of NIST) {
				expect(sha256Hex(text, { engine })).toBe(want);
				expect(hex(sha256(Buffer.from(text), { engine }))).toBe(want);
				const h = createSha256({ engine });
				for (const ch of text) h.update(ch);
				expect(h.digestHex()).toBe(want);
			}
			expect(
				sha256Many(
					NIST.map(([text]) => text),
					{ engine },
				).map(hex),
			).toEqual(NIST.map(([, want]) => want));
			const abc = Buffer.from("abcabcabc");
			expect(hex(sha256Chunks(abc, 3, { engine }))).toBe(ABC.repeat(3));
		}
	});

	it("agrees with node:crypto whichever engine the calibration picks for each shape", () => {
		for (const pick of ["node", "wasm"] as const) {
			setEngineCalibration(everywhere(pick));
			expect([streamEngine(), chunksEngine(), manyEngine("auto", 3, 100)]).toEqual([pick, pick, pick]);
			fc.assert(
				fc.property(
					fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 80 })), { maxLength: 12 }),
					fc.integer({ min: 1, max: 200 }),
					(inputs, size) => {
						expect(sha256Many(inputs).map(hex)).toEqual(inputs.map((x) => refHex(x)));
						for (const x of inputs) expect(sha256Hex(x)).toBe(refHex(x));
						const joined = Buffer.concat(inputs.map((x) => Buffer.from(x)));
						const chunks = sha256Chunks(joined, size);
						for (let i = 0; i * size < joined.length; i++)
							expect(hex(chunks.subarray(i * 32, i * 32 + 32))).toBe(refHex(joined.subarray(i * size, (i + 1) * size)));
						const h = createSha256();
						for (const x of inputs) h.update(x);
						expect(h.digestHex()).toBe(refHex(...inputs));
					},
				),
				{ numRuns: 60 },
			);
		}
	});

	it("hashes inputs larger than the Wasm core's buffer on every engine", () => {
		const big = bytesOf(9 * 1024 * 1024 + 3, 7);
		for (const engine of ENGINES) {
			expect(sha256Hex(big, { engine })).toBe(refHex(big));
			expect(sha256Many([big, "x"], { engine }).map(hex)).toEqual([refHex(big), refHex("x")]);
		}
	});

	it("never starts a calibration for a one-shot digest, and follows one that is there", () => {
		setEngineCalibration(undefined);
		let asked = 0;
		setCalibrationProvider(() => {
			asked++;
			return everywhere("wasm");
		});
		try {
			expect(sha256Hex("abc")).toBe(ABC);
			expect(asked).toBe(0);
			expect(streamEngine()).toBe("wasm");
			expect(asked).toBe(1);
			expect(sha256Hex("abc")).toBe(ABC);
			expect(engineCalibration().many.wasm.perCall).toBe(0);
		} finally {
			setCalibrationProvider(() => measureEngines());
		}
	});

	it("refuses what is not bytes or a string, naming the call", () => {
		expect(() => sha256(42 as unknown as string)).toThrow("sha256(): data must be a Uint8Array or a string");
		expect(() => sha256Many(["a", null as unknown as string])).toThrow(/sha256Many\(\): input 1 is not/);
		expect(() => sha256Chunks(new Uint8Array(4), 0)).toThrow(/chunkSize must be a positive integer, got 0/);
		const h = createSha256();
		h.digest();
		expect(() => h.update("x")).toThrow(/after digest/);
	});
});

describe("the API file alone (no Wasm core, no chooser)", () => {
	it("hashes with node:crypto and names what is missing when the Wasm engine is forced", () => {
		const api = pathToFileURL(join(import.meta.dirname, "..", "..", "src", "wasm", "hash-api.ts")).href;
		const script = `
			const m = await import(${JSON.stringify(api)});
			const out = [m.sha256Hex("abc"), m.streamEngine(), m.manyEngine("auto", 1000, 64000), m.createSha256().update("abc").digestHex()];
			try { m.sha256("abc", { engine: "wasm" }); } catch (e) { out.push(e.message); }
			console.log(JSON.stringify(out));`;
		const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
		expect(child.stderr).toBe("");
		expect(JSON.parse(child.stdout)).toEqual([
			ABC,
			"node",
			"node",
			ABC,
			"the Wasm hashing engine is not loaded (import src/wasm/index.ts, not hash-api.ts)",
		]);
	});
});
