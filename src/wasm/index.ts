// The Wasm layer's public face: pi-fold's one hashing API and typed wrappers over the embedded core.
// Callers import this folder, never assembly/ or the loader's raw exports. Pure in-memory work; no
// file or network I/O. What each file holds:
//
//   hash-api.ts   THE hashing API, for every caller above (pi-fold/verify re-exports it):
//                 sha256(data, { engine? }): Uint8Array   sha256Hex(data, { engine? }): string
//                 sha256Many(inputs, { engine? }): Uint8Array[]   independent digests, in order
//                 sha256Chunks(data, chunkSize, { engine? }): Uint8Array   chunk digests, concatenated
//                 createSha256({ engine? }): Sha256Hasher { update(data); digest(); digestHex() }
//                   data: Uint8Array | string (UTF-8). engine "auto" (default) | "node" | "wasm".
//                 streamEngine / chunksEngine / manyEngine(engine, ...): "auto" resolved for a shape
//                   (verify's planner puts the concrete engine in each worker task).
//   engines.ts    the chooser behind "auto": registers the Wasm core as an engine and picks per shape
//                   from the machine's calibration (measureEngines, engineCalibration,
//                   setEngineCalibration, setCalibrationProvider: pi-fold/verify installs its
//                   per-machine cache). Loading this index loads it; a bundle importing hash-api.ts
//                   alone (`pi-fold hash`, the search worker) hashes with node:crypto only.
//   sha256.ts     the Wasm engine, one message or stream: wasmSha256(data, using?: LoadedCore),
//                 wasmSha256Hex(data, using?), class WasmSha256 { constructor(using?); update(data);
//                   digest(); digestHex(); saveState(): Uint8Array; static restore(state, using?) }
//                   64-bit byte counter; saved state (SHA256_STATE_BYTES) is tagged with the ABI
//                   version and the binary's hash, checksummed, and refused with a clear message by
//                   another build. `using` picks a core (tests pin a backend); omitted, core() serves.
//   multi.ts      the Wasm engine's lanes: wasmSha256Many(inputs, using?), wasmSha256ManyInto(inputs,
//                   out, using?) (32 bytes per input, no per-input allocation, 4 lanes of v128 where
//                   available); wasmSha256Chunks / wasmSha256ChunksInto(data, chunkSize, [out,] using?)
//                   and chunkCount(length, chunkSize) (an empty buffer is one empty chunk);
//                   sha256InputBuffer(using?) and sha256ChunksOfInput(length, chunkSize, out,
//                   outOffset?, using?): chunk digests of bytes read straight into the core's buffer.
//   slice.ts      snapUtf8Range(bytes, offset, length): Utf8Range { start, end } snaps OUTWARD to
//                   whole characters, clamps past the end, RangeError naming the argument for a bad
//                   offset or length; JS (measured faster); snapUtf8RangeWasm(...) is the core's.
//                 sliceUtf8(bytes, offset, length): Utf8Slice { start, end, text }
//   tokens.ts     estimateTokens(text: string | Uint8Array): number   o200k_base-calibrated estimate
//                   (0 for empty input, >= 1 otherwise; a string and its UTF-8 bytes agree).
//                 estimateTokensWith(using: LoadedCore, text): number   on a specific core.
//   load.ts       core(), loadCoreBackend(backend), CoreBackend ("simd" | "scalar"), LoadedCore
//                   { backend, binarySha256, exports }; coreInfo(): { backend, binarySha256,
//                   abiVersion, simdRejection }; simdRejectionReason(). PI_FOLD_WASM=scalar|simd
//                   forces a backend; every backend passes the SHA-256 known-answer self-test first.

export {
	type BatchCost,
	type EngineCalibration,
	engineCalibration,
	measureEngines,
	setCalibrationProvider,
	setEngineCalibration,
	WASM_MARGIN,
} from "./engines.ts";
export {
	type ConcreteEngine,
	chunksEngine,
	createSha256,
	type EngineName,
	type HashInput,
	type HashOptions,
	manyEngine,
	type Sha256Hasher,
	sha256,
	sha256Chunks,
	sha256Hex,
	sha256Many,
	streamEngine,
} from "./hash-api.ts";
export {
	type CoreBackend,
	type CoreInfo,
	core,
	coreInfo,
	type LoadedCore,
	loadCoreBackend,
	simdRejectionReason,
} from "./load.ts";
export {
	chunkCount,
	sha256ChunksOfInput,
	sha256InputBuffer,
	wasmSha256Chunks,
	wasmSha256ChunksInto,
	wasmSha256Many,
	wasmSha256ManyInto,
} from "./multi.ts";
export { SHA256_STATE_BYTES, WasmSha256, wasmSha256, wasmSha256Hex } from "./sha256.ts";
export { deterministicBytes } from "./sha256-abi.ts";
export { sliceUtf8, snapUtf8Range, snapUtf8RangeWasm, type Utf8Range, type Utf8Slice } from "./slice.ts";
export { estimateTokens, estimateTokensWith } from "./tokens.ts";
