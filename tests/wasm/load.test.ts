import { describe, expect, it } from "vitest";
import { core, loadCoreBackend } from "../../src/wasm/index.ts";

describe("the embedded Wasm core", () => {
	it("loads synchronously and reports the ABI version of this build", () => {
		expect(core().exports.abiVersion()).toBe(1);
	});

	it("instantiates both the SIMD and the scalar backend", () => {
		expect(loadCoreBackend("scalar").backend).toBe("scalar");
		expect(loadCoreBackend("simd").backend).toBe("simd");
	});
});
