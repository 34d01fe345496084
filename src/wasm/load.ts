// Loads the embedded pi-fold Wasm core once, synchronously, and hands out its typed exports.
// Backend choice: the SIMD build when the engine validates it and its self-test passes, the scalar
// build otherwise. PI_FOLD_WASM=scalar (or =simd) forces one, so tests can run every backend.
// Every backend passes the known-answer self-tests before it serves a call: the SHA-256 one (scalar
// stream and the multi-lane entry point) is built in here, so it runs whatever the import order;
// other modules may add theirs with registerCoreSelfTest. Pure in-memory work; no file or network I/O.

import type { CoreBackend, CoreExports, CoreSelfTest, LoadedCore } from "./core-types.ts";
import { SCALAR_WASM_BASE64, SCALAR_WASM_SHA256, SIMD_WASM_BASE64, SIMD_WASM_SHA256 } from "./core-wasm.generated.ts";
import { sha256SelfTest } from "./sha256-abi.ts";

export type { CoreBackend, CoreExports, CoreSelfTest, LoadedCore } from "./core-types.ts";

const selfTests: CoreSelfTest[] = [sha256SelfTest];

/** Registers a self-test every backend must pass before it is used. Call at module load time. */
export function registerCoreSelfTest(test: CoreSelfTest): void {
	if (!selfTests.includes(test)) selfTests.push(test);
}

let loaded: LoadedCore | undefined;
let simdRejection: string | null = null;

/**
 * Why the shared core is not the SIMD build (engine without Wasm SIMD, or the SIMD build failed a
 * self-test), or null when SIMD was chosen, forced off by PI_FOLD_WASM, or nothing is loaded yet.
 */
export function simdRejectionReason(): string | null {
	return simdRejection;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
	const buf = Buffer.from(base64, "base64");
	const out = new Uint8Array(new ArrayBuffer(buf.length));
	out.set(buf);
	return out;
}

function instantiate(backend: CoreBackend): LoadedCore {
	const bytes = decode(backend === "simd" ? SIMD_WASM_BASE64 : SCALAR_WASM_BASE64);
	const module = new WebAssembly.Module(bytes);
	const instance = new WebAssembly.Instance(module, {
		env: {
			abort(_msg: number, _file: number, line: number, column: number): never {
				throw new Error(`pi-fold Wasm core (${backend}) aborted at ${line}:${column}`);
			},
		},
	});
	const exports = instance.exports as unknown as CoreExports;
	return {
		exports,
		backend,
		binarySha256: backend === "simd" ? SIMD_WASM_SHA256 : SCALAR_WASM_SHA256,
		bytes: new Uint8Array(exports.memory.buffer),
	};
}

function runSelfTests(core: LoadedCore): string | null {
	for (const test of selfTests) {
		let failure: string | null;
		try {
			failure = test(core);
		} catch (error) {
			failure = `self-test threw: ${error instanceof Error ? error.message : String(error)}`;
		}
		if (failure !== null) return failure;
	}
	return null;
}

function simdAvailable(): boolean {
	return WebAssembly.validate(decode(SIMD_WASM_BASE64));
}

/** Instantiates a specific backend, bypassing the cache; throws if it cannot run here. */
export function loadCoreBackend(backend: CoreBackend): LoadedCore {
	if (backend === "simd" && !simdAvailable())
		throw new Error("pi-fold Wasm core: this engine does not support Wasm SIMD");
	const core = instantiate(backend);
	const failure = runSelfTests(core);
	if (failure !== null) throw new Error(`pi-fold Wasm core (${backend}) failed its self-test: ${failure}`);
	return core;
}

/** The shared core, loaded on first use. */
export function core(): LoadedCore {
	if (loaded) return loaded;
	const forced = process.env.PI_FOLD_WASM;
	if (forced !== undefined && forced !== "" && forced !== "simd" && forced !== "scalar") {
		throw new Error(`PI_FOLD_WASM must be "simd" or "scalar", got ${JSON.stringify(forced)}`);
	}
	if (forced === "simd" || forced === "scalar") {
		loaded = loadCoreBackend(forced);
		return loaded;
	}
	if (simdAvailable()) {
		const simd = instantiate("simd");
		const failure = runSelfTests(simd);
		if (failure === null) {
			loaded = simd;
			return loaded;
		}
		simdRejection = `the SIMD build failed its self-test: ${failure}`;
	} else {
		simdRejection = "this engine does not support Wasm SIMD";
	}
	loaded = loadCoreBackend("scalar");
	return loaded;
}

/** What serves the shared core: for logs, benchmarks and `pi-fold bench` output. Loads it if needed. */
export interface CoreInfo {
	readonly backend: CoreBackend;
	/** SHA-256 (hex) of the Wasm binary serving calls; saved hasher state is tagged with it. */
	readonly binarySha256: string;
	readonly abiVersion: number;
	/** Why SIMD is not serving (see simdRejectionReason), or null. */
	readonly simdRejection: string | null;
}

export function coreInfo(): CoreInfo {
	const c = core();
	return {
		backend: c.backend,
		binarySha256: c.binarySha256,
		abiVersion: c.exports.abiVersion(),
		simdRejection,
	};
}
