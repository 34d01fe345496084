import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
	SCALAR_WASM_BASE64,
	SCALAR_WASM_SHA256,
	SIMD_WASM_BASE64,
	SIMD_WASM_SHA256,
} from "../../src/wasm/core-wasm.generated.ts";
import { core, coreInfo, loadCoreBackend, simdRejectionReason } from "../../src/wasm/index.ts";
import { type LoadedCore, registerCoreSelfTest } from "../../src/wasm/load.ts";
import { sha256SelfTest } from "../../src/wasm/sha256-abi.ts";

describe("the embedded Wasm core", () => {
	it("loads synchronously and reports the ABI version of this build", () => {
		expect(core().exports.abiVersion()).toBe(1);
	});

	it("instantiates both the SIMD and the scalar backend", () => {
		expect(loadCoreBackend("scalar").backend).toBe("scalar");
		expect(loadCoreBackend("simd").backend).toBe("simd");
	});

	it("picks the SIMD build on this engine (Node 22 validates Wasm SIMD) unless PI_FOLD_WASM forces one", () => {
		const forced = process.env.PI_FOLD_WASM;
		expect(core().backend).toBe(forced === "scalar" ? "scalar" : "simd");
		expect(simdRejectionReason()).toBeNull();
		expect(coreInfo()).toEqual({
			backend: core().backend,
			binarySha256: core().binarySha256,
			abiVersion: 1,
			simdRejection: null,
		});
	});

	it("lets PI_FOLD_WASM force a backend for a whole process, and refuses an unknown value", () => {
		const entry = pathToFileURL(resolve("src/wasm/index.ts")).href;
		const run = (value: string) =>
			spawnSync(
				process.execPath,
				[
					"--input-type=module",
					"-e",
					`import { coreInfo } from ${JSON.stringify(entry)}; console.log(coreInfo().backend);`,
				],
				{ env: { ...process.env, PI_FOLD_WASM: value }, encoding: "utf8" },
			);
		expect(run("scalar").stdout.trim()).toBe("scalar");
		expect(run("simd").stdout.trim()).toBe("simd");
		const bad = run("avx");
		expect(bad.status).not.toBe(0);
		expect(bad.stderr).toContain('PI_FOLD_WASM must be "simd" or "scalar", got "avx"');
	});

	it("tags each backend with the SHA-256 of the binary that serves it", () => {
		const simd = loadCoreBackend("simd");
		const scalar = loadCoreBackend("scalar");
		expect(simd.binarySha256).toBe(SIMD_WASM_SHA256);
		expect(scalar.binarySha256).toBe(SCALAR_WASM_SHA256);
		expect(createHash("sha256").update(Buffer.from(SIMD_WASM_BASE64, "base64")).digest("hex")).toBe(SIMD_WASM_SHA256);
		expect(createHash("sha256").update(Buffer.from(SCALAR_WASM_BASE64, "base64")).digest("hex")).toBe(
			SCALAR_WASM_SHA256,
		);
		expect(simd.binarySha256).not.toBe(scalar.binarySha256);
	});

	it("runs 4 SHA-256 lanes on the SIMD build and 1 on the scalar build", () => {
		const lanes = (c: LoadedCore) => (c.exports.sha256Lanes as () => number)();
		expect(lanes(loadCoreBackend("simd"))).toBe(4);
		expect(lanes(loadCoreBackend("scalar"))).toBe(1);
	});

	it("passes the SHA-256 known-answer self-test on both backends, and it catches a broken lane path", () => {
		expect(sha256SelfTest(loadCoreBackend("simd"))).toBeNull();
		expect(sha256SelfTest(loadCoreBackend("scalar"))).toBeNull();
		const broken = loadCoreBackend("simd");
		const exports = { ...broken.exports, sha256Many: () => undefined };
		const failure = sha256SelfTest({ ...broken, exports });
		expect(failure).toMatch(/^sha256Many lane result 0 \(64 bytes\) gave [0-9a-f]{64}, scalar [0-9a-f]{64}$/);
	});

	it("turns a self-test that throws (a trap) into a named failure", () => {
		let armed = false;
		registerCoreSelfTest(() => {
			if (armed) throw new Error("RuntimeError: unreachable");
			return null;
		});
		armed = true;
		try {
			expect(() => loadCoreBackend("simd")).toThrow(
				"pi-fold Wasm core (simd) failed its self-test: self-test threw: RuntimeError: unreachable",
			);
		} finally {
			armed = false;
		}
	});

	it("refuses a backend whose self-test fails, naming the failure", () => {
		let armed = false;
		const test = () => (armed ? "deliberately failing" : null);
		registerCoreSelfTest(test);
		armed = true;
		try {
			expect(() => loadCoreBackend("scalar")).toThrow(
				"pi-fold Wasm core (scalar) failed its self-test: deliberately failing",
			);
		} finally {
			armed = false;
		}
	});
});
