// The Wasm layer's public face: typed wrappers over the embedded core. Callers import this folder,
// never assembly/ or the loader's raw exports. Pure in-memory work; no file or network I/O.
//
// CONTRACT (being implemented; each wrapper lives in its own file and is re-exported here):
//   sha256.ts     sha256(data: Uint8Array | string): Uint8Array            one-shot, 32-byte digest
//                 sha256Hex(data: Uint8Array | string): string
//                 class Sha256 { update(data): this; digest(): Uint8Array; digestHex(): string;
//                                saveState(): Uint8Array; static restore(state: Uint8Array): Sha256 }
//                   64-bit byte counter; saved state is tagged with the binary's hash and refused
//                   with a clear message by another build.
//   multi.ts      sha256Many(inputs: readonly (Uint8Array | string)[]): Uint8Array[]
//                   independent digests of many inputs in one call, 4 lanes of v128 where available.
//                 sha256Chunks(data: Uint8Array, chunkSize: number): Uint8Array
//                   digests of consecutive fixed-size chunks (last may be short), concatenated,
//                   computed 4 chunks at a time across lanes (chunk trees of large blobs).
//   slice.ts      snapUtf8Range(bytes: Uint8Array, offset: number, length: number): { start, end }
//   tokens.ts     estimateTokens(text: string | Uint8Array): number
//   load.ts       core(), CoreBackend ("simd" | "scalar"); PI_FOLD_WASM=scalar|simd forces a backend.

export { type CoreBackend, core, loadCoreBackend } from "./load.ts";
