// The Wasm layer's public face: typed wrappers over the embedded core. Callers import this folder,
// never assembly/ or the loader's raw exports. Pure in-memory work; no file or network I/O.
//
// CONTRACT (being implemented; each wrapper lives in its own file and is re-exported here):
//   sha256.ts     sha256(data: Uint8Array | string, using?: LoadedCore): Uint8Array   one-shot, 32 bytes
//                 sha256Hex(data: Uint8Array | string, using?): string
//                 class Sha256 { constructor(using?); update(data): this; digest(): Uint8Array;
//                                digestHex(): string; saveState(): Uint8Array;
//                                static restore(state: Uint8Array, using?): Sha256 }
//                   64-bit byte counter; saved state (SHA256_STATE_BYTES) is tagged with the ABI
//                   version and the binary's hash, checksummed, and refused with a clear message by
//                   another build. Strings hash as UTF-8. `using` picks a core (tests, workers);
//                   omitted, the shared core() serves.
//   multi.ts      sha256Many(inputs: readonly (Uint8Array | string)[], using?): Uint8Array[]
//                 sha256ManyInto(inputs, out: Uint8Array, using?): void   32 bytes per input, no
//                   per-input allocation; independent digests, 4 lanes of v128 where available.
//                 sha256Chunks(data: Uint8Array, chunkSize: number, using?): Uint8Array
//                 sha256ChunksInto(data, chunkSize, out, using?): void; chunkCount(length, chunkSize)
//                   digests of consecutive fixed-size chunks (last may be short; an empty buffer is
//                   one empty chunk), concatenated, 4 chunks at a time across lanes (chunk trees).
//                 sha256InputBuffer(using?): Uint8Array; sha256ChunksOfInput(length, chunkSize, out,
//                   outOffset?, using?): chunk digests of bytes read straight into the core's buffer.
//   slice.ts      snapUtf8Range(bytes: Uint8Array, offset: number, length: number): Utf8Range { start, end }
//                   snaps OUTWARD to whole characters (start back to its character's start, end
//                   forward to its character's end), clamps past the end, RangeError naming the
//                   argument for negative/fractional/NaN/infinite offset or length; JS (measured
//                   faster); snapUtf8RangeWasm(bytes, offset, length, using?) is the core's version.
//                 sliceUtf8(bytes, offset, length): Utf8Slice { start, end, text }
//   tokens.ts     estimateTokens(text: string | Uint8Array): number   o200k_base-calibrated estimate
//                   (0 for empty input, >= 1 otherwise; a string and its UTF-8 bytes agree).
//                 estimateTokensWith(using: LoadedCore, text): number   on a specific core.
//   load.ts       core(), loadCoreBackend(backend), CoreBackend ("simd" | "scalar"), LoadedCore
//                   { backend, binarySha256, exports }; coreInfo(): { backend, binarySha256,
//                   abiVersion, simdRejection }; simdRejectionReason(). PI_FOLD_WASM=scalar|simd
//                   forces a backend; every backend passes the SHA-256 known-answer self-test first.

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
	sha256Chunks,
	sha256ChunksInto,
	sha256ChunksOfInput,
	sha256InputBuffer,
	sha256Many,
	sha256ManyInto,
} from "./multi.ts";
export { type HashInput, SHA256_STATE_BYTES, Sha256, sha256, sha256Hex } from "./sha256.ts";
export { deterministicBytes } from "./sha256-abi.ts";
export { sliceUtf8, snapUtf8Range, snapUtf8RangeWasm, type Utf8Range, type Utf8Slice } from "./slice.ts";
export { estimateTokens, estimateTokensWith } from "./tokens.ts";
